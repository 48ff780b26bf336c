-- Fill the counters of 0003 for databases that already hold lexelts and responses
-- (the same sums lib/server/queue.ts keeps from now on).
UPDATE `lexelts` SET `instance_count` = (SELECT count(*) FROM `instances` WHERE `instances`.`lexelt_id` = `lexelts`.`id`);--> statement-breakpoint
UPDATE `lexelts` SET `instances_before` = w.`before` FROM (
  SELECT `id`, coalesce(sum(`instance_count`) OVER (PARTITION BY `project_id` ORDER BY `position` ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS `before` FROM `lexelts`
) w WHERE `lexelts`.`id` = w.`id`;--> statement-breakpoint
INSERT INTO `queue_counts` (`project_id`, `user_id`, `lexelt_id`, `done`)
  SELECT r.`project_id`, r.`user_id`, i.`lexelt_id`, count(*) FROM `responses` r JOIN `instances` i ON i.`id` = r.`instance_ref` GROUP BY r.`project_id`, r.`user_id`, i.`lexelt_id`;--> statement-breakpoint
INSERT INTO `annotator_counts` (`project_id`, `user_id`, `done`)
  SELECT `project_id`, `user_id`, count(*) FROM `responses` GROUP BY `project_id`, `user_id`;
