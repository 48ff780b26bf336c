/**
 * The entry point of a job's worker thread (bundled by lib/server/runtime/jobs.ts with
 * esbuild). Opens its own SQLite connection (WAL: readers never wait, writers
 * take turns), runs the job's kind from JOB_KINDS, and records the outcome in
 * the job's row. The request thread only starts it and reads the row.
 */
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";
import { runJobOn } from "./jobs-run";

const { nice } = workerData as { nice: number };
// Below the request thread: on Linux the nice value is per thread.
try {
  os.setPriority(0, nice);
} catch {
  /* not permitted: run at normal priority */
}

/**
 * Run one job on a connection of its own. The thread stays up between jobs (the
 * request thread would otherwise wait for a finished worker's heap, hundreds of
 * MB after a large import, to be torn down).
 */
async function runJob(dbFile: string, jobId: number) {
  const sqlite = new Database(dbFile);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 10000");
  sqlite.pragma("synchronous = NORMAL");
  try {
    await runJobOn(sqlite, jobId);
  } finally {
    sqlite.close();
  }
}

parentPort!.on("message", (m: { dbFile: string; jobId: number }) => {
  void runJob(m.dbFile, m.jobId)
    .catch(() => undefined)
    .finally(() => parentPort!.postMessage({ done: m.jobId }));
});
