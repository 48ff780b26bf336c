CREATE TABLE `annotator_totals` (
	`project_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`responses` integer NOT NULL,
	`last_at` integer NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`),
	FOREIGN KEY (`project_id`) REFERENCES `projects`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
-- Existing projects: each person's kept (person, lexelt) counts summed.
INSERT INTO `annotator_totals` (`project_id`, `user_id`, `responses`, `last_at`)
  SELECT `project_id`, `user_id`, sum(`responses`), max(`last_at`) FROM `annotator_lexelt_counts` GROUP BY `project_id`, `user_id`;--> statement-breakpoint
-- Kept by triggers on annotator_lexelt_counts, in the transaction of each change to it (a save's maintenance, an import's
-- slice, a rebuild): a person's row sums their rows there and keeps the latest of their saves, and goes with their last row.
-- A save only raises its row's latest save; the latest is looked for again only when the row that held it goes back or goes.
CREATE TRIGGER `annotator_totals_insert` AFTER INSERT ON `annotator_lexelt_counts` BEGIN
  INSERT INTO `annotator_totals` (`project_id`, `user_id`, `responses`, `last_at`)
    SELECT `id`, NEW.`user_id`, NEW.`responses`, NEW.`last_at` FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`, `user_id`) DO UPDATE SET `responses` = `responses` + excluded.`responses`, `last_at` = max(`last_at`, excluded.`last_at`);
END;--> statement-breakpoint
CREATE TRIGGER `annotator_totals_update` AFTER UPDATE ON `annotator_lexelt_counts` BEGIN
  INSERT INTO `annotator_totals` (`project_id`, `user_id`, `responses`, `last_at`)
    SELECT `id`, NEW.`user_id`, NEW.`responses`, NEW.`last_at` FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`, `user_id`) DO UPDATE SET `responses` = `responses` - OLD.`responses` + NEW.`responses`, `last_at` = CASE
      WHEN NEW.`last_at` >= `last_at` THEN NEW.`last_at`
      WHEN OLD.`last_at` < `last_at` THEN `last_at`
      ELSE max(NEW.`last_at`, coalesce((SELECT max(`last_at`) FROM `annotator_lexelt_counts` WHERE `project_id` = OLD.`project_id` AND `user_id` = OLD.`user_id` AND `lexelt_id` <> OLD.`lexelt_id`), 0))
    END;
END;--> statement-breakpoint
CREATE TRIGGER `annotator_totals_delete` AFTER DELETE ON `annotator_lexelt_counts` BEGIN
  UPDATE `annotator_totals` SET `responses` = `responses` - OLD.`responses`, `last_at` = CASE
      WHEN OLD.`last_at` < `last_at` THEN `last_at`
      ELSE coalesce((SELECT max(`last_at`) FROM `annotator_lexelt_counts` WHERE `project_id` = OLD.`project_id` AND `user_id` = OLD.`user_id`), 0)
    END
    WHERE `project_id` = OLD.`project_id` AND `user_id` = OLD.`user_id`;
  DELETE FROM `annotator_totals` WHERE `project_id` = OLD.`project_id` AND `user_id` = OLD.`user_id`
    AND NOT EXISTS (SELECT 1 FROM `annotator_lexelt_counts` WHERE `project_id` = OLD.`project_id` AND `user_id` = OLD.`user_id`);
END;
