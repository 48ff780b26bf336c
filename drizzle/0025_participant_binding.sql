CREATE TABLE `participant_browsers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`participant_id` integer NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`participant_id`) REFERENCES `participants`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `participant_browsers_participant` ON `participant_browsers` (`participant_id`);--> statement-breakpoint
ALTER TABLE `participants` ADD `resume_code_hash` text;--> statement-breakpoint
ALTER TABLE `studies` ADD `slots_through` integer;