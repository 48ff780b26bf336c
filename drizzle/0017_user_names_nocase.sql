-- User names unique whatever their case. db/client.ts refuses to run this while two names differ
-- only in case, and lists them to be renamed first.
ALTER TABLE `users` ADD `sign_in_cleared_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `users_name_nocase` ON `users` ("name" collate nocase);
