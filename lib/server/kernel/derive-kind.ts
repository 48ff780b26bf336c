/**
 * What a derivation kind is (lib/server/jobs/derive-jobs.ts runs them, in the derivation process or
 * in-process). Here, in the kernel, so that each feature writes its own kinds (its derive-kinds.ts, a
 * `DeriveKinds` registry its index exports) without importing the jobs folder that runs them (#43),
 * as it does for its job kinds (job-context.ts).
 */
import type { Db } from "../../../db/client";
import type { Actor } from "./actor";

/** What every derivation job carries besides its kind (`op`) and its own fields: who asks, and the project. */
export interface DeriveJobBase {
  actor: Actor;
  projectId: number;
}

/** One kind of derivation. Who asks has been checked (requireProject, coordinator) before `run` is called. */
export interface DeriveKind<J extends DeriveJobBase = DeriveJobBase, R = unknown> {
  /**
   * Compute the answer. `cached` runs another derivation through the cache (under the same data
   * version), so that two kinds that share a computation derive it once.
   */
  run(db: Db, job: J, cached: (job: DeriveJobBase & { op: string }) => unknown): R;
  /** Computed on every call, never cached: it depends on an upload, or its answer is too large to keep. */
  uncached?: true;
  /** Carries an uploaded file: never shared between callers (nor keyed by its content), and counted toward the user's upload quota while it runs. */
  upload?: true;
  /**
   * Tens of milliseconds at the largest sizes (it adds up kept figures): until a derivation process is up and has
   * answered it is computed where it is asked for, and a process is started for the next one (lib/server/jobs/derive-pool.ts).
   */
  light?: true;
  /** How long (ms) a cached answer is still served after the data moved on, for figures that are global and slow while a change to them is small. */
  servedAfterChangeMs?: number;
  /** What else, besides the project's data version, a cached answer depends on (e.g. the stored runs and golds). */
  fingerprint?(db: Db, projectId: number): string;
}

/** A feature's derivation kinds: each kind's name (`op`) and what it is (lib/server/jobs/derive-jobs.ts gathers them). */
// `any`: each kind names its own job type; the registry holds kinds of every shape.
export type DeriveKinds = Readonly<Record<string, DeriveKind<any, unknown>>>;
