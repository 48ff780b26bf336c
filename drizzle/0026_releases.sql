CREATE TABLE `release_archives` (
	`release_id` integer PRIMARY KEY NOT NULL,
	`project_id` integer NOT NULL,
	`archive` blob NOT NULL,
	FOREIGN KEY (`release_id`) REFERENCES `releases`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `release_datasheets` (
	`project_id` integer PRIMARY KEY NOT NULL,
	`answers` text NOT NULL,
	`updated_by` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`updated_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `release_pseudonyms` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`pseudonym` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `release_pseudonyms_name` ON `release_pseudonyms` (`project_id`,`pseudonym`);--> statement-breakpoint
CREATE TABLE `releases` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`version` text NOT NULL,
	`created_by_name` text,
	`data_version` integer NOT NULL,
	`summary` text NOT NULL,
	`manifest` text NOT NULL,
	`archive_sha256` text NOT NULL,
	`archive_bytes` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `releases_project_version` ON `releases` (`project_id`,`version`);--> statement-breakpoint
CREATE TRIGGER `releases_frozen_update` BEFORE UPDATE ON `releases` BEGIN SELECT RAISE(ABORT, 'a release is frozen: it never changes'); END;--> statement-breakpoint
CREATE TRIGGER `releases_frozen_delete` BEFORE DELETE ON `releases` WHEN EXISTS (SELECT 1 FROM `projects` WHERE `id` = OLD.`project_id`) BEGIN SELECT RAISE(ABORT, 'a release is frozen: it goes only with its project'); END;--> statement-breakpoint
CREATE TRIGGER `release_archives_frozen_update` BEFORE UPDATE ON `release_archives` BEGIN SELECT RAISE(ABORT, 'a release is frozen: it never changes'); END;--> statement-breakpoint
CREATE TRIGGER `release_archives_frozen_delete` BEFORE DELETE ON `release_archives` WHEN EXISTS (SELECT 1 FROM `projects` WHERE `id` = OLD.`project_id`) BEGIN SELECT RAISE(ABORT, 'a release is frozen: it goes only with its project'); END;--> statement-breakpoint
CREATE TRIGGER `release_pseudonyms_frozen_update` BEFORE UPDATE ON `release_pseudonyms` BEGIN SELECT RAISE(ABORT, 'a pseudonym never changes'); END;
