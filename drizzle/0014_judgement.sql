CREATE TABLE `judgement_candidates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`item_id` integer NOT NULL,
	`text` text NOT NULL,
	`sources` text DEFAULT '[]' NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `judgement_items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `judgement_candidates_item` ON `judgement_candidates` (`item_id`);--> statement-breakpoint
CREATE TABLE `judgement_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`round_id` integer NOT NULL,
	`instance_id` integer NOT NULL,
	`position` integer NOT NULL,
	FOREIGN KEY (`round_id`) REFERENCES `judgement_rounds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`instance_id`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `judgement_items_round_instance` ON `judgement_items` (`round_id`,`instance_id`);--> statement-breakpoint
CREATE TABLE `judgement_judges` (
	`round_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`round_id`, `user_id`),
	FOREIGN KEY (`round_id`) REFERENCES `judgement_rounds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `judgement_labels` (
	`candidate_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`label` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`candidate_id`, `user_id`),
	FOREIGN KEY (`candidate_id`) REFERENCES `judgement_candidates`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `judgement_rounds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`name` text NOT NULL,
	`scheme` text DEFAULT 'good-reasonable-bad' NOT NULL,
	`selection` text DEFAULT 'posthoc' NOT NULL,
	`judges_per_candidate` integer DEFAULT 3 NOT NULL,
	`escalation_cap` integer DEFAULT 3 NOT NULL,
	`seed` integer DEFAULT 0 NOT NULL,
	`allow_own_items` integer DEFAULT false NOT NULL,
	`controls` integer DEFAULT false NOT NULL,
	`sources_asked` text DEFAULT '[]' NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
