ALTER TABLE `memberships` ADD `role` text DEFAULT 'annotator' NOT NULL;--> statement-breakpoint
-- Existing memberships of coordinator accounts become the project's coordinators (every other
-- membership stays 'annotator', the default above).
UPDATE `memberships` SET `role` = 'coordinator' WHERE `user_id` IN (SELECT `id` FROM `users` WHERE `role` = 'coordinator');
