/**
 * The task's WordNet baselines over a project's instances (seed 002 §3.1;
 * lib/lexsub/baseline/wordnet.ts): as system files, and stored as runs on the
 * Scoring page. Coordinators of the project only.
 */
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { instances, lexelts } from "../../../db/schema";
import { type BaselineInstance, type BaselineOutput, wordnetMwBaseline, wordnetSubstitutionBaseline } from "../../lexsub/baseline/wordnet";
import { wordnetGraph } from "../../wordnet/load";
import { type Actor, requireProject } from "../kernel/actor";
import { type RunInfo, type RunUploadReading, readRunUpload, uploadRun } from "./runs";

export type BaselineType = "best" | "oot" | "mw";
const BASELINE_TYPES: readonly BaselineType[] = ["best", "oot", "mw"];

/** What every baseline output says of its frequencies. */
export const FREQUENCY_NOTE =
  "candidates ranked by WordNet 3.1's sense tag counts (SemCor), not by BNC frequencies as in the task paper; see docs/baselines.md";

/** The project's instances in corpus order, for the baselines (the lexelt item with a corrected PoS as exported). */
export function baselineInstances(db: Db, actor: Actor, projectId: number): BaselineInstance[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return db
    .select({ item: lexelts.item, id: instances.instanceId, before: instances.before, head: instances.head, after: instances.after })
    .from(instances)
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .where(and(eq(instances.projectId, projectId), eq(lexelts.projectId, projectId)))
    .orderBy(asc(lexelts.position), asc(instances.position), asc(instances.id))
    .all()
    .map((r) => ({ lexelt: r.item, id: r.id, before: r.before, head: r.head, after: r.after }));
}

/** A WordNet baseline of the given type over instances. */
export function wordnetBaseline(list: readonly BaselineInstance[], type: BaselineType): BaselineOutput {
  const g = wordnetGraph();
  return type === "mw" ? wordnetMwBaseline(g, list) : wordnetSubstitutionBaseline(g, list, type);
}

export interface BaselineRuns {
  runs: RunInfo[];
  /** Per type: the instances given no answer. */
  unanswered: Record<BaselineType, number>;
}

/** The three baseline files over a project's instances, each already read as `uploadRun` reads a system file. */
export interface BaselineFiles {
  files: { type: BaselineType; text: string; reading: RunUploadReading }[];
  /** Per type: the instances given no answer. */
  unanswered: Record<BaselineType, number>;
}

/**
 * The WordNet best, oot and mw baselines over the project's instances as system
 * files, read as an upload is (a type with no answer at all is left out). The
 * part that grows with the project: the route runs it in the derivation process
 * (`derive`, op "baselineFiles") and stores with `storeWordNetBaselineRuns`.
 */
export function wordNetBaselineFiles(db: Db, actor: Actor, projectId: number): BaselineFiles {
  const list = baselineInstances(db, actor, projectId);
  const unanswered = { best: 0, oot: 0, mw: 0 } as Record<BaselineType, number>;
  const files: BaselineFiles["files"] = [];
  for (const type of BASELINE_TYPES) {
    const out = wordnetBaseline(list, type);
    unanswered[type] = out.unanswered;
    if (out.lines.length === 0) continue;
    const fileName = `wordnet-baseline.${type}`;
    const text = out.lines.join("\n") + "\n";
    files.push({ type, text, reading: readRunUpload(fileName, text, type) });
  }
  return { files, unanswered };
}

/**
 * Store baseline files (from `wordNetBaselineFiles`) as runs named "WordNet
 * baseline", scored with `gold` (a stored gold's id, or empty for the
 * project's own). Refused, with nothing stored, if runs of that name exist for
 * the gold.
 */
export function storeWordNetBaselineRuns(db: Db, actor: Actor, projectId: number, baselines: BaselineFiles, gold: string | number | null = null): BaselineRuns {
  requireProject(db, actor, projectId, { coordinator: true });
  return db.transaction(() => {
    const runs: RunInfo[] = [];
    for (const f of baselines.files) {
      runs.push(uploadRun(db, actor, projectId, { fileName: `wordnet-baseline.${f.type}`, text: f.text, type: f.type, name: "WordNet baseline", gold }, f.reading).run);
    }
    return { runs, unanswered: baselines.unanswered };
  });
}

/** Both steps on the calling thread (the CLI): `wordNetBaselineFiles`, then `storeWordNetBaselineRuns`. */
export function addWordNetBaselineRuns(db: Db, actor: Actor, projectId: number, gold: string | number | null = null): BaselineRuns {
  return storeWordNetBaselineRuns(db, actor, projectId, wordNetBaselineFiles(db, actor, projectId), gold);
}
