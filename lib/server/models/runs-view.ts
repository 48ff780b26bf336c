/**
 * A project's model runs as the Models tab shows them: each model's latest runs (jobs of kind
 * "model-run"), with their progress, outcome and report. Coordinators of the project.
 */
import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { jobs } from "../../../db/schema";
import { type Actor, requireProject } from "../kernel/actor";
import type { RunReport } from "./run";

export interface ModelRunView {
  jobId: number;
  modelId: number;
  purpose: "annotate" | "candidates";
  state: "queued" | "running" | "done" | "failed" | "cancelled";
  done: number;
  total: number;
  message: string;
  cancelRequested: boolean;
  report: RunReport | null;
  finishedAt: number | null;
}

/** The project's last `limit` model runs, newest first. */
export function modelRuns(db: Db, actor: Actor, projectId: number, limit = 30): ModelRunView[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return db
    .select()
    .from(jobs)
    .where(and(eq(jobs.projectId, projectId), eq(jobs.kind, "model-run")))
    .orderBy(desc(jobs.id))
    .limit(limit)
    .all()
    .map((j) => {
      const input = JSON.parse(j.input) as { modelId?: number; purpose?: "annotate" | "candidates" };
      return {
        jobId: j.id,
        modelId: input.modelId ?? 0,
        purpose: input.purpose ?? "annotate",
        state: j.state,
        done: j.done,
        total: j.total,
        message: j.message,
        cancelRequested: j.cancelRequested,
        report: j.state === "done" && j.report ? (JSON.parse(j.report) as RunReport) : null,
        finishedAt: j.finishedAt?.getTime() ?? null,
      };
    });
}
