/**
 * The derivation worker's entry: bundled by scripts/build-workers.mjs and run
 * by lib/server/jobs/derive-pool.ts in a child process (tinypool's
 * child_process runtime, structured-clone IPC) at a lower CPU priority.
 *
 * Why a process and not a thread: measured with 50 annotators saving while
 * agreement over 100,000 instances × 5 was recomputed, a worker thread at nice
 * 10 still took the CPU from saves, because V8's garbage-collection helper
 * threads, which a worker thread shares with the server, run at the server's
 * priority. Here every thread of the process is set to nice 10 (Linux keeps
 * the nice value per thread: see `lowerPriority`), so all of the derivation
 * yields to the server.
 *
 * It opens its own read-only connection to the app's database file (WAL: it
 * reads committed data while the request thread writes) and answers each task
 * with runDeriveJob's result (its large texts through a temporary file: see
 * `spill`), or the error's class, message and fields (`{ error }`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import * as schema from "../../../db/schema";
import { immediateByDefault } from "../../../db/immediate";
import type { Db } from "../../../db/client";
import { DERIVE_NICE, type DeriveJob, runDeriveJob } from "./derive-jobs";
import { AuthError, InputError, NotFoundError } from "../kernel/errors";
import { keepDerivationInputs } from "../gold";
import { computeAlphaSnapshot, drainSlice, markServed } from "../derived/actor-free";
import { computeBoardOthers, type GoldSource, writeItemsOfStoredRun } from "../scoring";
import type { Actor } from "../kernel/actor";
import { setting } from "../../config";

/**
 * Set every thread of this process to DERIVE_NICE (Linux: /proc/self/task lists them, and
 * setpriority on a thread id changes that thread). Threads started later inherit the value of
 * the thread that starts them; V8's helper threads, started before this code ran, are found
 * here. Elsewhere: the calling thread only, where permitted. The pool's preload
 * (lib/server/runtime/pool.ts, `nice`) has done the same before this bundle was read; this
 * checks again, at the start and before each task.
 */
function lowerPriority(): void {
  let tids: string[] = [];
  try {
    tids = fs.readdirSync("/proc/self/task");
  } catch {
    tids = ["0"];
  }
  for (const t of tids) {
    try {
      if (os.getPriority(Number(t)) < DERIVE_NICE) os.setPriority(Number(t), DERIVE_NICE);
    } catch {
      /* gone, or not permitted: leave it */
    }
  }
}
lowerPriority();

// This process only derives: keep the last project's inputs and gold while its data version holds.
keepDerivationInputs(true);

const connections = new Map<string, Db>();
function dbFor(file: string, write = false): Db {
  const key = `${write ? "w" : "r"}:${file}`;
  let db = connections.get(key);
  if (!db) {
    const sqlite = new Database(file, { readonly: !write, fileMustExist: true });
    sqlite.pragma("busy_timeout = 5000");
    if (write) {
      sqlite.pragma("foreign_keys = ON");
      sqlite.pragma("synchronous = NORMAL");
    }
    const made = drizzle(sqlite, { schema });
    db = (write ? immediateByDefault(made) : made) as unknown as Db;
    // The server's: its readers leave the queue to the applier (lib/server/derived/queue.ts).
    markServed(db);
    connections.set(key, db);
  }
  return db;
}

/** How long one drain task works through a project's queue before it answers (the pool's queue then lets others in). */
const DRAIN_MS = 1000;
/**
 * A pause between slices three times as long as the slice held the write lock (and never under
 * PAUSE_MS), so that the lock is free at least three quarters of the time: a server process waiting
 * for it in SQLite's busy handler (sleeping up to 100 ms between tries) finds it free, and a
 * transaction that reads before it writes seldom meets a commit of this process between the two,
 * even when this process, at a lower CPU priority on a busy machine, holds the lock longer than planned.
 */
const PAUSE_MS = 5;
/** Instances per slice here: a short hold of the write lock (the server's own catching up takes more per slice). */
const WORKER_SLICE = 16;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Work through a project's queue of derived figures (lib/server/derived/queue.ts): slice after
 * slice, each in a write transaction of its own on this process's writable connection, for up to
 * DRAIN_MS. Answers how many it brought up to date and whether any are left.
 */
function drain(file: string, projectId: number): { drained: number; more: boolean } {
  const db = dbFor(file, true);
  const until = performance.now() + DRAIN_MS;
  let drained = 0;
  for (;;) {
    const t = performance.now();
    const n = drainSlice(db, projectId, WORKER_SLICE);
    const held = performance.now() - t;
    drained += n;
    if (n === 0) return { drained, more: false };
    if (performance.now() >= until) return { drained, more: true };
    Atomics.wait(pause, 0, 0, Math.max(PAUSE_MS, 3 * held));
  }
}

export interface WorkerError {
  kind: "auth" | "notFound" | "input" | "other";
  message: string;
  status?: number;
  fieldErrors?: Record<string, string>;
  details?: string[];
  stack?: string;
}

export type DeriveAnswer = { value: unknown; files?: Record<string, string> } | { error: WorkerError };

function kindOf(e: unknown): WorkerError["kind"] {
  return e instanceof AuthError ? "auth" : e instanceof NotFoundError ? "notFound" : e instanceof InputError ? "input" : "other";
}

/**
 * An answer's large texts (a top-level string over SPILL_CHARS: a run's detail, an agreement
 * download) go through a temporary file, which the server reads back asynchronously and deletes:
 * a message of tens of MB over the IPC channel is parsed on the server's event loop in one piece
 * (measured: 75–150 ms for 30 MB), a file read is not. (LEXGOLD_DERIVE_SPILL_CHARS sets the
 * threshold, for tests.)
 */
const SPILL_CHARS = setting("LEXGOLD_DERIVE_SPILL_CHARS");
let spilled = 0;
function spill(value: unknown): { value: unknown; files?: Record<string, string> } {
  if (!value || typeof value !== "object" || Array.isArray(value)) return { value };
  let files: Record<string, string> | undefined;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const id = ++spilled;
  for (const [k, v] of Object.entries(out)) {
    if (typeof v !== "string" || v.length <= SPILL_CHARS) continue;
    const file = path.join(os.tmpdir(), `lexgold-derive-${process.pid}-${id}-${k}.txt`);
    fs.writeFileSync(file, v, { mode: 0o600 });
    (files ??= {})[k] = file;
    out[k] = "";
  }
  return files ? { value: out, files } : { value };
}

/** One derivation, or one drain of a project's queue (tinypool calls the default export with each task). */
export default function derive(
  task:
    | { file: string; job: DeriveJob }
    | { file: string; drain: number }
    | { file: string; alpha: number }
    | { file: string; runItems: number }
    | { file: string; others: { actor: Actor; projectId: number; source: GoldSource } },
): DeriveAnswer {
  lowerPriority();
  try {
    if ("drain" in task) return { value: drain(task.file, task.drain) };
    // α and the intervals over the kept items (lib/server/derived/agreement.ts), kept on this process's writable connection.
    // A run stored before #39: its items and outcomes written (lib/server/scoring/run-store.ts).
    if ("runItems" in task) {
      writeItemsOfStoredRun(dbFor(task.file, true), task.runItems);
      return { value: null };
    }
    // A gold's runs scored whole for their repaired and UTF-8 figures (lib/server/scoring/board.ts).
    if ("others" in task) {
      computeBoardOthers(dbFor(task.file, true), task.others.actor, task.others.projectId, task.others.source);
      return { value: null };
    }
    if ("alpha" in task) {
      computeAlphaSnapshot(dbFor(task.file, true), task.alpha);
      return { value: null };
    }
    return spill(runDeriveJob(dbFor(task.file), task.job));
  } catch (e) {
    const err = e as Error & { status?: number; fieldErrors?: Record<string, string>; details?: string[] };
    return {
      error: { kind: kindOf(e), message: String(err?.message ?? e), status: err?.status, fieldErrors: err?.fieldErrors, details: err?.details, stack: err?.stack },
    };
  }
}

// The server went away (or closed the channel): nothing left to answer.
process.on("disconnect", () => process.exit(0));
