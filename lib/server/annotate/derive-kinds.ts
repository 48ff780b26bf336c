/**
 * Annotate's derivation kinds (#43: lib/server/jobs/derive-jobs.ts takes them from this feature's
 * index): the Progress page's charts, answers per day and time on task. The job carries the actor;
 * the derivation checked it, and progressChartData checks it again.
 */
import type { Db } from "../../../db/client";
import type { DeriveJobBase, DeriveKinds } from "../kernel/derive-kind";
import { progressChartData } from "./progress-charts";

export const ANNOTATE_DERIVE_KINDS = {
  // Cached under the data version, and served for a minute after it moved on: the charts are drawn again at most once a
  // minute while people save, and say when they were drawn (#39).
  progressCharts: { run: (db: Db, job: DeriveJobBase) => progressChartData(db, job.actor, job.projectId), servedAfterChangeMs: 60_000 },
} satisfies DeriveKinds;
