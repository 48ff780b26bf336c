CREATE TABLE `data_versions` (
	`project_id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `responses_project_user_active` ON `responses` (`project_id`,`user_id`,`active_ms`);