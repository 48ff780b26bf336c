/**
 * Gold construction for a project (issue #5): the coordinator's lemma review,
 * exclusions and PoS corrections, and the gold, mwgold and agreement derived
 * from the stored responses through them. Coordinators of the project only.
 *
 * The derivation itself is pure (lib/lexsub/gold.ts, lib/lexsub/agreement/);
 * this module loads its inputs, records decisions (with who and when, in one
 * transaction with an append-only log row) and checks who asks.
 */
import "server-only";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { batchItems, datasetGold, goldReviewLog, instances, knownAnswers, lemmaOverrides, lexelts, participants, users } from "../../../db/schema";
import { type ImportedGold, withImportedGold } from "../../lexsub/dataset-gold";
import type { GoldEntry } from "../../lexsub/formats/gold";
import { type AgreementOptions, type AgreementReport, computeAgreement } from "../../lexsub/agreement";
import { type GoldResult, correctedItem, deriveGold, formatGold, formatMwGold } from "../../lexsub/gold";
import { MAX_LEMMA_LENGTH, parseLemmaDecisionsTsv } from "../../lexsub/formats/lemma-decisions";
import {
  type LemmaDecision,
  type LemmaReviewRow,
  collapseSpace,
  lemmaTable,
  normaliseForm,
} from "../../lexsub/normalize";
import { formatDiagnostic, hasErrors } from "../../lexsub/diagnostics";
import { lemmaProposer, catchUpNow, type LemmaReviewEntry, lemmaReviewEntry, lemmaReviewOf } from "../derived/actor-free";
import { type AnnotatorResponse } from "../../lexsub/types";
import { applyAdjudications } from "../../lexsub/adjudication";
import { type GoldScope, responseRecords } from "./gold-responses";
import { type AdjudicationRecord, loadRecords } from "./adjudication";
import { type Actor, type ProjectRow, actorUserId, requireProject } from "../kernel/actor";
import { READ } from "../../../db/immediate";
import { dataVersion } from "../kernel/data-version";
import { InputError, NotFoundError } from "../kernel/errors";
import { parseOrThrow } from "../kernel/validate";

export { lemmaProposer };

export interface GoldInputs {
  project: ProjectRow;
  instances: { lexelt: string; instanceId: string; excludedReason: string | null; correctedPos: string | null; head: string; reviewedAt: Date | null }[];
  /** The responses with the coordinator's active adjudications applied: what the gold is derived from. */
  responses: AnnotatorResponse[];
  /** The responses as the annotators gave them. */
  typed: AnnotatorResponse[];
  /**
   * Responses left out because they were last saved after the annotator was shown the instance's
   * known answers in the training (a training item met again in the queue), as annotator and instance.
   */
  afterKnownAnswers: { annotator: string; instanceId: string }[];
  /** The active adjudications, oldest first. */
  adjudications: AdjudicationRecord[];
  /** Ids of active substitute decisions whose substitute the annotator has since changed (not applied). */
  staleAdjudications: Set<number>;
  lemmaRows: { form: string; lemma: string; decision: LemmaDecision; decidedBy: string | null; decidedAt: Date }[];
  /** Gold imported from a dataset (CoInCo, SWORDS, TSAR): instance id → entries with a positive count. */
  imported?: ImportedGold;
}

/**
 * In the derivation worker (lib/server/jobs/derive-worker.ts) the last project's
 * inputs and derived gold are kept under its data version, so that paging
 * through the Gold page or loading the Agreement page after it does not read
 * and derive 500,000 responses again. Off elsewhere: the request thread and
 * the CLI keep nothing.
 */
let keep = false;
let kept: { db: Db; projectId: number; version: number; inputs: Omit<GoldInputs, "project"> } | null = null;
const keptGold = new WeakMap<readonly AnnotatorResponse[], Map<string, GoldResult>>();

export function keepDerivationInputs(on: boolean): void {
  keep = on;
  if (!on) kept = null;
}

/** Everything the derivation reads, in corpus order (responses by annotator name within an instance). */
export function goldInputs(db: Db, actor: Actor, projectId: number): GoldInputs {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  if (!keep) return readGoldInputs(db, project, projectId);
  return db.transaction(() => {
    const version = dataVersion(db, projectId);
    if (kept && kept.db === db && kept.projectId === projectId && kept.version === version) return { project, ...kept.inputs };
    kept = null;
    const inputs = readGoldInputs(db, project, projectId);
    const { project: _, ...rest } = inputs;
    kept = { db, projectId, version, inputs: rest };
    return inputs;
  }, READ);
}

/**
 * The inputs of one scope (GoldScope) without the derivation worker's keeping: the crowd
 * tab's agreement of one study's participants with the others. The caller checks the actor.
 */
export function scopedGoldInputs(db: Db, project: ProjectRow, scope: GoldScope): GoldInputs {
  return readGoldInputs(db, project, project.id, scope);
}

function readGoldInputs(db: Db, project: ProjectRow, projectId: number, scope: GoldScope = {}): GoldInputs {
  return db.transaction(() => {
    const inst = db
      .select({
        lexelt: lexelts.item,
        instanceId: instances.instanceId,
        // Attention checks (lib/server/quality/training.ts) never enter gold or agreement.
        excludedReason: sql<string | null>`coalesce(${instances.excludedReason}, (select 'attention check' from ${knownAnswers} where ${knownAnswers.instanceRef} = ${instances.id} and ${knownAnswers.role} = 'check'))`,
        correctedPos: instances.correctedPos,
        // For the multiword rule (the phrase holds the target): see lib/lexsub/gold.ts.
        head: instances.head,
        reviewedAt: instances.reviewedAt,
      })
      .from(instances)
      .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
      .where(
        and(
          // One study: its batches' instances drive the search (the unary + keeps SQLite off the project's indexes).
          scope.studyId === undefined ? eq(instances.projectId, projectId) : sql`+${instances.projectId} = ${projectId}`,
          scope.studyId === undefined ? eq(lexelts.projectId, projectId) : sql`+${lexelts.projectId} = ${projectId}`,
          scope.studyId === undefined
            ? undefined
            : sql`${instances.id} in (select ${batchItems.instanceRef} from ${batchItems} join ${participants} on ${participants.id} = ${batchItems.participantId} where ${participants.studyId} = ${scope.studyId})`,
        ),
      )
      .orderBy(asc(lexelts.position), asc(instances.position))
      .all();
    const afterKnownAnswers: GoldInputs["afterKnownAnswers"] = [];
    const typed = responseRecords(db, projectId, scope, afterKnownAnswers);
    const active = loadRecords(db, projectId, { activeOnly: true });
    const adjudicated = applyAdjudications(typed, active);
    const lemmaRows = db
      .select({
        form: lemmaOverrides.form,
        lemma: lemmaOverrides.lemma,
        decision: lemmaOverrides.decision,
        decidedBy: users.name,
        decidedAt: lemmaOverrides.decidedAt,
      })
      .from(lemmaOverrides)
      .leftJoin(users, eq(users.id, lemmaOverrides.decidedBy))
      .where(eq(lemmaOverrides.projectId, projectId))
      .all();
    return {
      project,
      instances: inst,
      responses: adjudicated.responses,
      typed,
      afterKnownAnswers,
      adjudications: active,
      staleAdjudications: adjudicated.stale,
      lemmaRows,
      // A study's scope compares its annotators: imported dataset counts name nobody (and would cost the project).
      imported: scope.studyId === undefined ? importedGold(db, projectId) : undefined,
    };
  }, READ);
}

export interface GoldExportOptions {
  /** Write kept and proposed forms in lower case (a coordinator's choice; off by default). */
  foldCase?: boolean;
  /**
   * Write the lemma proposal for every form nobody has decided (off by default:
   * such a form is written as typed). The result's `applied` names each proposal
   * applied and how often.
   */
  applyProposals?: boolean;
}

export interface ProjectGold {
  project: ProjectRow;
  result: GoldResult;
  /** The gold file (best and oot), as the official gold.trial is written. */
  gold: string;
  /** The mwgold file. */
  mwgold: string;
}

/**
 * The gold from the annotators' (adjudicated) responses alone, through the lemma
 * review: a form is written as the decision recorded for it says (accepted, kept,
 * overridden), else exactly as typed; the proposals of forms nobody decided only
 * with `applyProposals` (docs/lemmas.md). Every export (gold, mwgold, the CoInCo,
 * SWORDS and TSAR files), the Gold and Agreement tabs and the scoring gold read
 * this derivation.
 */
export function deriveResponseGold(inputs: GoldInputs, options: GoldExportOptions = {}): GoldResult {
  const derive = () =>
    deriveGold(inputs.instances, inputs.responses, {
      lemmaTable: lemmaTable(inputs.lemmaRows, inputs.project.language),
      propose: lemmaProposer(inputs.project.language),
      unreviewed: options.applyProposals === true ? "propose" : "keep",
      foldCase: options.foldCase === true,
      language: inputs.project.language,
    });
  // Kept only for the inputs kept above (the same arrays while the data version holds).
  if (!keep || kept?.inputs.responses !== inputs.responses) return derive();
  let byOptions = keptGold.get(inputs.responses);
  if (!byOptions) keptGold.set(inputs.responses, (byOptions = new Map()));
  const key = `${options.foldCase === true ? "fold" : "asTyped"}:${options.applyProposals === true ? "proposals" : "decided"}`;
  let result = byOptions.get(key);
  if (!result) byOptions.set(key, (result = derive()));
  return result;
}

/** The project's gold: the responses' gold with any imported dataset gold added (docs/datasets.md). */
export function deriveProjectGold(inputs: GoldInputs, options: GoldExportOptions = {}): GoldResult {
  const result = deriveResponseGold(inputs, options);
  return inputs.imported ? withImportedGold(result, inputs.imported) : result;
}

/** The imported dataset gold of a project, positive counts only, in file order per instance. */
function importedGold(db: Db, projectId: number): ImportedGold {
  const rows = db
    .select({ instanceId: instances.instanceId, substitute: datasetGold.substitute, count: datasetGold.count })
    .from(datasetGold)
    .innerJoin(instances, eq(instances.id, datasetGold.instanceRef))
    .where(eq(datasetGold.projectId, projectId))
    .orderBy(asc(datasetGold.instanceRef), asc(datasetGold.position))
    .all();
  const out = new Map<string, GoldEntry[]>();
  for (const r of rows) {
    if (r.count <= 0) continue;
    let list = out.get(r.instanceId);
    if (!list) out.set(r.instanceId, (list = []));
    list.push({ substitute: r.substitute, count: r.count });
  }
  return out;
}

/** The project's gold and mwgold, derived now from the stored responses and the review. */
export function projectGold(db: Db, actor: Actor, projectId: number, options: GoldExportOptions = {}): ProjectGold {
  const inputs = goldInputs(db, actor, projectId);
  const result = deriveProjectGold(inputs, options);
  return { project: inputs.project, result, gold: formatGold(result.items), mwgold: formatMwGold(result.items) };
}

/** Agreement over the project's derived gold (items in T, exclusions left out). */
export function projectAgreement(
  db: Db,
  actor: Actor,
  projectId: number,
  options: AgreementOptions = {},
): { project: ProjectRow; gold: GoldResult; agreement: AgreementReport } {
  const inputs = goldInputs(db, actor, projectId);
  // Agreement is between annotators: imported dataset counts name no annotator, so they stay out.
  const gold = deriveResponseGold(inputs);
  return { project: inputs.project, gold, agreement: computeAgreement(gold.items, options) };
}

export type { LemmaReviewEntry };

/**
 * The lemma review table: every distinct typed form, changed forms first, then by frequency,
 * from the counts kept as answers change (#39, lib/server/derived/lemma-review.ts lemmaReviewOf).
 */
export function lemmaReview(db: Db, actor: Actor, projectId: number): LemmaReviewEntry[] {
  const { language } = requireProject(db, actor, projectId, { coordinator: true });
  catchUpNow(db, projectId);
  return lemmaReviewOf(db, projectId, language);
}

const lemmaDecisionSchema = z.discriminatedUnion("decision", [
  z.object({ form: z.string(), decision: z.literal("accepted"), pos: z.string().optional() }),
  z.object({ form: z.string(), decision: z.literal("kept") }),
  z.object({
    form: z.string(),
    decision: z.literal("overridden"),
    lemma: z
      .string()
      .transform(collapseSpace)
      .pipe(
        z
          .string()
          .min(1, "Give the lemma.")
          .max(MAX_LEMMA_LENGTH, `At most ${MAX_LEMMA_LENGTH} characters.`)
          .refine((s) => !s.includes(";"), "A lemma cannot hold ';' (the gold file's separator)."),
      ),
  }),
  z.object({ form: z.string(), decision: z.literal("reset") }),
]);

/**
 * Record the coordinator's decision for a typed form: accept the proposal (for
 * the PoS given, else the form's most frequent one), override it with another
 * lemma, keep the form as typed, or reset to unreviewed. Returns the lemma the
 * gold now records for the form.
 */
export function decideLemma(db: Db, actor: Actor, projectId: number, input: unknown): { form: string; lemma: string; decision: LemmaDecision | null } {
  const { language } = requireProject(db, actor, projectId, { coordinator: true });
  const d = parseOrThrow(lemmaDecisionSchema, input, "lemma decision");
  const form = normaliseForm(d.form, language);
  if (form === "") throw new InputError("Give the form.", { form: "Give the form." });
  catchUpNow(db, projectId);
  // The one form's row (the whole review was built here once per click).
  const row = lemmaReviewEntry(db, projectId, language, form);
  if (!row) throw new NotFoundError(`No annotator typed "${form}" in this project.`);
  let lemma: string;
  if (d.decision === "accepted") {
    if (row.choice && (!d.pos || d.pos === row.choice.pos)) lemma = row.choice.proposed;
    else lemma = d.pos ? (row.proposals?.find((p) => p.pos === d.pos)?.proposed ?? lemmaProposer(language)(form, d.pos)) : row.proposed;
  } else if (d.decision === "kept") lemma = form;
  else if (d.decision === "overridden") lemma = d.lemma;
  else lemma = row.proposed;
  writeLemmaDecisions(db, actorUserId(actor!), projectId, [{ form, lemma, decision: d.decision }]);
  return { form, lemma, decision: d.decision === "reset" ? null : d.decision };
}

type LemmaWrite = { form: string; lemma: string; decision: LemmaDecision | "reset" };

/** Record decisions (and their log rows) in one transaction; `form` is the normalised form. */
function writeLemmaDecisions(db: Db, userId: number | null, projectId: number, decisions: readonly LemmaWrite[]): void {
  const now = new Date();
  db.transaction((tx) => {
    for (const d of decisions) {
      const form = d.form;
      if (d.decision === "reset") {
        tx.delete(lemmaOverrides).where(and(eq(lemmaOverrides.projectId, projectId), eq(lemmaOverrides.form, form))).run();
      } else {
        const values = { projectId, form, lemma: d.lemma, decision: d.decision, decidedBy: userId, decidedAt: now };
        tx.insert(lemmaOverrides)
          .values(values)
          .onConflictDoUpdate({
            target: [lemmaOverrides.projectId, lemmaOverrides.form],
            set: { lemma: d.lemma, decision: d.decision, decidedBy: userId, decidedAt: now },
          })
          .run();
      }
      tx.insert(goldReviewLog)
        .values({
          projectId,
          kind: "lemma",
          target: form,
          value: d.decision === "reset" ? null : JSON.stringify({ lemma: d.lemma, decision: d.decision }),
          userId,
          at: now,
        })
        .run();
    }
  });
}

/** The decision `accept` amounts to for a row: the proposal, or "kept" when it proposes the form itself. */
function acceptedFor(row: LemmaReviewRow, language: string, pos?: string): LemmaWrite {
  const lemma = pos ? (row.proposals?.find((p) => p.pos === pos)?.proposed ?? lemmaProposer(language)(row.form, pos)) : row.proposed;
  return { form: row.form, lemma, decision: lemma === row.form ? "kept" : "accepted" };
}

/** Accept the proposal for every form not reviewed yet (one transaction). Returns how many. */
export function acceptAllProposals(db: Db, actor: Actor, projectId: number, opts: { changedOnly?: boolean } = {}): number {
  return decideLemmasWhere(db, actor, projectId, { decision: "accepted", open: true, changedOnly: opts.changedOnly });
}

export interface LemmaFilter {
  /** What to record for every form the filter keeps: the proposal, or the form as typed. */
  decision: "accepted" | "kept";
  /** Only forms given under this PoS (n, v, a, r). */
  pos?: string;
  /** Only forms without a decision. */
  open?: boolean;
  /** Only forms the lemmatiser would change. */
  changedOnly?: boolean;
}

/**
 * Accept the proposal for, or keep as typed, every form the filter keeps, in
 * one transaction (`lexgold lemmas accept|keep --all`). With `pos`, accepting
 * takes the proposal for that PoS. Returns how many forms were decided.
 */
export function decideLemmasWhere(db: Db, actor: Actor, projectId: number, filter: LemmaFilter): number {
  const review = lemmaReview(db, actor, projectId);
  const { language } = requireProject(db, actor, projectId, { coordinator: true });
  if (filter.decision !== "accepted" && filter.decision !== "kept") throw new InputError("The decision is accept or keep.", { decision: "accept or keep" });
  if (filter.pos !== undefined && filter.pos !== "" && !["n", "v", "a", "r"].includes(filter.pos)) {
    throw new InputError(`The PoS is one of n, v, a, r, not "${filter.pos}".`, { pos: "The PoS is one of n, v, a, r." });
  }
  const pos = filter.pos || undefined;
  // A choice between two readings (a participle WordNet also lists as an adjective) is decided one by one: accepting all leaves it open.
  const todo = review.filter(
    (r) => (!filter.open || r.decision === null) && (!filter.changedOnly || r.changed) && (!pos || r.pos.includes(pos)) && !(filter.decision === "accepted" && r.choice),
  );
  const writes = todo.map((r): LemmaWrite => (filter.decision === "kept" ? { form: r.form, lemma: r.form, decision: "kept" } : acceptedFor(r, language, pos)));
  writeLemmaDecisions(db, actorUserId(actor!), projectId, writes);
  return writes.length;
}

export interface LemmaImportReport {
  fileName: string;
  accepted: number;
  kept: number;
  overridden: number;
  reset: number;
  message: string;
}

/** Listed at most per refused file (the rest are counted). */
const MAX_LISTED = 50;

/**
 * Record a TSV of decisions (`form<TAB>accept|keep|reset|LEMMA`, see
 * lib/lexsub/formats/lemma-decisions.ts) in one transaction. Every line is
 * checked first, including that someone typed the form in this project; any
 * bad line refuses the whole file, each named with its number, nothing written.
 */
export function importLemmaDecisions(db: Db, actor: Actor, projectId: number, input: { fileName: string; text: string }): LemmaImportReport {
  const { language } = requireProject(db, actor, projectId, { coordinator: true });
  const { fileName, text } = input;
  const parsed = parseLemmaDecisionsTsv(text, fileName, language);
  const problems = [...parsed.diagnostics];
  const review = new Map(lemmaReview(db, actor, projectId).map((r) => [r.form, r]));
  const writes: LemmaWrite[] = [];
  for (const d of parsed.decisions) {
    const row = review.get(d.form);
    if (!row) {
      problems.push({ severity: "error", file: fileName, line: d.line, message: `no annotator typed "${d.form}" in this project` });
      continue;
    }
    if (d.decision === "accepted") writes.push(acceptedFor(row, language));
    else if (d.decision === "kept") writes.push({ form: d.form, lemma: d.form, decision: "kept" });
    else if (d.decision === "reset") writes.push({ form: d.form, lemma: row.proposed, decision: "reset" });
    else if (d.decision === "overridden") writes.push({ form: d.form, lemma: d.lemma, decision: "overridden" });
  }
  if (hasErrors(problems)) {
    problems.sort((a, b) => a.line - b.line);
    const details = problems.slice(0, MAX_LISTED).map(formatDiagnostic);
    if (problems.length > MAX_LISTED) details.push(`${fileName}: ${problems.length - MAX_LISTED} more problems not listed (${problems.length} in all)`);
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : "";
    throw new InputError(`${details[0]}${more}; nothing was recorded.`, { file: "The file was refused." }, details);
  }
  if (writes.length === 0) throw new InputError(`${fileName}: no decisions in the file; nothing was recorded.`, { file: "The file is empty." });
  writeLemmaDecisions(db, actorUserId(actor!), projectId, writes);
  const n = { accepted: 0, kept: 0, overridden: 0, reset: 0 };
  for (const w of writes) n[w.decision]++;
  const parts = (Object.keys(n) as (keyof typeof n)[]).filter((k) => n[k] > 0).map((k) => `${n[k]} ${k}`);
  return { fileName, ...n, message: `${fileName}: recorded ${writes.length} decision${writes.length === 1 ? "" : "s"} (${parts.join(", ")}).` };
}

function findInstance(db: Db, projectId: number, instanceId: string) {
  const row = db
    .select({ id: instances.id, lexelt: lexelts.item, excludedReason: instances.excludedReason, correctedPos: instances.correctedPos })
    .from(instances)
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .where(and(eq(instances.projectId, projectId), eq(instances.instanceId, instanceId)))
    .get();
  if (!row) throw new NotFoundError(`No instance ${instanceId} in this project.`);
  return row;
}

const reasonSchema = z
  .string()
  .transform(collapseSpace)
  .pipe(z.string().min(1, "Say why the instance is excluded.").max(300, "At most 300 characters."));

/** Exclude an instance from the gold and agreement with a reason; `null` puts it back. */
export function setExclusion(db: Db, actor: Actor, projectId: number, instanceId: string, reason: unknown): string | null {
  requireProject(db, actor, projectId, { coordinator: true });
  const inst = findInstance(db, projectId, String(instanceId));
  const value = reason === null ? null : parseOrThrow(reasonSchema, reason, "reason");
  const userId = actorUserId(actor!);
  db.transaction((tx) => {
    tx.update(instances).set({ excludedReason: value }).where(eq(instances.id, inst.id)).run();
    tx.insert(goldReviewLog).values({ projectId, kind: "exclusion", target: String(instanceId), value, userId, at: new Date() }).run();
  });
  return value;
}

/**
 * Correct an instance's PoS (n, v, a, r): its gold line is then written under
 * `lemma.ori_pos.pos` (stand.n → stand.n.v) and lemmatised with the new PoS.
 * `null`, or the lexelt's own PoS, removes the correction.
 */
export function setCorrectedPos(db: Db, actor: Actor, projectId: number, instanceId: string, pos: unknown): string | null {
  requireProject(db, actor, projectId, { coordinator: true });
  const inst = findInstance(db, projectId, String(instanceId));
  let value: string | null = null;
  if (pos !== null && pos !== "") {
    if (typeof pos !== "string" || !["n", "v", "a", "r"].includes(pos))
      throw new InputError("The PoS is one of n, v, a, r.", { pos: "The PoS is one of n, v, a, r." });
    const item = correctedItem(inst.lexelt, pos);
    if (item === null) throw new InputError(`Cannot correct the PoS of ${inst.lexelt}.`, { pos: `Cannot correct the PoS of ${inst.lexelt}.` });
    value = item === inst.lexelt ? null : pos;
  }
  const userId = actorUserId(actor!);
  db.transaction((tx) => {
    tx.update(instances).set({ correctedPos: value }).where(eq(instances.id, inst.id)).run();
    tx.insert(goldReviewLog).values({ projectId, kind: "pos", target: String(instanceId), value, userId, at: new Date() }).run();
  });
  return value;
}

type ReviewLogKind = (typeof goldReviewLog.$inferSelect)["kind"];

export interface ReviewLogEntry {
  kind: ReviewLogKind;
  target: string;
  value: string | null;
  by: string | null;
  at: Date;
}

/** The review's history, newest first. */
export function goldReviewHistory(db: Db, actor: Actor, projectId: number, limit = 200): ReviewLogEntry[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return db
    .select({ kind: goldReviewLog.kind, target: goldReviewLog.target, value: goldReviewLog.value, by: users.name, at: goldReviewLog.at })
    .from(goldReviewLog)
    .leftJoin(users, eq(users.id, goldReviewLog.userId))
    .where(eq(goldReviewLog.projectId, projectId))
    .orderBy(desc(goldReviewLog.id))
    .limit(limit)
    .all();
}
