CREATE TABLE `dataset_gold` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`instance_ref` integer NOT NULL,
	`position` integer NOT NULL,
	`substitute` text NOT NULL,
	`count` integer NOT NULL,
	`labels` text,
	`meta` text,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`instance_ref`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dataset_gold_instance_position` ON `dataset_gold` (`instance_ref`,`position`);--> statement-breakpoint
CREATE INDEX `dataset_gold_project` ON `dataset_gold` (`project_id`);--> statement-breakpoint
CREATE TABLE `dataset_instances` (
	`instance_ref` integer PRIMARY KEY NOT NULL,
	`project_id` integer NOT NULL,
	`format` text NOT NULL,
	`meta` text DEFAULT '{}' NOT NULL,
	`imported_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`instance_ref`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`imported_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `dataset_instances_project` ON `dataset_instances` (`project_id`);