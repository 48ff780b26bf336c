/**
 * The derivations that are too heavy for the request thread (issue #14): the
 * gold / mwgold files as nobody keeps them (case folded, proposals applied) and
 * every problem, the agreement downloads (every item of T), the responses TSV
 * download, the Datasets page's downloads and loss reports, the Scoring page's
 * board (every stored run scored against the chosen gold). The Gold, Agreement
 * and Progress pages read the kept figures (#39, lib/server/derived) on the
 * request thread. lib/server/jobs/derive-pool.ts runs them on a worker thread with its
 * own read-only connection to the same WAL database (or here, in-process, for
 * an in-memory database); this module is what both run.
 *
 * Results are cached per database and job under the project's data version
 * (data_versions, raised by triggers in the transaction of every response,
 * corpus change and review decision; drizzle/0006): a page load after nothing
 * changed is a cache lookup, the first one after a save recomputes. The
 * version and the inputs are read in one transaction, so a result is exactly
 * the version it is filed under.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { requireProject } from "../kernel/actor";
import { dataVersion } from "../kernel/data-version";
import type { DeriveKind } from "../kernel/derive-kind";
import { ANNOTATE_DERIVE_KINDS } from "../annotate";
import { DATASETS_DERIVE_KINDS } from "../datasets";
import { GOLD_DERIVE_KINDS } from "../gold";
import { SCORING_DERIVE_KINDS } from "../scoring";

/**
 * The kinds of derivation, gathered from the features that own them (#43): each feature writes its
 * kinds in its own derive-kinds.ts and its index exports them as a registry (`DeriveKinds`,
 * lib/server/kernel/derive-kind.ts); nothing here reaches into a feature. A kind says how it is
 * cached (`uncached`, `servedAfterChangeMs`, `fingerprint`) and whether it carries an upload.
 */
const DERIVE_KINDS = {
  ...GOLD_DERIVE_KINDS,
  ...SCORING_DERIVE_KINDS,
  ...ANNOTATE_DERIVE_KINDS,
  ...DATASETS_DERIVE_KINDS,
};
type Kinds = typeof DERIVE_KINDS;
type JobOf<K extends keyof Kinds> = Parameters<Kinds[K]["run"]>[1];

/** The nice value of every thread of a derivation process (derive-worker.ts; derive-pool.ts starts it so). */
export const DERIVE_NICE = 10;

/** A derivation: its kind (`op`), who asks, the project, and the kind's own fields. */
export type DeriveJob = { [K in keyof Kinds]: { op: K } & JobOf<K> }[keyof Kinds];

/** What each kind answers. */
type DeriveResults = { [K in keyof Kinds]: ReturnType<Kinds[K]["run"]> };

export type DeriveResult<J extends DeriveJob> = DeriveResults[J["op"]];

function kindOf(job: DeriveJob): DeriveKind {
  return DERIVE_KINDS[job.op] as DeriveKind;
}

/** Whether the job carries an uploaded file: never shared between callers (nor keyed by its content). */
export function carriesUpload(job: DeriveJob): boolean {
  return kindOf(job).upload === true;
}

/** Whether the job is of a light kind (`light`: computed where it is asked for until a derivation process is up and has answered). */
export function isLight(job: DeriveJob): boolean {
  return kindOf(job).light === true;
}

interface Entry {
  /** The data version (and, for the Scoring board, the stored runs and golds) the value was computed at. */
  version: number | string;
  value: unknown;
  /** When it was computed (ms). */
  at: number;
}

/** Per database: job key → the last result and the version it was computed at (least recently used dropped first). */
const cache = new WeakMap<Db, Map<string, Entry>>();
/** Results kept per database: a few pages of a few projects. Each is one page or one file. */
const CACHE_ENTRIES = 24;

function jobKey(job: DeriveJob): string {
  // The actor is part of the key: every call checks the actor again anyway, but a cached value must never
  // carry one caller's view to another.
  return JSON.stringify(job);
}

function compute(db: Db, job: DeriveJob): unknown {
  return kindOf(job).run(db, job, (other) => runDeriveJob(db, other as DeriveJob));
}

/** What a cached result must have been computed at to be served: the data version, and what else the kind depends on (the board and its JSON: the stored runs and golds). */
function versionOf(db: Db, job: DeriveJob): number | string {
  const v = dataVersion(db, job.projectId);
  const fingerprint = kindOf(job).fingerprint;
  return fingerprint ? `${v}|${fingerprint(db, job.projectId)}` : v;
}

/** Run a job against `db` now, or answer from the cache when the project's data version has not moved. */
export function runDeriveJob<J extends DeriveJob>(db: Db, job: J): DeriveResult<J> {
  // Who asks is checked on every call, before the cache is read.
  requireProject(db, job.actor, job.projectId, { coordinator: true });
  // Kinds that depend on an upload or answer too much to keep: computed every time.
  if (kindOf(job).uncached) return compute(db, job) as DeriveResult<J>;
  let perDb = cache.get(db);
  if (!perDb) cache.set(db, (perDb = new Map()));
  const key = jobKey(job);
  return db.$client.transaction(() => {
    const version = versionOf(db, job);
    const hit = perDb.get(key);
    if (hit && (hit.version === version || Date.now() - hit.at < (kindOf(job).servedAfterChangeMs ?? 0))) {
      perDb.delete(key);
      perDb.set(key, hit);
      return hit.value as DeriveResult<J>;
    }
    const value = compute(db, job);
    perDb.delete(key);
    perDb.set(key, { version, value, at: Date.now() });
    while (perDb.size > CACHE_ENTRIES) perDb.delete(perDb.keys().next().value!);
    return value as DeriveResult<J>;
  })();
}
