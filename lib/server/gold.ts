/**
 * Gold construction for a project (issue #5): the coordinator's lemma review,
 * exclusions and PoS corrections, and the gold, mwgold and agreement derived
 * from the stored responses through them. Coordinators of the project only.
 *
 * The derivation itself is pure (lib/lexsub/gold.ts, lib/lexsub/agreement.ts);
 * this module loads its inputs, records decisions (with who and when, in one
 * transaction with an append-only log row) and checks who asks.
 */
import "server-only";
import { and, asc, desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { goldReviewLog, instances, lemmaOverrides, lexelts, users } from "../../db/schema";
import { type AgreementOptions, type AgreementReport, computeAgreement } from "../lexsub/agreement";
import { type GoldResult, correctedItem, deriveGold, formatGold, formatMwGold } from "../lexsub/gold";
import {
  type LemmaDecision,
  type LemmaReviewRow,
  buildLemmaReview,
  collapseSpace,
  lemmaTable,
  normaliseForm,
  proposeLemma,
} from "../lexsub/normalize";
import { type AnnotatorResponse } from "../lexsub/types";
import { type Actor, type ProjectRow, actorUserId, requireProject } from "./actor";
import { InputError, NotFoundError } from "./errors";
import { projectResponseRecords } from "./response-import";
import { parseOrThrow } from "./users";

export interface GoldInputs {
  project: ProjectRow;
  instances: { lexelt: string; instanceId: string; excludedReason: string | null; correctedPos: string | null; head: string }[];
  responses: AnnotatorResponse[];
  lemmaRows: { form: string; lemma: string; decision: LemmaDecision; decidedBy: string | null; decidedAt: Date }[];
}

/** Everything the derivation reads, in corpus order (responses by annotator name within an instance). */
export function goldInputs(db: Db, actor: Actor, projectId: number): GoldInputs {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  return db.transaction(() => {
    const inst = db
      .select({
        lexelt: lexelts.item,
        instanceId: instances.instanceId,
        excludedReason: instances.excludedReason,
        correctedPos: instances.correctedPos,
        // For the multiword rule (the phrase holds the target): see lib/lexsub/gold.ts.
        head: instances.head,
      })
      .from(instances)
      .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
      .where(eq(instances.projectId, projectId))
      .orderBy(asc(lexelts.position), asc(instances.position))
      .all();
    const resp = projectResponseRecords(db, projectId);
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
    return { project, instances: inst, responses: resp, lemmaRows };
  });
}

export interface ProjectGold {
  project: ProjectRow;
  result: GoldResult;
  /** The gold file (best and oot), as the official gold.trial is written. */
  gold: string;
  /** The mwgold file. */
  mwgold: string;
}

function derive(inputs: GoldInputs): GoldResult {
  return deriveGold(inputs.instances, inputs.responses, { lemmaTable: lemmaTable(inputs.lemmaRows) });
}

/** The project's gold and mwgold, derived now from the stored responses and the review. */
export function projectGold(db: Db, actor: Actor, projectId: number): ProjectGold {
  const inputs = goldInputs(db, actor, projectId);
  const result = derive(inputs);
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
  const gold = derive(inputs);
  return { project: inputs.project, gold, agreement: computeAgreement(gold.items, options) };
}

export interface LemmaReviewEntry extends LemmaReviewRow {
  decidedBy: string | null;
  decidedAt: Date | null;
}

/** The lemma review table: every distinct typed form, changed forms first, then by frequency. */
export function lemmaReview(db: Db, actor: Actor, projectId: number): LemmaReviewEntry[] {
  const inputs = goldInputs(db, actor, projectId);
  const byForm = new Map(inputs.lemmaRows.map((r) => [normaliseForm(r.form), r]));
  return buildLemmaReview(inputs.responses, undefined, lemmaTable(inputs.lemmaRows)).map((row) => {
    const d = byForm.get(row.form);
    return { ...row, decidedBy: d?.decidedBy ?? null, decidedAt: d?.decidedAt ?? null };
  });
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
          .max(80, "At most 80 characters.")
          .refine((s) => !s.includes(";"), "A lemma cannot hold ';' (the gold file's separator)."),
      ),
  }),
  z.object({ form: z.string(), decision: z.literal("reset") }),
]);

export type LemmaDecisionInput = z.input<typeof lemmaDecisionSchema>;

/**
 * Record the coordinator's decision for a typed form: accept the proposal (for
 * the PoS given, else the form's most frequent one), override it with another
 * lemma, keep the form as typed, or reset to unreviewed. Returns the lemma the
 * gold now records for the form.
 */
export function decideLemma(db: Db, actor: Actor, projectId: number, input: unknown): { form: string; lemma: string; decision: LemmaDecision | null } {
  requireProject(db, actor, projectId, { coordinator: true });
  const d = parseOrThrow(lemmaDecisionSchema, input, "lemma decision");
  const form = normaliseForm(d.form);
  if (form === "") throw new InputError("Give the form.", { form: "Give the form." });
  const review = lemmaReview(db, actor, projectId);
  const row = review.find((r) => r.form === form);
  if (!row) throw new NotFoundError(`No annotator typed "${form}" in this project.`);
  let lemma: string;
  if (d.decision === "accepted") {
    lemma = d.pos ? (row.proposals?.find((p) => p.pos === d.pos)?.proposed ?? proposeLemma(form, d.pos)) : row.proposed;
  } else if (d.decision === "kept") lemma = form;
  else if (d.decision === "overridden") lemma = d.lemma;
  else lemma = row.proposed;
  const userId = actorUserId(actor!);
  const now = new Date();
  db.transaction((tx) => {
    if (d.decision === "reset") {
      tx.delete(lemmaOverrides).where(and(eq(lemmaOverrides.projectId, projectId), eq(lemmaOverrides.form, form))).run();
    } else {
      const values = { projectId, form, lemma, decision: d.decision, decidedBy: userId, decidedAt: now };
      tx.insert(lemmaOverrides)
        .values(values)
        .onConflictDoUpdate({ target: [lemmaOverrides.projectId, lemmaOverrides.form], set: { lemma, decision: d.decision, decidedBy: userId, decidedAt: now } })
        .run();
    }
    tx.insert(goldReviewLog)
      .values({
        projectId,
        kind: "lemma",
        target: form,
        value: d.decision === "reset" ? null : JSON.stringify({ lemma, decision: d.decision }),
        userId,
        at: now,
      })
      .run();
  });
  return { form, lemma, decision: d.decision === "reset" ? null : d.decision };
}

/** Accept the proposal for every form not reviewed yet (one transaction). Returns how many. */
export function acceptAllProposals(db: Db, actor: Actor, projectId: number, opts: { changedOnly?: boolean } = {}): number {
  const review = lemmaReview(db, actor, projectId);
  const userId = actorUserId(actor!);
  const now = new Date();
  const todo = review.filter((r) => r.decision === null && (!opts.changedOnly || r.changed));
  db.transaction((tx) => {
    for (const r of todo) {
      const decision: LemmaDecision = r.proposed === r.form ? "kept" : "accepted";
      tx.insert(lemmaOverrides).values({ projectId, form: r.form, lemma: r.proposed, decision, decidedBy: userId, decidedAt: now }).run();
      tx.insert(goldReviewLog)
        .values({ projectId, kind: "lemma", target: r.form, value: JSON.stringify({ lemma: r.proposed, decision }), userId, at: now })
        .run();
    }
  });
  return todo.length;
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

export interface ReviewLogEntry {
  kind: "lemma" | "exclusion" | "pos";
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
