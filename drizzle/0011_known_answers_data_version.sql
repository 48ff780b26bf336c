-- Attention checks are left out of the gold (lib/server/gold.ts): marking or unmarking one changes the
-- derivation, so known_answers raises the project's data version as the other tables the gold reads do (0009).
CREATE TRIGGER `known_answers_data_version_insert` AFTER INSERT ON `known_answers` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `known_answers_data_version_update` AFTER UPDATE ON `known_answers` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = NEW.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;--> statement-breakpoint
CREATE TRIGGER `known_answers_data_version_delete` AFTER DELETE ON `known_answers` BEGIN
  INSERT INTO `data_versions` (`project_id`, `version`) SELECT `id`, 1 FROM `projects` WHERE `id` = OLD.`project_id`
    ON CONFLICT (`project_id`) DO UPDATE SET `version` = `version` + 1;
END;
