ALTER TABLE `lemma_forms` ADD `spacing_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `lemma_forms_spacing` ON `lemma_forms` (`project_id`) WHERE "lemma_forms"."spacing_count" > 0;--> statement-breakpoint
-- Existing projects: each kept form's spellings with other spacing counted from the spellings it keeps.
UPDATE `lemma_forms` SET `spacing_count` = (SELECT count(*) FROM json_each(`lemma_forms`.`spacing`)) WHERE `spacing` <> '{}';
