CREATE TABLE `adjudications` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`instance_ref` integer NOT NULL,
	`annotator_id` integer NOT NULL,
	`action` text NOT NULL,
	`substitute` text,
	`value` text,
	`reason` text DEFAULT '' NOT NULL,
	`revision` integer NOT NULL,
	`decided_by` integer,
	`decided_at` integer NOT NULL,
	`undone_by` integer,
	`undone_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`instance_ref`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`annotator_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`undone_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `adjudications_project` ON `adjudications` (`project_id`,`undone_at`);--> statement-breakpoint
CREATE INDEX `adjudications_instance` ON `adjudications` (`instance_ref`,`annotator_id`);--> statement-breakpoint
ALTER TABLE `instances` ADD `reviewed_at` integer;--> statement-breakpoint
ALTER TABLE `instances` ADD `reviewed_by` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `projects` ADD `data_version` integer DEFAULT 0 NOT NULL;