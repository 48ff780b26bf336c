ALTER TABLE `studies` ADD `participant_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `studies` ADD `instance_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `studies` ADD `places_taken` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `studies` ADD `full_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `studies` ADD `slots_ready` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `studies` ADD `slots_after` integer;