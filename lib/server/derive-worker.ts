/**
 * The derivation worker's entry (lib/server/derive-pool.ts bundles it with
 * esbuild and starts it on a worker thread). It opens its own read-only
 * connection to the app's database file (WAL: it reads committed data while
 * the request thread writes) and answers jobs one at a time with
 * runDeriveJob's result, or the error's class, message and fields.
 */
import { parentPort, workerData } from "node:worker_threads";
import os from "node:os";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import { type DeriveJob, runDeriveJob } from "./derive-jobs";
import { AuthError, InputError, NotFoundError } from "./errors";

function kindOf(e: unknown): string {
  return e instanceof AuthError ? "auth" : e instanceof NotFoundError ? "notFound" : e instanceof InputError ? "input" : "other";
}

const { file, nice } = workerData as { file: string; nice: number };
const sqlite = new Database(file, { readonly: true, fileMustExist: true });
sqlite.pragma("busy_timeout = 5000");
const db = drizzle(sqlite, { schema }) as unknown as Db;
// Below the request thread: on Linux the nice value is per thread.
try {
  os.setPriority(0, nice);
} catch {
  // not permitted here: run at the same priority
}

parentPort!.on("message", (m: { id: number; job: DeriveJob }) => {
  try {
    const value = runDeriveJob(db, m.job);
    parentPort!.postMessage({ id: m.id, value });
  } catch (e) {
    const err = e as Error & { status?: number; fieldErrors?: Record<string, string>; details?: string[] };
    parentPort!.postMessage({
      id: m.id,
      error: {
        kind: kindOf(e),
        message: String(err?.message ?? e),
        status: err?.status,
        fieldErrors: err?.fieldErrors,
        details: err?.details,
        stack: err?.stack,
      },
    });
  }
});
