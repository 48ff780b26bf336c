DROP INDEX `gold_items_order`;--> statement-breakpoint
CREATE INDEX `gold_items_order` ON `gold_items` (`project_id`,`lexelt_position`,`position`,`excluded`,`line`,`mw_line`);