CREATE TABLE `account_audit` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor_id` integer,
	`action` text NOT NULL,
	`target_id` integer,
	`project_id` integer,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`target_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `account_audit_target` ON `account_audit` (`target_id`,`at`);--> statement-breakpoint
ALTER TABLE `sign_in_failures` ADD `client` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `sign_in_failures` ADD `device` text;--> statement-breakpoint
ALTER TABLE `sign_in_failures` ADD `throttled` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `sign_in_failures_client` ON `sign_in_failures` (`client`,`at`);--> statement-breakpoint
ALTER TABLE `users` ADD `session_version` integer DEFAULT 0 NOT NULL;