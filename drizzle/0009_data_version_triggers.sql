-- Raise the project's data version (data_versions, 0008) in the transaction of every change that gold,
-- mwgold and agreement are derived from. The project is looked up so that rows removed by ON DELETE CASCADE
-- when the project itself goes do not insert a version for a project that no longer exists.
CREATE TRIGGER `responses_data_version_insert` AFTER INSERT ON `responses` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `responses_data_version_update` AFTER UPDATE ON `responses` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `responses_data_version_delete` AFTER DELETE ON `responses` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `instances_data_version_insert` AFTER INSERT ON `instances` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `instances_data_version_update` AFTER UPDATE ON `instances` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `instances_data_version_delete` AFTER DELETE ON `instances` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `lexelts_data_version_insert` AFTER INSERT ON `lexelts` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `lexelts_data_version_update` AFTER UPDATE ON `lexelts` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `lexelts_data_version_delete` AFTER DELETE ON `lexelts` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `lemma_overrides_data_version_insert` AFTER INSERT ON `lemma_overrides` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `lemma_overrides_data_version_update` AFTER UPDATE ON `lemma_overrides` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `lemma_overrides_data_version_delete` AFTER DELETE ON `lemma_overrides` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `gold_review_log_data_version_insert` AFTER INSERT ON `gold_review_log` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `gold_review_log_data_version_update` AFTER UPDATE ON `gold_review_log` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `gold_review_log_data_version_delete` AFTER DELETE ON `gold_review_log` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `adjudications_data_version_insert` AFTER INSERT ON `adjudications` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `adjudications_data_version_update` AFTER UPDATE ON `adjudications` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `adjudications_data_version_delete` AFTER DELETE ON `adjudications` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `dataset_gold_data_version_insert` AFTER INSERT ON `dataset_gold` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `dataset_gold_data_version_update` AFTER UPDATE ON `dataset_gold` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `dataset_gold_data_version_delete` AFTER DELETE ON `dataset_gold` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `dataset_instances_data_version_insert` AFTER INSERT ON `dataset_instances` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `dataset_instances_data_version_update` AFTER UPDATE ON `dataset_instances` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `dataset_instances_data_version_delete` AFTER DELETE ON `dataset_instances` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;
