ALTER TABLE `users` ADD `administers_projects` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- The study's own coordinator is the account `lexgold init` made: the first coordinator of the database.
UPDATE `users` SET `administers_projects` = 1 WHERE `id` = (SELECT min(`id`) FROM `users` WHERE `role` = 'coordinator');--> statement-breakpoint
-- It coordinates every project (a project made from the command line had no coordinator at all);
-- where it is already a member in another role, that role stays.
INSERT INTO `memberships` (`project_id`, `user_id`, `role`)
  SELECT `projects`.`id`, `users`.`id`, 'coordinator' FROM `projects`, `users`
  WHERE `users`.`administers_projects` = 1 AND `projects`.`staging_for` IS NULL
    AND NOT EXISTS (SELECT 1 FROM `memberships` m WHERE m.`project_id` = `projects`.`id` AND m.`user_id` = `users`.`id`);
