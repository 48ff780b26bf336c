CREATE TABLE `model_calls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`model_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`instance_ref` integer NOT NULL,
	`sample` integer NOT NULL,
	`settings_hash` text NOT NULL,
	`prompt_hash` text NOT NULL,
	`template_version` integer NOT NULL,
	`settings` text NOT NULL,
	`outcome` text NOT NULL,
	`http_status` integer,
	`detail` text DEFAULT '' NOT NULL,
	`answer` text,
	`tokens_in` integer,
	`tokens_out` integer,
	`latency_ms` integer NOT NULL,
	`job_id` integer,
	`at` integer NOT NULL,
	FOREIGN KEY (`model_id`) REFERENCES `models`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`instance_ref`) REFERENCES `instances`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `model_calls_cache` ON `model_calls` (`model_id`,`instance_ref`,`sample`,`prompt_hash`);--> statement-breakpoint
CREATE INDEX `model_calls_job` ON `model_calls` (`job_id`);--> statement-breakpoint
CREATE TABLE `model_decisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`model_id` integer NOT NULL,
	`reason` text DEFAULT '' NOT NULL,
	`decided_by` integer,
	`decided_at` integer NOT NULL,
	`undone_by` integer,
	`undone_at` integer,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`model_id`) REFERENCES `models`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`undone_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `model_decisions_project` ON `model_decisions` (`project_id`,`undone_at`);--> statement-breakpoint
CREATE TABLE `model_measures` (
	`project_id` integer PRIMARY KEY NOT NULL,
	`data_version` integer NOT NULL,
	`report` text NOT NULL,
	`compute_ms` integer NOT NULL,
	`computed_at` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `model_samples` (
	`model_id` integer NOT NULL,
	`sample` integer NOT NULL,
	`user_id` integer NOT NULL,
	PRIMARY KEY(`model_id`, `sample`),
	FOREIGN KEY (`model_id`) REFERENCES `models`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `model_samples_user_id_unique` ON `model_samples` (`user_id`);--> statement-breakpoint
CREATE TABLE `model_templates` (
	`project_id` integer NOT NULL,
	`purpose` text NOT NULL,
	`version` integer NOT NULL,
	`text` text NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`project_id`, `purpose`, `version`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TABLE `models` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`project_id` integer NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`base_url` text NOT NULL,
	`model` text NOT NULL,
	`api_key_env` text,
	`api_key_encrypted` text,
	`max_concurrency` integer DEFAULT 4 NOT NULL,
	`timeout_s` integer DEFAULT 60 NOT NULL,
	`registered_from` text NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`created_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `models_project_name` ON `models` (`project_id`,`name`);--> statement-breakpoint
ALTER TABLE `projects` ADD `suggestion_mode` text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `suggestion_model_id` integer;--> statement-breakpoint
ALTER TABLE `response_history` ADD `suggestions` text;--> statement-breakpoint
ALTER TABLE `responses` ADD `suggestions` text;--> statement-breakpoint
ALTER TABLE `studies` ADD `allow_suggestions` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Counting a model as an annotator changes the gold: every change to model_decisions raises the project's
-- data version (0008, 0009), as participant_exclusions does (0023).
CREATE TRIGGER `model_decisions_data_version_insert` AFTER INSERT ON `model_decisions` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `model_decisions_data_version_update` AFTER UPDATE ON `model_decisions` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `model_decisions_data_version_delete` AFTER DELETE ON `model_decisions` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;
