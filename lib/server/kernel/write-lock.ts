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
 * A write may leave part of its work to the end of its batch (`deferToBatchEnd`): the saves' upkeep of
 * the derived figures (#39). Saves queued together mostly touch the same rows of the project's sums,
 * the same lemma forms, the same blocks of the stored runs' outcomes: done once for the batch, before
 * its COMMIT and in its transaction, they are written once, and what a save acknowledges is still
 * committed with everything it implies. A write that may read what the deferred work writes (any
 * write not marked `defers`) has it done before it runs, so every write sees the state it would see
 * alone. Deferred work that fails undoes the whole batch and refuses all of it.
 *
 * After committing a batch a writer pauses TURN_PAUSE_MS before its next, so that the other process,
 * whose writes may be queued, gets its turn: the processes take turns, each with a batch.
 *
 * After WAIT_MS without the lock the writes still queued are refused with BusyError (HTTP 503 and
 * Retry-After), having written nothing, so the client can send them again as they were.
 *
 * Writes that can wait (`lowPriority`: a crowd participant joining, issue #38 finding 9) queue
 * apart and yield to the others: one runs only when no other write of this process is queued, in
 * a transaction of its own, and the next try comes after the event loop has taken in what arrived
 * meanwhile — so a save never commits later for a join committed with it. One that has waited
 * LOW_PRIORITY_PATIENCE_MS runs right after the batch that holds it up (its own transaction), so a
 * steady stream of saves cannot starve it.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { BusyError } from "./errors";

type Client = Db["$client"];

/** How long a write waits for the lock before it is refused (the connection's busy timeout, db/client.ts). */
const WAIT_MS = 5000;
/**
 * Waits between tries: short, and never long. The other process holds the lock for a batch of saves
 * (a few milliseconds); a longer wait left the lock free and unused while this process's saves queued
 * (`bench:save --processes 2`: 12,000 saves in 13.2 and 12.4 s with waits up to 16 ms, 11.6 and 10.9 s
 * with waits up to 4 ms, and a third as many COMMITs: batches are larger). A try that finds the lock
 * taken costs three statements without a statement object (tens of microseconds).
 */
const BACKOFF_MS = [0, 0, 1];
/**
 * After committing a batch, a writer lets this long pass before it begins its next one, so that the
 * other process — trying every millisecond while its saves queue — gets the lock in between. Without
 * it, a process whose saves came in one at a time took the lock again and again for one save each
 * while the other's queue grew: at saturation (bench/RESULTS.md, 2026-11-30) most of the write
 * transactions were of one save, and the other process's saves made the p99. With it the processes
 * take turns, each committing all its queued saves at once. A save that arrives when the lock is free
 * and no batch of this writer committed within the pause is tried at once, as before.
 */
const TURN_PAUSE_MS = 1.5;
/** A low-priority write that has waited this long runs after the batch ahead of it instead of behind the next one. */
const LOW_PRIORITY_PATIENCE_MS = 100;

interface Pending {
  body: () => unknown;
  /** It may leave work to the end of its batch and reads nothing such work writes (`deferToBatchEnd`). */
  defers: boolean;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  /** When it gives up (performance.now()). */
  until: number;
  /** When it was queued (performance.now()). */
  since: number;
}

interface Writer {
  queue: Pending[];
  /** Low-priority writes: run one at a time, when `queue` is empty. */
  low: Pending[];
  /** A try is scheduled. */
  waiting: boolean;
  tries: number;
  /** The connection's own busy timeout, put back after each try (the statement that does). */
  restoreBusyTimeout: string;
  /** Work left to the end of the batch running now (null: no batch runs), by key, in the order first asked for. */
  deferred: Map<string, Deferred> | null;
  /** When its last batch committed (performance.now()). */
  committedAt: number;
}

interface Deferred {
  items: unknown[];
  run: (items: unknown[]) => void;
}

const writers = new WeakMap<Client, Writer>();

function writerOf(client: Client): Writer {
  let w = writers.get(client);
  if (!w) {
    w = { queue: [], low: [], waiting: false, tries: 0, deferred: null, committedAt: -Infinity, restoreBusyTimeout: `PRAGMA busy_timeout = ${Number(client.pragma("busy_timeout", { simple: true })) || 0}` };
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

/** Run the work the batch's writes left to its end, once per key with every item asked for (it writes outside their savepoints). */
function runDeferred(w: Writer): void {
  const work = w.deferred;
  // Work that leaves work of its own to the batch's end has that done too.
  while (work && work.size > 0) {
    const due = [...work.values()];
    work.clear();
    for (const d of due) d.run(d.items);
  }
}

/** Run these writes, each in its own savepoint, inside the transaction just begun; commit; then answer them. */
function runBatch(client: Client, w: Writer, batch: Pending[]): void {
  const results: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
  w.deferred = new Map();
  try {
    for (const p of batch) {
      // A write that may read what deferred work writes sees it done first.
      if (!p.defers) runDeferred(w);
      try {
        // better-sqlite3 runs a transaction function inside an open transaction as a savepoint.
        results.push({ ok: true, value: client.transaction(p.body)() });
      } catch (error) {
        results.push({ ok: false, error });
      }
    }
    runDeferred(w);
    w.deferred = null;
    client.exec("COMMIT");
  } catch (e) {
    w.deferred = null;
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

/**
 * Inside a write of `writeTransaction(…, { defers: true })`: leave `item` to `run` at the end of the
 * batch (before its COMMIT, in its transaction; once per `key`, with the items of every write that
 * asked, in order). Anywhere else (no batch runs on this connection, or a synchronous transaction of
 * its own): false, and the caller does the work now.
 */
export function deferToBatchEnd<T>(db: Pick<Db, "$client">, key: string, item: T, run: (items: T[]) => void): boolean {
  const w = writers.get(db.$client);
  if (!w?.deferred) return false;
  const d = w.deferred.get(key);
  if (d) d.items.push(item);
  else w.deferred.set(key, { items: [item], run: run as (items: unknown[]) => void });
  return true;
}

const pending = (w: Writer) => w.queue.length + w.low.length;

/** Begin and run `batch` (taken off its queue by the caller once the lock is held); false when the lock is taken. */
function runIfFree(client: Client, w: Writer, take: () => Pending[]): boolean {
  let began: boolean;
  try {
    began = !client.inTransaction && tryBegin(client, w);
  } catch (e) {
    for (const p of take()) p.reject(e);
    return true;
  }
  if (began) {
    runBatch(client, w, take());
    w.committedAt = performance.now();
  }
  return began;
}

function attempt(client: Client, w: Writer): void {
  w.waiting = false;
  if (pending(w) === 0) return;
  // The other process's turn first, if it wants one (TURN_PAUSE_MS).
  const pause = TURN_PAUSE_MS - (performance.now() - w.committedAt);
  if (pause > 0) {
    w.waiting = true;
    setTimeout(() => attempt(client, w), pause);
    return;
  }
  const normal = w.queue.length > 0;
  // Every ordinary write queued now, or else the oldest low-priority one alone.
  const began = runIfFree(client, w, () => (normal ? w.queue.splice(0) : w.low.splice(0, 1)));
  if (began) {
    w.tries = 0;
    // A low-priority write that has waited long enough goes now, in a transaction of its own.
    if (normal && w.low.length > 0 && performance.now() - w.low[0].since >= LOW_PRIORITY_PATIENCE_MS) runIfFree(client, w, () => w.low.splice(0, 1));
    // What is left waits for the event loop to take in what arrived meanwhile (ordinary writes go first).
    if (pending(w) > 0) {
      w.waiting = true;
      setImmediate(() => attempt(client, w));
    }
    return;
  }
  // Taken (by the other process, or by a synchronous transaction of this one): refuse what waited too long, try again later.
  const now = performance.now();
  for (const key of ["queue", "low"] as const) {
    const expired = w[key].filter((p) => now >= p.until);
    if (expired.length === 0) continue;
    w[key] = w[key].filter((p) => now < p.until);
    for (const p of expired) p.reject(new BusyError("The database is busy: nothing was saved. Send it again in a moment.", 1));
  }
  schedule(client, w);
}

function schedule(client: Client, w: Writer): void {
  if (w.waiting || pending(w) === 0) return;
  w.waiting = true;
  const ms = BACKOFF_MS[Math.min(w.tries++, BACKOFF_MS.length - 1)];
  if (ms === 0) setImmediate(() => attempt(client, w));
  else setTimeout(() => attempt(client, w), ms);
}

/**
 * Run `body` (synchronous: it must not await) in a write transaction taken without blocking the
 * event loop; resolves with its value once committed, rejects with what it threw (its writes
 * undone) or with BusyError when the lock stayed taken for `waitMs` (default WAIT_MS).
 * `lowPriority`: it yields to the other writes of this process (see the header). `defers`: `body` may
 * leave work to the end of its batch (`deferToBatchEnd`) and reads nothing such work writes.
 */
export function writeTransaction<T>(
  db: Pick<Db, "$client">,
  body: () => T,
  { waitMs = WAIT_MS, lowPriority = false, defers = false }: { waitMs?: number; lowPriority?: boolean; defers?: boolean } = {},
): Promise<T> {
  const client = db.$client;
  const w = writerOf(client);
  return new Promise<T>((resolve, reject) => {
    const now = performance.now();
    (lowPriority ? w.low : w.queue).push({ body, defers, resolve: resolve as (v: unknown) => void, reject, until: now + waitMs, since: now });
    // First try at once, unless others already wait (they go first, in the same batch).
    if (!w.waiting) {
      w.tries = 0;
      attempt(client, w);
    }
  });
}
