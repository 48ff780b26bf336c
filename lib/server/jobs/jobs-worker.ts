/**
 * The jobs worker's entry: bundled by scripts/build-workers.mjs and run by
 * lib/server/jobs/jobs.ts in worker threads (tinypool), each thread at nice
 * 10 (Linux keeps the nice value per thread). Each job opens its own SQLite
 * connection (WAL: readers never wait, writers take turns), runs its kind from
 * JOB_KINDS and records the outcome in the job's row; the request thread only
 * starts it and reads the row.
 */
import os from "node:os";
import Database from "better-sqlite3";
import { runJobOn } from "./jobs-run";

/** Below the request thread: on Linux the nice value is per thread (this one). */
const JOB_NICE = 10;
try {
  os.setPriority(0, JOB_NICE);
} catch {
  /* not permitted: run at normal priority */
}

/**
 * Run one job on a connection of its own (tinypool calls the default export with each task).
 * The thread stays up between jobs (the request thread would otherwise wait for a finished
 * worker's heap, hundreds of MB after a large import, to be torn down).
 */
export default async function runJob(task: { dbFile: string; jobId: number }): Promise<{ done: number }> {
  const sqlite = new Database(task.dbFile);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 10000");
  sqlite.pragma("synchronous = NORMAL");
  try {
    await runJobOn(sqlite, task.jobId);
  } catch {
    /* runJobOn records its own failures; the request thread checks the row */
  } finally {
    sqlite.close();
  }
  return { done: task.jobId };
}
