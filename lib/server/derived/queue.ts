/**
 * Working through the queue of instances to bring up to date (derive_queue, #39): in slices of
 * a few dozen instances, each in a short write transaction of its own, so that saves get the
 * write lock between slices. Who works through it:
 *
 * - a save brings its own instance up to date in its own transaction (annotate/responses.ts), so
 *   saving never leaves work behind and the figures never lag behind a save;
 * - a reader of the figures first catches up with what is queued for its project: all of it on a
 *   connection of the command line or a test (`catchUpNow`), a bounded amount in the server
 *   (`catchUp`, through the write lock without holding up the event loop), the rest left to
 * - the server's applier (`startApplier`, from instrumentation.ts), which looks for queued work
 *   every second and works through it in the derivation process (lib/server/jobs/derive-pool.ts,
 *   at a lower CPU priority), so that a lemma decision on a form given in 50,000 instances, a
 *   responses import or an upgrade never holds a request.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { deriveQueue } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { all, get } from "../kernel/statements";
import { writeTransaction } from "../kernel/write-lock";
import { maintainInstances } from "./maintain";

const Q = named(deriveQueue);

/** Instances per slice: one short write transaction (a few ms). */
const SLICE = 64;

/** How many of the project's instances wait to be brought up to date. */
export function queuedCount(db: Db, projectId: number): number {
  return get<{ n: number }>(db, `select count(*) as n from ${Q.$} where ${Q.projectId} = ?`, projectId)!.n;
}

/** Projects with queued instances (at most `limit`). */
export function queuedProjects(db: Db, limit = 16): number[] {
  return all<{ p: number }>(db, `select distinct ${Q.projectId} as p from ${Q.$} limit ?`, limit).map((r) => r.p);
}

/** Bring up to `limit` queued instances of the project up to date, in the caller's transaction; how many it took. */
function maintainQueued(db: Db, projectId: number, limit = SLICE): number {
  const refs = all<{ ref: number }>(db, `select ${Q.instanceRef} as ref from ${Q.$} where ${Q.projectId} = ? limit ?`, projectId, limit).map((r) => r.ref);
  maintainInstances(db, projectId, refs);
  return refs.length;
}

/** One slice in a write transaction of its own (synchronous: the command line, tests, the derivation process); how many it took. */
export function drainSlice(db: Db, projectId: number, limit = SLICE): number {
  return db.$client.transaction(() => maintainQueued(db, projectId, limit)).immediate();
}

/** Everything queued for the project (or for every project), slice by slice; how many instances. */
export function drainAll(db: Db, projectId?: number): number {
  let n = 0;
  for (const p of projectId === undefined ? queuedProjects(db, 1_000_000) : queuedCount(db, projectId) > 0 ? [projectId] : []) {
    for (let k = drainSlice(db, p); k > 0; k = drainSlice(db, p)) n += k;
  }
  return n;
}

const served = (globalThis as unknown as { lexgoldServed?: WeakSet<object> }).lexgoldServed ?? new WeakSet<object>();
(globalThis as unknown as { lexgoldServed?: WeakSet<object> }).lexgoldServed = served;

/**
 * Mark a connection as the server's (or a worker's of it): its readers catch up only a bounded
 * amount before reading, and the applier does the rest; other connections (the command line,
 * tests) catch up with everything first.
 */
export function markServed(db: Pick<Db, "$client">): void {
  served.add(db.$client);
}

export function isServed(db: Pick<Db, "$client">): boolean {
  return served.has(db.$client);
}

/** Before a synchronous read: everything queued for the project, on a connection that is not the server's. */
export function catchUpNow(db: Db, projectId: number): void {
  if (!isServed(db)) drainAll(db, projectId);
}

/** Instances a page brings up to date itself before it reads (the rest is the applier's). */
const PAGE_BUDGET = 256;

/**
 * Before a page reads the project's figures: up to `budget` queued instances brought up to date,
 * a slice per write transaction through the write lock (saves queued meanwhile go first). Returns
 * how many still wait (the page says so; the applier works through them).
 */
export async function catchUp(db: Db, projectId: number, budget = PAGE_BUDGET): Promise<number> {
  // Nothing queued (the usual case while annotators save: each save keeps its own instance): no write lock taken.
  if (queuedCount(db, projectId) === 0) return 0;
  if (!isServed(db)) {
    drainAll(db, projectId);
    return 0;
  }
  let left = budget;
  while (left > 0) {
    const took = await writeTransaction(db, () => maintainQueued(db, projectId, Math.min(SLICE, left)));
    if (took === 0) return 0;
    left -= took;
    await new Promise((r) => setImmediate(r));
  }
  return queuedCount(db, projectId);
}

interface Applier {
  timer: ReturnType<typeof setInterval>;
}
const g = globalThis as unknown as { lexgoldApplier?: Applier };

/**
 * Every `everyMs`, run `tick` (the derivation pool's: work through each project's queue, write the
 * items of runs stored before #39), one tick at a time. Once per process (a second call does nothing).
 */
export function startApplier(getDb: () => Db, tick: (db: Db) => Promise<void>, everyMs = 1000): void {
  if (g.lexgoldApplier) return;
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    let db: Db;
    try {
      db = getDb();
    } catch {
      return;
    }
    busy = true;
    tick(db)
      .catch((e) => console.error("lexgold: bringing derived figures up to date failed:", e))
      .finally(() => (busy = false));
  }, everyMs);
  timer.unref();
  g.lexgoldApplier = { timer };
}
