CREATE TABLE `scoring_golds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`name` text NOT NULL,
	`gold_name` text,
	`gold_text` text,
	`mwgold_name` text,
	`mwgold_text` text,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `scoring_golds_project_name` ON `scoring_golds` (`project_id`,`name`);--> statement-breakpoint
ALTER TABLE `system_runs` ADD `gold_id` integer REFERENCES scoring_golds(id);