ALTER TABLE `instances` ADD `in_queue` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `instances_out_of_queue` ON `instances` (`project_id`) WHERE in_queue = 0;--> statement-breakpoint
ALTER TABLE `lexelts` ADD `out_of_queue` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `lexelts` ADD `out_of_queue_before` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `projects` ADD `training_in_queue` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Training items leave the annotators' queue (projects.training_in_queue is off by default): the same
-- state lib/server/annotate/queue.ts syncTrainingQueue keeps, so existing projects are consistent on upgrade.
UPDATE `instances` SET `in_queue` = 0 WHERE `id` IN (SELECT `instance_ref` FROM `known_answers` WHERE `role` = 'training');--> statement-breakpoint
UPDATE `lexelts` SET `out_of_queue` = (SELECT count(*) FROM `instances` WHERE `instances`.`lexelt_id` = `lexelts`.`id` AND `instances`.`in_queue` = 0)
  WHERE `id` IN (SELECT `lexelt_id` FROM `instances` WHERE `in_queue` = 0);--> statement-breakpoint
UPDATE `lexelts` SET `out_of_queue_before` = w.`before` FROM (
  SELECT `id`, coalesce(sum(`out_of_queue`) OVER (PARTITION BY `project_id` ORDER BY `position` ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS `before` FROM `lexelts`
) w WHERE `lexelts`.`id` = w.`id` AND `lexelts`.`project_id` IN (SELECT `project_id` FROM `instances` WHERE `in_queue` = 0);--> statement-breakpoint
-- The counters count the responses to instances in the queue (queue.ts countNewResponse).
UPDATE `queue_counts` SET `done` = (SELECT count(*) FROM `responses` JOIN `instances` ON `instances`.`id` = `responses`.`instance_ref`
    WHERE `responses`.`user_id` = `queue_counts`.`user_id` AND `instances`.`lexelt_id` = `queue_counts`.`lexelt_id` AND `instances`.`in_queue` = 1)
  WHERE `lexelt_id` IN (SELECT `lexelt_id` FROM `instances` WHERE `in_queue` = 0);--> statement-breakpoint
UPDATE `annotator_counts` SET `done` = (SELECT coalesce(sum(`done`), 0) FROM `queue_counts`
    WHERE `queue_counts`.`project_id` = `annotator_counts`.`project_id` AND `queue_counts`.`user_id` = `annotator_counts`.`user_id`)
  WHERE `project_id` IN (SELECT `project_id` FROM `instances` WHERE `in_queue` = 0);
