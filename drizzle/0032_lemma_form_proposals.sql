ALTER TABLE `lemma_forms` ADD `proposal_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `lemma_forms` ADD `proposal_uses` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `lemma_forms` ADD `proposal_top` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `lemma_forms_proposals` ON `lemma_forms` (`project_id`,`proposal_top`) WHERE "lemma_forms"."proposal_count" > 0;--> statement-breakpoint
-- Existing projects: the forms' figures built again, so that every kept form has its proposals' figures. The
-- forms an instance holds are taken out of its kept sums and the form tables emptied; every instance is queued,
-- and the maintenance (lib/server/derived/maintain.ts) adds each instance's forms back as it adds a new
-- instance's, on the first start after the upgrade (the server's background applier, or any command of the
-- CLI), slice by slice. Its other sums are taken away and added again unchanged, and its gold lines with them.
DELETE FROM `lemma_forms`;--> statement-breakpoint
DELETE FROM `gold_forms`;--> statement-breakpoint
UPDATE `gold_items` SET `sums` = json_remove(json_set(`sums`, '$.f', json('[]')), '$.s');--> statement-breakpoint
INSERT INTO `derive_queue` (`instance_ref`, `project_id`)
  SELECT `instances`.`id`, `instances`.`project_id` FROM `instances` JOIN `projects` ON `projects`.`id` = `instances`.`project_id` AND `projects`.`staging_for` IS NULL
    JOIN `lexelts` ON `lexelts`.`id` = `instances`.`lexelt_id` AND `lexelts`.`project_id` = `instances`.`project_id` WHERE true
  ON CONFLICT (`instance_ref`) DO UPDATE SET `project_id` = excluded.`project_id`;
