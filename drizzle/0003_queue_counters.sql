CREATE TABLE `annotator_counts` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `queue_counts` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`lexelt_id` integer NOT NULL,
	`done` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `lexelt_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lexelt_id`) REFERENCES `lexelts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `queue_counts_project_user` ON `queue_counts` (`project_id`,`user_id`);--> statement-breakpoint
ALTER TABLE `lexelts` ADD `instance_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `lexelts` ADD `instances_before` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `lexelts_project_position` ON `lexelts` (`project_id`,`position`);--> statement-breakpoint
CREATE INDEX `lexelts_project_lemma` ON `lexelts` (`project_id`,`lemma`,`position`);--> statement-breakpoint
CREATE INDEX `response_history_user` ON `response_history` (`project_id`,`user_id`);