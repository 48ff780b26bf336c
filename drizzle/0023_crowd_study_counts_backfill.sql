-- The study list's counts (0022) kept in the transaction of every change to the rows they count, so the
-- Crowd tab reads one row per study whatever the study's size (lib/server/crowd/studies.ts listStudies).
-- Triggers rather than the code that writes: slots also go when their instance is deleted (ON DELETE
-- CASCADE from the corpus), and participants when their account is. A study being deleted takes its rows
-- with it; the updates below then find no study row and do nothing.
CREATE TRIGGER `study_slots_counts_insert` AFTER INSERT ON `study_slots` BEGIN
  UPDATE `studies` SET `instance_count` = `instance_count` + 1, `places_taken` = `places_taken` + NEW.`taken`,
    `full_count` = `full_count` + (NEW.`taken` >= `overlap`) WHERE `id` = NEW.`study_id`;
END;--> statement-breakpoint
CREATE TRIGGER `study_slots_counts_delete` AFTER DELETE ON `study_slots` BEGIN
  UPDATE `studies` SET `instance_count` = `instance_count` - 1, `places_taken` = `places_taken` - OLD.`taken`,
    `full_count` = `full_count` - (OLD.`taken` >= `overlap`) WHERE `id` = OLD.`study_id`;
END;--> statement-breakpoint
CREATE TRIGGER `study_slots_counts_update` AFTER UPDATE OF `taken` ON `study_slots` BEGIN
  UPDATE `studies` SET `places_taken` = `places_taken` + NEW.`taken` - OLD.`taken`,
    `full_count` = `full_count` + (NEW.`taken` >= `overlap`) - (OLD.`taken` >= `overlap`) WHERE `id` = NEW.`study_id`;
END;--> statement-breakpoint
CREATE TRIGGER `participants_counts_insert` AFTER INSERT ON `participants` BEGIN
  UPDATE `studies` SET `participant_count` = `participant_count` + 1 WHERE `id` = NEW.`study_id`;
END;--> statement-breakpoint
CREATE TRIGGER `participants_counts_delete` AFTER DELETE ON `participants` BEGIN
  UPDATE `studies` SET `participant_count` = `participant_count` - 1 WHERE `id` = OLD.`study_id`;
END;--> statement-breakpoint
-- Leaving a participant's answers out of the gold changes the gold: every change to participant_exclusions
-- raises the project's data version (0008, 0009), including rows removed by ON DELETE CASCADE when the
-- participant or their account goes (the project's own deletion inserts nothing, as in 0009).
CREATE TRIGGER `participant_exclusions_data_version_insert` AFTER INSERT ON `participant_exclusions` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `participant_exclusions_data_version_update` AFTER UPDATE ON `participant_exclusions` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `participant_exclusions_data_version_delete` AFTER DELETE ON `participant_exclusions` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
-- Studies opened before 0022: their counts from their rows (their slots were written whole: slots_ready stays true).
UPDATE `studies` SET
  `participant_count` = (SELECT count(*) FROM `participants` WHERE `participants`.`study_id` = `studies`.`id`),
  `instance_count` = (SELECT count(*) FROM `study_slots` WHERE `study_slots`.`study_id` = `studies`.`id`),
  `places_taken` = (SELECT coalesce(sum(`taken`), 0) FROM `study_slots` WHERE `study_slots`.`study_id` = `studies`.`id`),
  `full_count` = (SELECT count(*) FROM `study_slots` WHERE `study_slots`.`study_id` = `studies`.`id` AND `study_slots`.`taken` >= `studies`.`overlap`);
