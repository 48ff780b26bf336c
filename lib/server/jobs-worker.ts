/**
 * The entry point of a job's worker thread (bundled by lib/server/jobs.ts with
 * esbuild). Opens its own SQLite connection (WAL: readers never wait, writers
 * take turns), runs the job's kind from JOB_KINDS, and records the outcome in
 * the job's row. The request thread only starts it and reads the row.
 */
import fs from "node:fs";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { JOB_KINDS, JobCancelled, type JobContext } from "./jobs-kinds";

const { nice } = workerData as { nice: number };
// Below the request thread: on Linux the nice value is per thread.
try {
  os.setPriority(0, nice);
} catch {
  /* not permitted: run at normal priority */
}


const now = "cast(unixepoch('subsec') * 1000 as integer)";
type Row = { id: number; project_id: number; kind: string; created_by: number | null; input: string; state: string };

/**
 * Run one job. The thread stays up between jobs (the request thread would
 * otherwise wait for a finished worker's heap, hundreds of MB after a large
 * import, to be torn down).
 */
async function runJob(dbFile: string, jobId: number) {
  const sqlite = new Database(dbFile);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 10000");
  sqlite.pragma("synchronous = NORMAL");
  const row = sqlite.prepare("select id, project_id, kind, created_by, input, state from jobs where id = ?").get(jobId) as Row | undefined;
  if (!row || row.state !== "queued") {
    sqlite.close();
    return;
  }
  const input = JSON.parse(row.input) as Record<string, unknown>;
  sqlite.prepare(`update jobs set state = 'running', started_at = ${now} where id = ?`).run(jobId);
  const handler = JOB_KINDS[row.kind];
  let lastWrite = 0;
  let resumedAt = Date.now();
  let lastCheckpoint = 0;
  const progress = sqlite.prepare("update jobs set done = ?, total = ?, message = coalesce(?, message) where id = ?");
  const cancelAsked = sqlite.prepare("select cancel_requested as c from jobs where id = ?");
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
      sqlite.prepare("update jobs set staging_project_id = ? where id = ?").run(id, jobId);
    },
  };
  try {
    if (!handler) throw new Error(`No job kind "${row.kind}".`);
    const report = await handler(ctx);
    // A kind may have finished the row in its own last transaction (the import's publish does).
    sqlite
      .prepare(`update jobs set state = 'done', done = total, report = coalesce(report, ?), finished_at = coalesce(finished_at, ${now}) where id = ? and state = 'running'`)
      .run(JSON.stringify(report ?? null), jobId);
  } catch (e) {
    const cancelled = e instanceof JobCancelled;
    const err = e as { message?: string; details?: string[] };
    sqlite
      .prepare(`update jobs set state = ?, message = ?, report = ?, staging_project_id = null, finished_at = ${now} where id = ?`)
      .run(cancelled ? "cancelled" : "failed", String(err?.message ?? e), JSON.stringify({ details: err?.details ?? [] }), jobId);
  } finally {
    if (typeof input.path === "string") fs.rmSync(input.path, { force: true });
    sqlite.close();
  }
}

parentPort!.on("message", (m: { dbFile: string; jobId: number }) => {
  void runJob(m.dbFile, m.jobId)
    .catch(() => undefined)
    .finally(() => parentPort!.postMessage({ done: m.jobId }));
});
