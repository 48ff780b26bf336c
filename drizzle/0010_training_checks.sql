CREATE TABLE `known_answers` (
	`instance_ref` integer PRIMARY KEY NOT NULL,
	`project_id` integer NOT NULL,
	`role` text NOT NULL,
	`accepted` text NOT NULL,
	`set_by` integer,
	`set_at` integer NOT NULL,
	FOREIGN KEY (`instance_ref`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`set_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `known_answers_project_role` ON `known_answers` (`project_id`,`role`);--> statement-breakpoint
CREATE TABLE `training_answers` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`instance_ref` integer NOT NULL,
	`substitutes` text NOT NULL,
	`matched` integer NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`, `attempt`, `instance_ref`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`instance_ref`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `training_attempts` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`items` text NOT NULL,
	`score` integer,
	`passed` integer DEFAULT false NOT NULL,
	`started_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`, `attempt`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `lexelts` ADD `note` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `training_required` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `training_threshold` integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `speed_threshold_ms` integer DEFAULT 4000 NOT NULL;