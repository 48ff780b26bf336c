CREATE TABLE `batch_items` (
	`participant_id` integer NOT NULL,
	`instance_ref` integer NOT NULL,
	`position` integer NOT NULL,
	`released_at` integer,
	PRIMARY KEY(`participant_id`, `instance_ref`),
	FOREIGN KEY (`participant_id`) REFERENCES `participants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`instance_ref`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `batch_items_instance` ON `batch_items` (`instance_ref`);--> statement-breakpoint
CREATE TABLE `participant_exclusions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`participant_id` integer NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`decided_by` integer,
	`decided_at` integer NOT NULL,
	`undone_by` integer,
	`undone_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`participant_id`) REFERENCES `participants`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`undone_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `participant_exclusions_project` ON `participant_exclusions` (`project_id`,`undone_at`);--> statement-breakpoint
CREATE TABLE `participants` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_id` integer NOT NULL,
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`platform_id` text NOT NULL,
	`platform_study_id` text,
	`platform_session_id` text,
	`submit_to` text,
	`address` text,
	`joined_at` integer NOT NULL,
	`consented_at` integer,
	`batch_at` integer,
	`finished_at` integer,
	`state` text DEFAULT 'active' NOT NULL,
	`active_ms` integer DEFAULT 0 NOT NULL,
	`last_seen_at` integer,
	`review` text DEFAULT 'pending' NOT NULL,
	`review_reason` text DEFAULT '' NOT NULL,
	`reviewed_by` integer,
	`reviewed_at` integer,
	`bonus_cents` integer,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reviewed_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `participants_user_id_unique` ON `participants` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `participants_study_platform_id` ON `participants` (`study_id`,`platform_id`);--> statement-breakpoint
CREATE INDEX `participants_study_state` ON `participants` (`study_id`,`state`,`batch_at`);--> statement-breakpoint
CREATE INDEX `participants_project` ON `participants` (`project_id`);--> statement-breakpoint
CREATE TABLE `studies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`token` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`platform` text NOT NULL,
	`batch_size` integer NOT NULL,
	`overlap` integer NOT NULL,
	`minutes` integer NOT NULL,
	`completion_code` text DEFAULT '' NOT NULL,
	`screen_out_code` text DEFAULT '' NOT NULL,
	`consent` text DEFAULT '' NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `studies_token_unique` ON `studies` (`token`);--> statement-breakpoint
CREATE INDEX `studies_project` ON `studies` (`project_id`);--> statement-breakpoint
CREATE TABLE `study_slots` (
	`study_id` integer NOT NULL,
	`instance_ref` integer NOT NULL,
	`taken` integer DEFAULT 0 NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`study_id`, `instance_ref`),
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`instance_ref`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `study_slots_fewest` ON `study_slots` (`study_id`,`taken`,`position`);