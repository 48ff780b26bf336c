/**
 * What one instance's gold is derived from, read for a few instances at a time (#39): the
 * instance and its lexelt, every response to it with who gave it and whether it counts, the
 * coordinator's active adjudications of those responses, the lemma decisions on the forms they
 * hold and the counts a dataset import added. The same inputs lib/server/gold/gold.ts reads for
 * the whole project at once (readGoldInputs, gold-responses.ts), instance by instance: every
 * statement here finds its rows through an index on the instance, so reading one instance costs
 * the same in a project of 2,000 instances as in one of 200,000.
 *
 * Who counts: a response is left out of the gold when its annotator is left out of the project's
 * gold (gold_left_out, kept by triggers: a crowd participant the coordinator left out, from
 * participant_exclusions; a model's pseudo-annotator while the model is not counted as an annotator,
 * from model_samples and model_decisions), or when it was saved after the training showed its annotator the instance's known
 * answers (training_answers). `countsInGold` is the one place that says so for the derived figures.
 */
import "server-only";
import type { Db } from "../../../db/client";
import {
  adjudications,
  datasetGold,
  goldLeftOut,
  instances,
  knownAnswers,
  lemmaOverrides,
  lexelts,
  projects,
  responses,
  trainingAnswers,
  users,
} from "../../../db/schema";
import { named } from "../../../db/sql-names";
import type { AdjudicationDecision, AdjudicationAction } from "../../lexsub/adjudication";
import type { GoldEntry } from "../../lexsub/formats/gold";
import type { LemmaDecision, LemmaTableRow } from "../../lexsub/normalize";
import type { AnswerKind } from "../../lexsub/types";
import { all, get } from "../kernel/statements";

const I = named(instances, "i");
const L = named(lexelts, "l");
const R = named(responses, "r");
const U = named(users, "u");
const KA = named(knownAnswers, "ka");
const LOUT = named(goldLeftOut, "lout");
const TA = named(trainingAnswers, "ta");
const A = named(adjudications, "a");
const LO = named(lemmaOverrides, "lo");
const DG = named(datasetGold, "dg");
const P = named(projects, "p");

/** One response to the instance, as stored, with whether and why it is left out of the gold. */
export interface StoredResponse {
  userId: number;
  /** When it was last saved (ms). */
  updatedAt: number;
  annotator: string;
  kind: AnswerKind;
  substitutes: string[];
  multiword: string | null;
  /** Its annotator is left out of the project's gold (gold_left_out: a crowd participant the coordinator left out, a model not counted). */
  leftOutOfGold: boolean;
  /** Its annotator is a model's pseudo-annotator (users.role "model"): never in the Progress tab's counts. */
  isModel: boolean;
  /** Saved after the training showed its annotator the instance's known answers. */
  afterKnownAnswers: boolean;
}

export interface InstanceInputs {
  ref: number;
  projectId: number;
  instanceId: string;
  lexeltId: number;
  /** The lexelt item as loaded. */
  lexelt: string;
  lexeltPosition: number;
  position: number;
  head: string;
  /** The exclusion reason ("attention check" for a check), null when in the gold. */
  excludedReason: string | null;
  correctedPos: string | null;
  reviewed: boolean;
  inQueue: boolean;
  /** Every response, by annotator name. */
  responses: StoredResponse[];
  /** The active adjudications of its responses, oldest first. */
  adjudications: AdjudicationDecision[];
  /** The lemma decisions on the forms its responses hold (after adjudication). */
  lemmaRows: LemmaTableRow[];
  /** A dataset's imported counts (positive only), in file order. */
  imported: GoldEntry[];
}

/** Strings in code-point order (SQLite's BINARY collation of UTF-8 text), not UTF-16 code units. */
function byCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** Whether a stored response counts in the gold, gold lines, agreement and the scores of runs. */
export function countsInGold(r: StoredResponse): boolean {
  return !r.leftOutOfGold && !r.afterKnownAnswers;
}

/** The project's language (the lemmatiser's and the scorer's reading), or null when the project is gone. */
export function projectLanguage(db: Db, projectId: number): string | null {
  return get<{ language: string }>(db, `select ${P.language} as language from ${P.$} where ${P.id} = ?`, projectId)?.language ?? null;
}

interface InstanceRow {
  ref: number;
  projectId: number;
  instanceId: string;
  lexeltId: number;
  lexelt: string;
  lexeltPosition: number;
  position: number;
  head: string;
  excludedReason: string | null;
  correctedPos: string | null;
  reviewed: number;
  inQueue: number;
}

interface ResponseRow {
  userId: number;
  updatedAt: number;
  annotator: string;
  kind: AnswerKind;
  substitutes: string;
  multiword: string | null;
  leftOutOfGold: number;
  isModel: number;
  afterKnownAnswers: number;
}

/**
 * The inputs of one instance of the project, or null when it is gone (or belongs to another
 * project, or is still being imported: its lexelt in a holding project). The forms the lemma decisions are looked up for come from `formsOf`, called with the
 * responses and adjudications (the forms after adjudication, normalised).
 */
export function instanceInputs(db: Db, projectId: number, ref: number, formsOf: (inputs: Omit<InstanceInputs, "lemmaRows">) => string[]): InstanceInputs | null {
  const inst = get<InstanceRow>(
    db,
    `select ${I.id} as ref, ${I.projectId} as projectId, ${I.instanceId} as instanceId, ${I.lexeltId} as lexeltId, ${L.item} as lexelt,
            ${L.position} as lexeltPosition, ${I.position} as position, ${I.head} as head,
            coalesce(${I.excludedReason}, (select 'attention check' from ${KA.$} where ${KA.instanceRef} = ${I.id} and ${KA.role} = 'check')) as excludedReason,
            ${I.correctedPos} as correctedPos, ${I.reviewedAt} is not null as reviewed, ${I.inQueue} as inQueue
       from ${I.$} join ${L.$} on ${L.id} = ${I.lexeltId} and ${L.projectId} = ${I.projectId}
      where ${I.id} = ? and ${I.projectId} = ?`,
    ref,
    projectId,
  );
  if (!inst) return null;
  // Each response with whether its annotator is a participant left out of the gold, and whether it was
  // saved after the training first showed the annotator this instance's known answers.
  const rows = all<ResponseRow>(
    db,
    `select ${R.userId} as userId, ${R.updatedAt} as updatedAt, ${U.name} as annotator, ${R.kind} as kind, ${R.substitutes} as substitutes, ${R.multiword} as multiword,
            exists (select 1 from ${LOUT.$} where ${LOUT.projectId} = ${R.projectId} and ${LOUT.userId} = ${R.userId}) as leftOutOfGold,
            ${U.role} = 'model' as isModel,
            coalesce(${R.updatedAt} > (select min(${TA.at}) from ${TA.$} where ${TA.projectId} = ${R.projectId} and ${TA.userId} = ${R.userId} and ${TA.instanceRef} = ${R.instanceRef}), 0) as afterKnownAnswers
       from ${R.$} join ${U.$} on ${U.id} = ${R.userId}
      where ${R.instanceRef} = ?`,
    ref,
  );
  // By annotator name in SQLite's order (code points), as the project's derivation reads them; sorted here,
  // not by SQLite, which would sort through a temporary b-tree.
  rows.sort((a, b) => byCodePoints(a.annotator, b.annotator));
  const decisions = all<{ id: number; annotator: string; action: AdjudicationAction; substitute: string | null; value: string | null }>(
    db,
    `select ${A.id} as id, ${U.name} as annotator, ${A.action} as action, ${A.substitute} as substitute, ${A.value} as value
       from ${A.$} join ${U.$} on ${U.id} = ${A.annotatorId}
      where ${A.instanceRef} = ? and ${A.undoneAt} is null`,
    ref,
  );
  decisions.sort((a, b) => a.id - b.id);
  const imported = all<GoldEntry>(
    db,
    `select ${DG.substitute} as substitute, ${DG.count} as count from ${DG.$} where ${DG.instanceRef} = ? and ${DG.count} > 0 order by ${DG.position}`,
    ref,
  );
  const base: Omit<InstanceInputs, "lemmaRows"> = {
    ref: inst.ref,
    projectId: inst.projectId,
    instanceId: inst.instanceId,
    lexeltId: inst.lexeltId,
    lexelt: inst.lexelt,
    lexeltPosition: inst.lexeltPosition,
    position: inst.position,
    head: inst.head,
    excludedReason: inst.excludedReason,
    correctedPos: inst.correctedPos,
    reviewed: inst.reviewed === 1,
    inQueue: inst.inQueue === 1,
    responses: rows.map((r) => ({
      userId: r.userId,
      updatedAt: r.updatedAt,
      annotator: r.annotator,
      kind: r.kind,
      substitutes: JSON.parse(r.substitutes) as string[],
      multiword: r.multiword || null,
      leftOutOfGold: r.leftOutOfGold === 1,
      isModel: r.isModel === 1,
      afterKnownAnswers: r.afterKnownAnswers === 1,
    })),
    adjudications: decisions.map((d) => ({ ...d, instanceId: inst.instanceId })),
    imported,
  };
  const forms = formsOf(base);
  const lemmaRows =
    forms.length === 0
      ? []
      : all<{ form: string; lemma: string; decision: LemmaDecision }>(
          db,
          `select ${LO.form} as form, ${LO.lemma} as lemma, ${LO.decision} as decision from ${LO.$} where ${LO.projectId} = ? and ${LO.form} in (select value from json_each(?))`,
          projectId,
          JSON.stringify(forms),
        );
  return { ...base, lemmaRows };
}
