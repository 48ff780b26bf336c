/**
 * What a job's handler is given and how it says it was cancelled (lib/server/jobs runs the handlers).
 * Here, in the kernel, so that each feature writes its own kinds (its job-kinds.ts, a `JobKinds`
 * registry its index exports) without importing the jobs folder that runs them (#43).
 */
import type Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Db } from "../../../db/client";
import { immediateByDefault } from "../../../db/immediate";
import * as schema from "../../../db/schema";

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

/** A feature's job kinds: each kind's name and its handler (lib/server/jobs/jobs-kinds.ts gathers them). */
export type JobKinds = Readonly<Record<string, JobHandler>>;

/** The job's own connection as drizzle, its transactions IMMEDIATE: for handlers that reuse a feature's functions. */
export function jobDb(ctx: JobContext): Db {
  return immediateByDefault(drizzle(ctx.sqlite, { schema })) as unknown as Db;
}
