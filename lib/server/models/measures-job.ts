/**
 * The "model-measures" job: the Agreement tab's Models section computed in the background (measures.ts),
 * stored with the data version read before the computation, so that answers saved meanwhile make it stale
 * and the next look starts another.
 */
import "server-only";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Db } from "../../../db/client";
import * as schema from "../../../db/schema";
import { dataVersion } from "../kernel/data-version";
import type { JobContext } from "../kernel/job-context";
import { computeModelMeasures, storeModelMeasures } from "./measures";

export async function modelMeasuresJob(ctx: JobContext): Promise<{ models: number; computeMs: number }> {
  const db = drizzle(ctx.sqlite, { schema }) as unknown as Db;
  await ctx.step(0, 1, "Measuring the models against the people…");
  const t0 = performance.now();
  const version = dataVersion(db, ctx.job.projectId);
  const report = computeModelMeasures(db, ctx.job.projectId);
  const ms = performance.now() - t0;
  storeModelMeasures(db, ctx.job.projectId, version, report, ms);
  return { models: report.models.length, computeMs: Math.round(ms) };
}
