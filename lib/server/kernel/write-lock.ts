/**
 * Write transactions that wait for SQLite's write lock without stopping the event loop.
 *
 * The server runs in two processes (scripts/serve.mjs) over one WAL file: one writer at a time.
 * A synchronous `BEGIN IMMEDIATE` that finds the lock taken waits in SQLite's busy handler, which
 * sleeps (1, 2, 5, 10 … ms) with the whole process stopped: every other request of that process —
 * reads, session checks, JSON, the answers of saves already committed — waits with it, and on a
 * crowded machine the holder is often descheduled while it holds the lock.
 *
 * `writeTransaction` asks for the lock with a busy timeout of 0 and, when it is taken, tries again
 * from a timer, so the process serves meanwhile. The writes of one process queue here in order;
 * whoever takes the lock runs every write queued at that moment, each in a savepoint of its own
 * (one failing undoes only itself), and commits once. A write's promise resolves only after the
 * COMMIT has returned: nothing is acknowledged that is not committed. The lock is never held across
 * an await: from BEGIN to COMMIT everything runs in one synchronous stretch.
 *
 * After WAIT_MS without the lock the writes still queued are refused with BusyError (HTTP 503 and
 * Retry-After), having written nothing, so the client can send them again as they were.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { BusyError } from "./errors";

type Client = Db["$client"];

/** How long a write waits for the lock before it is refused (the connection's busy timeout, db/client.ts). */
const WAIT_MS = 5000;
/** Waits between tries: short at first (a save holds the lock for a fraction of a millisecond), longer while it stays taken. */
const BACKOFF_MS = [0, 0, 1, 1, 2, 2, 4, 4, 8, 8, 16];

interface Pending {
  body: () => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  /** When it gives up (performance.now()). */
  until: number;
}

interface Writer {
  queue: Pending[];
  /** A try is scheduled. */
  waiting: boolean;
  tries: number;
  /** The connection's own busy timeout, put back after each try (the statement that does). */
  restoreBusyTimeout: string;
}

const writers = new WeakMap<Client, Writer>();

function writerOf(client: Client): Writer {
  let w = writers.get(client);
  if (!w) {
    w = { queue: [], waiting: false, tries: 0, restoreBusyTimeout: `PRAGMA busy_timeout = ${Number(client.pragma("busy_timeout", { simple: true })) || 0}` };
    writers.set(client, w);
  }
  return w;
}

function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED" || (typeof code === "string" && code.startsWith("SQLITE_BUSY_"));
}

/**
 * BEGIN IMMEDIATE without waiting: whether this connection now holds the write lock. (The pragma
 * takes effect when its statement is prepared, so it cannot be a statement kept and run again; exec
 * runs it without making a statement object, a third of the cost of client.pragma.)
 */
function tryBegin(client: Client, w: Writer): boolean {
  client.exec("PRAGMA busy_timeout = 0");
  try {
    client.exec("BEGIN IMMEDIATE");
    return true;
  } catch (e) {
    if (isBusy(e)) return false;
    throw e;
  } finally {
    client.exec(w.restoreBusyTimeout);
  }
}

/** Run every write queued now, each in its own savepoint, inside the transaction just begun; commit; then answer them. */
function runBatch(client: Client, w: Writer): void {
  const batch = w.queue.splice(0);
  const results: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
  try {
    for (const p of batch) {
      try {
        // better-sqlite3 runs a transaction function inside an open transaction as a savepoint.
        results.push({ ok: true, value: client.transaction(p.body)() });
      } catch (error) {
        results.push({ ok: false, error });
      }
    }
    client.exec("COMMIT");
  } catch (e) {
    if (client.inTransaction) client.exec("ROLLBACK");
    for (const p of batch) p.reject(e);
    return;
  }
  batch.forEach((p, i) => {
    const r = results[i];
    if (r.ok) p.resolve(r.value);
    else p.reject(r.error);
  });
}

function attempt(client: Client, w: Writer): void {
  w.waiting = false;
  if (w.queue.length === 0) return;
  let began: boolean;
  try {
    began = !client.inTransaction && tryBegin(client, w);
  } catch (e) {
    for (const p of w.queue.splice(0)) p.reject(e);
    return;
  }
  if (began) {
    w.tries = 0;
    runBatch(client, w);
    return;
  }
  // Taken (by the other process, or by a synchronous transaction of this one): refuse what waited too long, try again later.
  const now = performance.now();
  const expired = w.queue.filter((p) => now >= p.until);
  if (expired.length > 0) {
    w.queue = w.queue.filter((p) => now < p.until);
    for (const p of expired) p.reject(new BusyError("The database is busy: nothing was saved. Send it again in a moment.", 1));
  }
  schedule(client, w);
}

function schedule(client: Client, w: Writer): void {
  if (w.waiting || w.queue.length === 0) return;
  w.waiting = true;
  const ms = BACKOFF_MS[Math.min(w.tries++, BACKOFF_MS.length - 1)];
  if (ms === 0) setImmediate(() => attempt(client, w));
  else setTimeout(() => attempt(client, w), ms);
}

/**
 * Run `body` (synchronous: it must not await) in a write transaction taken without blocking the
 * event loop; resolves with its value once committed, rejects with what it threw (its writes
 * undone) or with BusyError when the lock stayed taken for `waitMs` (default WAIT_MS).
 */
export function writeTransaction<T>(db: Pick<Db, "$client">, body: () => T, { waitMs = WAIT_MS }: { waitMs?: number } = {}): Promise<T> {
  const client = db.$client;
  const w = writerOf(client);
  return new Promise<T>((resolve, reject) => {
    w.queue.push({ body, resolve: resolve as (v: unknown) => void, reject, until: performance.now() + waitMs });
    // First try at once, unless others already wait (they go first, in the same batch).
    if (!w.waiting) {
      w.tries = 0;
      attempt(client, w);
    }
  });
}
