CREATE TABLE `gold_review_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`value` text,
	`user_id` integer,
	`at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `gold_review_log_project` ON `gold_review_log` (`project_id`,`at`);--> statement-breakpoint
ALTER TABLE `lemma_overrides` ADD `decision` text DEFAULT 'overridden' NOT NULL;