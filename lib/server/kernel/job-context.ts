/**
 * What a job's handler is given and how it says it was cancelled (lib/server/jobs runs the handlers;
 * jobs-kinds.ts lists them). Here, in the kernel, so that a feature's job (lib/server/models/run.ts)
 * is written without importing the jobs folder that imports it.
 */
import type Database from "better-sqlite3";

export class JobCancelled extends Error {
  constructor() {
    super("Cancelled; nothing was imported.");
  }
}

export interface JobContext {
  sqlite: Database.Database;
  job: { id: number; projectId: number; kind: string; createdBy: number | null; input: Record<string, unknown> };
  /** Record progress (at most a few times a second), pause a moment so other writers get the lock, stop if cancelled. */
  step(done: number, total: number, message?: string): Promise<void>;
  setStaging(stagingProjectId: number | null): void;
}

export type JobHandler = (ctx: JobContext) => Promise<unknown>;
