CREATE TABLE `instance_flags` (
	`project_id` integer NOT NULL,
	`instance_ref` integer NOT NULL,
	`user_id` integer NOT NULL,
	`flag` text,
	`note` text DEFAULT '' NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`instance_ref`, `user_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`instance_ref`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `instance_flags_project` ON `instance_flags` (`project_id`,`updated_at`);--> statement-breakpoint
CREATE TABLE `returned_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`instance_ref` integer NOT NULL,
	`user_id` integer NOT NULL,
	`comment` text NOT NULL,
	`returned_by` integer,
	`returned_at` integer NOT NULL,
	`resolved_at` integer,
	`resolved_revision` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`instance_ref`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`returned_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `returned_items_open` ON `returned_items` (`project_id`,`user_id`,`resolved_at`,`id`);--> statement-breakpoint
CREATE INDEX `returned_items_instance` ON `returned_items` (`instance_ref`,`user_id`);