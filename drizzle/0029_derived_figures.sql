CREATE TABLE `agreement_sums` (
	`project_id` integer NOT NULL,
	`scope` text NOT NULL,
	`key` text NOT NULL,
	`pos` text DEFAULT '' NOT NULL,
	`present` integer DEFAULT 0 NOT NULL,
	`items` integer DEFAULT 0 NOT NULL,
	`items_with_mode` integer DEFAULT 0 NOT NULL,
	`pairs` integer DEFAULT 0 NOT NULL,
	`pair_units` integer DEFAULT 0 NOT NULL,
	`mode_responses` integer DEFAULT 0 NOT NULL,
	`mode_hits` integer DEFAULT 0 NOT NULL,
	`mw_instances` integer DEFAULT 0 NOT NULL,
	`mw_detection_pairs` integer DEFAULT 0 NOT NULL,
	`mw_detection_agree` integer DEFAULT 0 NOT NULL,
	`mw_identification_pairs` integer DEFAULT 0 NOT NULL,
	`mw_identification_agree` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `scope`, `key`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `annotator_lexelt_counts` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`lexelt_id` integer NOT NULL,
	`responses` integer NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`, `lexelt_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `annotator_sums` (
	`project_id` integer NOT NULL,
	`annotator` text NOT NULL,
	`answered` integer DEFAULT 0 NOT NULL,
	`names` integer DEFAULT 0 NOT NULL,
	`nils` integer DEFAULT 0 NOT NULL,
	`substitute_answers` integer DEFAULT 0 NOT NULL,
	`substitutes_given` integer DEFAULT 0 NOT NULL,
	`multiwords` integer DEFAULT 0 NOT NULL,
	`items` integer DEFAULT 0 NOT NULL,
	`pairs` integer DEFAULT 0 NOT NULL,
	`pair_units` integer DEFAULT 0 NOT NULL,
	`mode_responses` integer DEFAULT 0 NOT NULL,
	`mode_hits` integer DEFAULT 0 NOT NULL,
	`d_items` integer DEFAULT 0 NOT NULL,
	`d_items_with_mode` integer DEFAULT 0 NOT NULL,
	`d_pairs` integer DEFAULT 0 NOT NULL,
	`d_pair_units` integer DEFAULT 0 NOT NULL,
	`d_mode_responses` integer DEFAULT 0 NOT NULL,
	`d_mode_hits` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `annotator`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `derive_queue` (
	`instance_ref` integer PRIMARY KEY NOT NULL,
	`project_id` integer NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `derive_queue_project` ON `derive_queue` (`project_id`);--> statement-breakpoint
CREATE TABLE `derived_counts` (
	`project_id` integer NOT NULL,
	`name` text NOT NULL,
	`value` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`project_id`, `name`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `derived_snapshots` (
	`project_id` integer NOT NULL,
	`kind` text NOT NULL,
	`version` integer NOT NULL,
	`computed_at` integer NOT NULL,
	`compute_ms` integer NOT NULL,
	`body` text NOT NULL,
	PRIMARY KEY(`project_id`, `kind`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `gold_forms` (
	`instance_ref` integer NOT NULL,
	`project_id` integer NOT NULL,
	`form` text NOT NULL,
	`pos` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`instance_ref`, `form`, `pos`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gold_forms_form` ON `gold_forms` (`project_id`,`form`);--> statement-breakpoint
CREATE TABLE `gold_items` (
	`instance_ref` integer PRIMARY KEY NOT NULL,
	`project_id` integer NOT NULL,
	`lexelt_id` integer NOT NULL,
	`lexelt_position` integer NOT NULL,
	`position` integer NOT NULL,
	`instance_id` text NOT NULL,
	`lexelt` text NOT NULL,
	`in_queue` integer NOT NULL,
	`excluded` integer NOT NULL,
	`reviewed` integer NOT NULL,
	`line` text,
	`mw_line` text,
	`in_t` integer NOT NULL,
	`has_mode` integer NOT NULL,
	`rank` real NOT NULL,
	`annotators` text DEFAULT '' NOT NULL,
	`key_in_t` integer DEFAULT false NOT NULL,
	`key_mode` integer DEFAULT false NOT NULL,
	`key_group` text DEFAULT '' NOT NULL,
	`pairs` integer DEFAULT 0 NOT NULL,
	`problems` text,
	`item` text,
	`sums` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `gold_items_order` ON `gold_items` (`project_id`,`lexelt_position`,`position`);--> statement-breakpoint
CREATE INDEX `gold_items_rank` ON `gold_items` (`project_id`,`rank`,`lexelt_position`,`position`);--> statement-breakpoint
CREATE INDEX `gold_items_lowest` ON `gold_items` (`project_id`,`rank`,"pairs" desc,`lexelt_position`,`position`);--> statement-breakpoint
CREATE INDEX `gold_items_lexelt` ON `gold_items` (`project_id`,`lexelt`);--> statement-breakpoint
CREATE INDEX `gold_items_instance` ON `gold_items` (`project_id`,`instance_id`);--> statement-breakpoint
CREATE INDEX `gold_items_key_group` ON `gold_items` (`project_id`,`key_group`,`key_in_t`,`lexelt_position`,`position`);--> statement-breakpoint
CREATE TABLE `gold_left_out` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`reason` text NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`, `reason`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `lemma_forms` (
	`project_id` integer NOT NULL,
	`form` text NOT NULL,
	`count` integer NOT NULL,
	`by_pos` text NOT NULL,
	`proposals` text NOT NULL,
	`choices` text DEFAULT '{}' NOT NULL,
	`spacing` text DEFAULT '{}' NOT NULL,
	`changed` integer NOT NULL,
	PRIMARY KEY(`project_id`, `form`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lemma_forms_order` ON `lemma_forms` (`project_id`,`changed`,`count`);--> statement-breakpoint
CREATE TABLE `lexelt_answer_counts` (
	`lexelt_id` integer NOT NULL,
	`project_id` integer NOT NULL,
	`answers` integer NOT NULL,
	`instances` integer NOT NULL,
	PRIMARY KEY(`lexelt_id`, `answers`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lexelt_answer_counts_project` ON `lexelt_answer_counts` (`project_id`);--> statement-breakpoint
CREATE TABLE `run_items` (
	`run_id` integer NOT NULL,
	`item_id` text NOT NULL,
	`seq` integer NOT NULL,
	`line` integer NOT NULL,
	`lines` integer NOT NULL,
	`text` text NOT NULL,
	PRIMARY KEY(`run_id`, `item_id`),
	FOREIGN KEY (`run_id`) REFERENCES `system_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `run_outcomes` (
	`run_id` integer NOT NULL,
	`block` integer NOT NULL,
	`data` blob NOT NULL,
	PRIMARY KEY(`run_id`, `block`),
	FOREIGN KEY (`run_id`) REFERENCES `system_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `run_texts` (
	`run_id` integer NOT NULL,
	`seq` integer NOT NULL,
	`text` text NOT NULL,
	PRIMARY KEY(`run_id`, `seq`),
	FOREIGN KEY (`run_id`) REFERENCES `system_runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `system_runs` ADD `state` text DEFAULT 'stored' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_runs` ADD `reading` text;--> statement-breakpoint
ALTER TABLE `system_runs` ADD `items` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `system_runs` ADD `groups` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `system_runs` ADD `reader` text;--> statement-breakpoint
CREATE INDEX `system_runs_project_gold` ON `system_runs` (`project_id`,`gold_id`);--> statement-breakpoint
-- #39: the instances whose derived figures are to be brought up to date (derive_queue), queued in the
-- transaction of every change their gold is derived from; lib/server/derived/maintain.ts takes them off.
-- A project's holding projects (imports not yet published: projects.staging_for) queue nothing; the project
-- is looked up so that rows removed by ON DELETE CASCADE when a project goes queue nothing for it (as 0009).
CREATE TRIGGER `responses_derive_insert` AFTER INSERT ON `responses` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`instance_ref`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `responses_derive_update` AFTER UPDATE ON `responses` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`instance_ref`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `responses_derive_delete` AFTER DELETE ON `responses` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT OLD.`instance_ref`, `id` FROM `projects` WHERE `id` = OLD.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `adjudications_derive_insert` AFTER INSERT ON `adjudications` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`instance_ref`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `adjudications_derive_update` AFTER UPDATE ON `adjudications` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`instance_ref`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `adjudications_derive_delete` AFTER DELETE ON `adjudications` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT OLD.`instance_ref`, `id` FROM `projects` WHERE `id` = OLD.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `dataset_gold_derive_insert` AFTER INSERT ON `dataset_gold` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`instance_ref`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `dataset_gold_derive_update` AFTER UPDATE ON `dataset_gold` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`instance_ref`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `dataset_gold_derive_delete` AFTER DELETE ON `dataset_gold` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT OLD.`instance_ref`, `id` FROM `projects` WHERE `id` = OLD.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `known_answers_derive_insert` AFTER INSERT ON `known_answers` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`instance_ref`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `known_answers_derive_update` AFTER UPDATE ON `known_answers` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`instance_ref`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `known_answers_derive_delete` AFTER DELETE ON `known_answers` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT OLD.`instance_ref`, `id` FROM `projects` WHERE `id` = OLD.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `instances_derive_insert` AFTER INSERT ON `instances` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`id`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `instances_derive_update` AFTER UPDATE ON `instances` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`id`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `instances_derive_delete` AFTER DELETE ON `instances` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT OLD.`id`, `id` FROM `projects` WHERE `id` = OLD.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `training_answers_derive_insert` AFTER INSERT ON `training_answers` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`instance_ref`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `training_answers_derive_update` AFTER UPDATE ON `training_answers` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT NEW.`instance_ref`, `id` FROM `projects` WHERE `id` = NEW.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `training_answers_derive_delete` AFTER DELETE ON `training_answers` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT OLD.`instance_ref`, `id` FROM `projects` WHERE `id` = OLD.`project_id` AND `staging_for` IS NULL
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `lexelts_derive_update` AFTER UPDATE OF `item`, `position`, `project_id` ON `lexelts`
  WHEN OLD.`item` IS NOT NEW.`item` OR OLD.`position` IS NOT NEW.`position` OR OLD.`project_id` IS NOT NEW.`project_id` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT `instances`.`id`, `projects`.`id` FROM `instances` JOIN `projects` ON `projects`.`id` = NEW.`project_id` AND `projects`.`staging_for` IS NULL WHERE `instances`.`lexelt_id` = NEW.`id`
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `lemma_overrides_derive_insert` AFTER INSERT ON `lemma_overrides` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT `gold_forms`.`instance_ref`, `projects`.`id` FROM `gold_forms` JOIN `projects` ON `projects`.`id` = `gold_forms`.`project_id` WHERE `gold_forms`.`project_id` = NEW.`project_id` AND `gold_forms`.`form` = NEW.`form`
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `lemma_overrides_derive_update` AFTER UPDATE ON `lemma_overrides` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT `gold_forms`.`instance_ref`, `projects`.`id` FROM `gold_forms` JOIN `projects` ON `projects`.`id` = `gold_forms`.`project_id` WHERE `gold_forms`.`project_id` = NEW.`project_id` AND `gold_forms`.`form` = NEW.`form`
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `lemma_overrides_derive_delete` AFTER DELETE ON `lemma_overrides` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT `gold_forms`.`instance_ref`, `projects`.`id` FROM `gold_forms` JOIN `projects` ON `projects`.`id` = `gold_forms`.`project_id` WHERE `gold_forms`.`project_id` = OLD.`project_id` AND `gold_forms`.`form` = OLD.`form`
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `participant_exclusions_derive_insert` AFTER INSERT ON `participant_exclusions` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT `responses`.`instance_ref`, `projects`.`id` FROM `responses` JOIN `projects` ON `projects`.`id` = NEW.`project_id` AND `projects`.`staging_for` IS NULL WHERE `responses`.`project_id` = NEW.`project_id` AND `responses`.`user_id` = (SELECT `user_id` FROM `participants` WHERE `id` = NEW.`participant_id`)
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `participant_exclusions_derive_update` AFTER UPDATE ON `participant_exclusions` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT `responses`.`instance_ref`, `projects`.`id` FROM `responses` JOIN `projects` ON `projects`.`id` = NEW.`project_id` AND `projects`.`staging_for` IS NULL WHERE `responses`.`project_id` = NEW.`project_id` AND `responses`.`user_id` = (SELECT `user_id` FROM `participants` WHERE `id` = NEW.`participant_id`)
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `participant_exclusions_derive_delete` AFTER DELETE ON `participant_exclusions` BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT `responses`.`instance_ref`, `projects`.`id` FROM `responses` JOIN `projects` ON `projects`.`id` = OLD.`project_id` AND `projects`.`staging_for` IS NULL WHERE `responses`.`project_id` = OLD.`project_id` AND `responses`.`user_id` = (SELECT `user_id` FROM `participants` WHERE `id` = OLD.`participant_id`)
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `projects_derive_language` AFTER UPDATE OF `language` ON `projects` WHEN OLD.`language` IS NOT NEW.`language` AND NEW.`staging_for` IS NULL BEGIN
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`) SELECT `id`, `project_id` FROM `instances` WHERE `project_id` = NEW.`id` AND true
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
-- Who is left out of the gold, kept from participant_exclusions (a participant left out while a decision of theirs is active).
CREATE TRIGGER `participant_exclusions_left_out_insert` AFTER INSERT ON `participant_exclusions` BEGIN
  DELETE FROM `gold_left_out` WHERE `project_id` = NEW.`project_id` AND `reason` = 'participant'
    AND `user_id` = (SELECT `user_id` FROM `participants` WHERE `id` = NEW.`participant_id`);
  INSERT INTO `gold_left_out` (`project_id`, `user_id`, `reason`)
    SELECT NEW.`project_id`, `participants`.`user_id`, 'participant' FROM `participants` JOIN `projects` ON `projects`.`id` = NEW.`project_id`
     WHERE `participants`.`id` = NEW.`participant_id`
       AND EXISTS (SELECT 1 FROM `participant_exclusions` WHERE `project_id` = NEW.`project_id` AND `participant_id` = NEW.`participant_id` AND `undone_at` IS NULL);
END;--> statement-breakpoint
CREATE TRIGGER `participant_exclusions_left_out_update` AFTER UPDATE ON `participant_exclusions` BEGIN
  DELETE FROM `gold_left_out` WHERE `project_id` = NEW.`project_id` AND `reason` = 'participant'
    AND `user_id` = (SELECT `user_id` FROM `participants` WHERE `id` = NEW.`participant_id`);
  INSERT INTO `gold_left_out` (`project_id`, `user_id`, `reason`)
    SELECT NEW.`project_id`, `participants`.`user_id`, 'participant' FROM `participants` JOIN `projects` ON `projects`.`id` = NEW.`project_id`
     WHERE `participants`.`id` = NEW.`participant_id`
       AND EXISTS (SELECT 1 FROM `participant_exclusions` WHERE `project_id` = NEW.`project_id` AND `participant_id` = NEW.`participant_id` AND `undone_at` IS NULL);
END;--> statement-breakpoint
CREATE TRIGGER `participant_exclusions_left_out_delete` AFTER DELETE ON `participant_exclusions` BEGIN
  DELETE FROM `gold_left_out` WHERE `project_id` = OLD.`project_id` AND `reason` = 'participant'
    AND `user_id` = (SELECT `user_id` FROM `participants` WHERE `id` = OLD.`participant_id`);
  INSERT INTO `gold_left_out` (`project_id`, `user_id`, `reason`)
    SELECT OLD.`project_id`, `participants`.`user_id`, 'participant' FROM `participants` JOIN `projects` ON `projects`.`id` = OLD.`project_id`
     WHERE `participants`.`id` = OLD.`participant_id`
       AND EXISTS (SELECT 1 FROM `participant_exclusions` WHERE `project_id` = OLD.`project_id` AND `participant_id` = OLD.`participant_id` AND `undone_at` IS NULL);
END;--> statement-breakpoint
INSERT INTO `gold_left_out` (`project_id`, `user_id`, `reason`)
  SELECT DISTINCT `participant_exclusions`.`project_id`, `participants`.`user_id`, 'participant' FROM `participant_exclusions`
    JOIN `participants` ON `participants`.`id` = `participant_exclusions`.`participant_id`
   WHERE `participant_exclusions`.`undone_at` IS NULL;--> statement-breakpoint
-- A model's pseudo-annotators (users.role 'model', model_samples) are left out of the gold while their model is not
-- counted as an annotator (an active model_decisions row): kept here, and their answered instances queued when that changes.
CREATE TRIGGER `model_samples_left_out_insert` AFTER INSERT ON `model_samples` BEGIN
  INSERT OR IGNORE INTO `gold_left_out` (`project_id`, `user_id`, `reason`)
    SELECT `models`.`project_id`, NEW.`user_id`, 'model' FROM `models` WHERE `models`.`id` = NEW.`model_id`
       AND NOT EXISTS (SELECT 1 FROM `model_decisions` WHERE `model_id` = NEW.`model_id` AND `undone_at` IS NULL);
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`)
    SELECT `responses`.`instance_ref`, `projects`.`id` FROM `responses` JOIN `projects` ON `projects`.`id` = `responses`.`project_id` AND `projects`.`staging_for` IS NULL
     WHERE `responses`.`user_id` = NEW.`user_id` AND true
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `model_decisions_derive_insert` AFTER INSERT ON `model_decisions` BEGIN
  DELETE FROM `gold_left_out` WHERE `reason` = 'model' AND `user_id` IN (SELECT `user_id` FROM `model_samples` WHERE `model_id` = NEW.`model_id`);
  INSERT OR IGNORE INTO `gold_left_out` (`project_id`, `user_id`, `reason`)
    SELECT `models`.`project_id`, `model_samples`.`user_id`, 'model' FROM `model_samples` JOIN `models` ON `models`.`id` = `model_samples`.`model_id`
     WHERE `model_samples`.`model_id` = NEW.`model_id`
       AND NOT EXISTS (SELECT 1 FROM `model_decisions` WHERE `model_id` = NEW.`model_id` AND `undone_at` IS NULL);
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`)
    SELECT `responses`.`instance_ref`, `projects`.`id` FROM `model_samples` JOIN `responses` ON `responses`.`user_id` = `model_samples`.`user_id`
      JOIN `projects` ON `projects`.`id` = `responses`.`project_id` AND `projects`.`staging_for` IS NULL
     WHERE `model_samples`.`model_id` = NEW.`model_id` AND true
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `model_decisions_derive_update` AFTER UPDATE ON `model_decisions` BEGIN
  DELETE FROM `gold_left_out` WHERE `reason` = 'model' AND `user_id` IN (SELECT `user_id` FROM `model_samples` WHERE `model_id` = NEW.`model_id`);
  INSERT OR IGNORE INTO `gold_left_out` (`project_id`, `user_id`, `reason`)
    SELECT `models`.`project_id`, `model_samples`.`user_id`, 'model' FROM `model_samples` JOIN `models` ON `models`.`id` = `model_samples`.`model_id`
     WHERE `model_samples`.`model_id` = NEW.`model_id`
       AND NOT EXISTS (SELECT 1 FROM `model_decisions` WHERE `model_id` = NEW.`model_id` AND `undone_at` IS NULL);
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`)
    SELECT `responses`.`instance_ref`, `projects`.`id` FROM `model_samples` JOIN `responses` ON `responses`.`user_id` = `model_samples`.`user_id`
      JOIN `projects` ON `projects`.`id` = `responses`.`project_id` AND `projects`.`staging_for` IS NULL
     WHERE `model_samples`.`model_id` = NEW.`model_id` AND true
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
CREATE TRIGGER `model_decisions_derive_delete` AFTER DELETE ON `model_decisions` BEGIN
  DELETE FROM `gold_left_out` WHERE `reason` = 'model' AND `user_id` IN (SELECT `user_id` FROM `model_samples` WHERE `model_id` = OLD.`model_id`);
  INSERT OR IGNORE INTO `gold_left_out` (`project_id`, `user_id`, `reason`)
    SELECT `models`.`project_id`, `model_samples`.`user_id`, 'model' FROM `model_samples` JOIN `models` ON `models`.`id` = `model_samples`.`model_id`
     WHERE `model_samples`.`model_id` = OLD.`model_id`
       AND NOT EXISTS (SELECT 1 FROM `model_decisions` WHERE `model_id` = OLD.`model_id` AND `undone_at` IS NULL);
  INSERT INTO `derive_queue` (`instance_ref`, `project_id`)
    SELECT `responses`.`instance_ref`, `projects`.`id` FROM `model_samples` JOIN `responses` ON `responses`.`user_id` = `model_samples`.`user_id`
      JOIN `projects` ON `projects`.`id` = `responses`.`project_id` AND `projects`.`staging_for` IS NULL
     WHERE `model_samples`.`model_id` = OLD.`model_id` AND true
    ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
END;--> statement-breakpoint
INSERT OR IGNORE INTO `gold_left_out` (`project_id`, `user_id`, `reason`)
  SELECT `models`.`project_id`, `model_samples`.`user_id`, 'model' FROM `model_samples` JOIN `models` ON `models`.`id` = `model_samples`.`model_id`
   WHERE NOT EXISTS (SELECT 1 FROM `model_decisions` WHERE `model_id` = `models`.`id` AND `undone_at` IS NULL);--> statement-breakpoint
-- Existing projects: every instance queued, so the derived figures are built on the first start after the
-- upgrade (the server's background applier, or any command of the CLI), slice by slice.
INSERT INTO `derive_queue` (`instance_ref`, `project_id`)
  SELECT `instances`.`id`, `instances`.`project_id` FROM `instances` JOIN `projects` ON `projects`.`id` = `instances`.`project_id` AND `projects`.`staging_for` IS NULL
    JOIN `lexelts` ON `lexelts`.`id` = `instances`.`lexelt_id` AND `lexelts`.`project_id` = `instances`.`project_id`;
