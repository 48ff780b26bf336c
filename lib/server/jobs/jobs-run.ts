/**
 * Running one job on an open connection (see `runJobOn`): shared by the jobs
 * worker thread and, for a database in memory, the request thread.
 */
import fs from "node:fs";
import type Database from "better-sqlite3";
import { JOB_KINDS, JobCancelled, type JobContext } from "./jobs-kinds";
import { jobs } from "../../../db/schema";
import { named } from "../../../db/sql-names";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const JOBS = named(jobs);

const now = "cast(unixepoch('subsec') * 1000 as integer)";
type Row = { id: number; project_id: number; kind: string; created_by: number | null; input: string; state: string };

/**
 * Run job `jobId` (queued) on the connection `sqlite`: its kind from JOB_KINDS,
 * its progress, outcome and report recorded in its row, its input file deleted
 * when it ends. The worker thread runs it on a connection of its own
 * (jobs-worker.ts); for a database in memory (tests) the request thread runs it
 * on the app's connection (lib/server/jobs/jobs.ts).
 */
export async function runJobOn(sqlite: Database.Database, jobId: number): Promise<void> {
  const row = sqlite.prepare(`select ${JOBS.id}, ${JOBS.projectId}, ${JOBS.kind}, ${JOBS.createdBy}, ${JOBS.input}, ${JOBS.state} from ${JOBS.$} where ${JOBS.id} = ?`).get(jobId) as Row | undefined;
  if (!row || row.state !== "queued") return;
  const input = JSON.parse(row.input) as Record<string, unknown>;
  // Started only if still queued, in the one statement that starts it: another server process may have cancelled it
  // (and deleted its upload) since the read above; a start written over that left it failing on a missing file.
  const started = sqlite.prepare(`update ${JOBS.$} set ${JOBS.state} = 'running', ${JOBS.startedAt} = ${now} where ${JOBS.id} = ? and ${JOBS.state} = 'queued'`).run(jobId);
  if (started.changes === 0) return;
  const handler = JOB_KINDS[row.kind];
  let lastWrite = 0;
  let resumedAt = Date.now();
  let lastCheckpoint = 0;
  const progress = sqlite.prepare(`update ${JOBS.$} set ${JOBS.done} = ?, ${JOBS.total} = ?, ${JOBS.message} = coalesce(?, ${JOBS.message}) where ${JOBS.id} = ?`);
  const cancelAsked = sqlite.prepare(`select ${JOBS.cancelRequested} as c from ${JOBS.$} where ${JOBS.id} = ?`);
  const ctx: JobContext = {
    sqlite,
    job: { id: row.id, projectId: row.project_id, kind: row.kind, createdBy: row.created_by, input },
    async step(done, total, message) {
      const t = Date.now();
      if (t - lastWrite >= 150 || done === total) {
        lastWrite = t;
        progress.run(done, total, message ?? null, jobId);
        if ((cancelAsked.get(jobId) as { c: number }).c) throw new JobCancelled();
      }
      // Let the request thread's saves take the writer lock between slices: pause at
      // least as long as the slice took (a save that found the lock taken retries with
      // SQLite's growing back-off, and must find it free when it does).
      // Keep the WAL short from here: otherwise the first save to commit past the
      // auto-checkpoint threshold copies the import's pages back (and syncs) on the
      // request thread. PASSIVE never waits for, nor blocks, other connections.
      if (t - lastCheckpoint >= 100) {
        lastCheckpoint = t;
        sqlite.pragma("wal_checkpoint(PASSIVE)");
      }
      const work = Date.now() - resumedAt;
      await new Promise((r) => setTimeout(r, Math.min(50, Math.max(4, work))));
      resumedAt = Date.now();
    },
    setStaging(id) {
      sqlite.prepare(`update ${JOBS.$} set ${JOBS.stagingProjectId} = ? where ${JOBS.id} = ?`).run(id, jobId);
    },
  };
  try {
    if (!handler) throw new Error(`No job kind "${row.kind}".`);
    const report = await handler(ctx);
    // A kind may have finished the row in its own last transaction (the import's publish does).
    sqlite
      .prepare(`update ${JOBS.$} set ${JOBS.state} = 'done', ${JOBS.done} = ${JOBS.total}, ${JOBS.report} = coalesce(${JOBS.report}, ?), ${JOBS.finishedAt} = coalesce(${JOBS.finishedAt}, ${now}) where ${JOBS.id} = ? and ${JOBS.state} = 'running'`)
      .run(JSON.stringify(report ?? null), jobId);
  } catch (e) {
    const cancelled = e instanceof JobCancelled;
    const err = e as { message?: string; details?: string[]; fieldErrors?: Record<string, string> };
    // A refusal's fields (InputError's), for a form that marks them.
    const report = { details: err?.details ?? [], ...(err?.fieldErrors ? { errors: err.fieldErrors } : {}) };
    sqlite
      .prepare(`update ${JOBS.$} set ${JOBS.state} = ?, ${JOBS.message} = ?, ${JOBS.report} = ?, ${JOBS.stagingProjectId} = null, ${JOBS.finishedAt} = ${now} where ${JOBS.id} = ?`)
      .run(cancelled ? "cancelled" : "failed", String(err?.message ?? e), JSON.stringify(report), jobId);
  } finally {
    for (const f of inputFiles(input)) fs.rmSync(f, { force: true });
  }
}

/**
 * The uploads a job was given (`input.path`, and every file of `input.paths`), each once: deleted when
 * it ends, and counted once against its user's room (#38 finding 7: a run's route names its file as
 * both, and a 70 MB file counted as 140 MB was refused).
 */
export function inputFiles(input: Record<string, unknown>): string[] {
  const { path, paths } = input;
  return [...new Set([path, ...(Array.isArray(paths) ? paths : [])].filter((f): f is string => typeof f === "string"))];
}
