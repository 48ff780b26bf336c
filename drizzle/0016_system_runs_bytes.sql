ALTER TABLE `system_runs` ADD `bytes` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Runs stored before: their size from the content, once.
UPDATE `system_runs` SET `bytes` = length(CAST(`content` AS BLOB));
