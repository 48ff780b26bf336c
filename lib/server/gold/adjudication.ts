/**
 * Per-response adjudication and the reviewed mark (issue #15). The coordinator
 * strikes or corrects one substitute of one annotator's response, strikes the
 * whole response, or decides its multiword phrase (corrects it, says the target is
 * not part of a multiword, or adopts one phrase for every response that gave a
 * different one: adoptMultiword); the response is never changed (the decision is a row of
 * `adjudications`, applied by the gold derivation through
 * lib/lexsub/adjudication.ts). Undo marks the decision inactive and logs a row;
 * nothing is deleted. Marking an instance reviewed (and un-marking it) is logged
 * the same way. Coordinators of the project only; every write is one
 * transaction with its gold_review_log row; the data_versions triggers raise the
 * project's data version in that transaction (lib/server/kernel/data-version.ts).
 */
import "server-only";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { adjudications, goldReviewLog, instances, lexelts, responses, users } from "../../../db/schema";
import { type AdjudicationAction, type AdjudicationDecision } from "../../lexsub/adjudication";
import { phraseBreak, substituteBreak, targetBreak, tidy } from "../../lexsub/substitute-rules";
import { parseLexeltItem } from "../../lexsub/types";
import { type Actor, actorUserId, requireProject } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";
import { collapseSpace } from "../../lexsub/normalize";
import { foldCase } from "../../lexsub/language";
import { parseOrThrow } from "../kernel/validate";

/** A decision as the Gold tab and the exports show it. */
export interface AdjudicationRecord extends AdjudicationDecision {
  reason: string;
  revision: number;
  decidedBy: string | null;
  decidedAt: Date;
  undoneBy: string | null;
  undoneAt: Date | null;
}

const reasonSchema = z
  .string()
  .optional()
  .transform((s) => collapseSpace(s ?? ""))
  .pipe(z.string().max(300, "At most 300 characters."));

const inputSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("strike"),
    instanceId: z.string().min(1, "Give the instance."),
    annotator: z.string().min(1, "Give the annotator."),
    substitute: z.string().min(1, "Give the substitute to strike."),
    reason: reasonSchema,
  }),
  z.object({
    action: z.literal("correct"),
    instanceId: z.string().min(1, "Give the instance."),
    annotator: z.string().min(1, "Give the annotator."),
    substitute: z.string().min(1, "Give the substitute to correct."),
    value: z.string().transform(tidy).pipe(z.string().min(1, "Type the corrected substitute.")),
    reason: reasonSchema,
  }),
  z.object({
    action: z.literal("strike-response"),
    instanceId: z.string().min(1, "Give the instance."),
    annotator: z.string().min(1, "Give the annotator."),
    reason: reasonSchema,
  }),
  z.object({
    action: z.literal("multiword"),
    instanceId: z.string().min(1, "Give the instance."),
    annotator: z.string().min(1, "Give the annotator."),
    /** The phrase as the annotator typed it. */
    substitute: z.string().min(1, "Give the phrase to decide."),
    /** The corrected phrase; null: the target is not part of a multiword. */
    value: z.string().transform(tidy).pipe(z.string().min(1, "Type the corrected phrase.")).nullable(),
    reason: reasonSchema,
  }),
]);

const adoptSchema = z.object({
  instanceId: z.string().min(1, "Give the instance."),
  phrase: z.string().transform(tidy).pipe(z.string().min(1, "Give the phrase to use.")),
  reason: reasonSchema,
});

type Inst = ReturnType<typeof findInstance>;

/** The first rule a corrected phrase breaks (as the workspace checks a typed one), or null. */
function phraseProblem(inst: Inst, language: string, phrase: string): string | null {
  const lemma = parseLexeltItem(inst.lexelt)?.lemma ?? inst.lemma;
  return phraseBreak(phrase, { lemma, head: inst.head, language })?.message ?? null;
}

function findInstance(db: Db, projectId: number, instanceId: string) {
  const row = db
    .select({ id: instances.id, instanceId: instances.instanceId, head: instances.head, lexelt: lexelts.item, lemma: lexelts.lemma, reviewedAt: instances.reviewedAt })
    .from(instances)
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .where(and(eq(instances.projectId, projectId), eq(instances.instanceId, instanceId)))
    .get();
  if (!row) throw new NotFoundError(`No instance ${instanceId} in this project.`);
  return row;
}

/**
 * Strike or correct one substitute of one annotator's response, or strike the
 * whole response. The substitute is named as the annotator typed it; a
 * correction obeys the rules of an answer (lib/lexsub/substitute-rules.ts: the
 * characters the scorer reads back, not the target word, not a repeat of
 * another substitute of the response). A substitute (or response) with an
 * active decision is refused: undo that one first.
 */
export function adjudicate(db: Db, actor: Actor, projectId: number, input: unknown): AdjudicationRecord {
  const { language } = requireProject(db, actor, projectId, { coordinator: true });
  const d = parseOrThrow(inputSchema, input, "adjudication");
  // The checks and the write in one transaction: no second decision can slip in between.
  return db.transaction(() => decideInTransaction(db, actor!, projectId, language, d));
}

function decideInTransaction(db: Db, actor: NonNullable<Actor>, projectId: number, language: string, d: z.output<typeof inputSchema>): AdjudicationRecord {
  const inst = findInstance(db, projectId, d.instanceId);
  const annotator = db.select({ id: users.id, name: users.name }).from(users).where(eq(users.name, d.annotator)).get();
  const resp = annotator
    ? db
        .select({ kind: responses.kind, substitutes: responses.substitutes, multiword: responses.multiword, revision: responses.revision })
        .from(responses)
        .where(and(eq(responses.instanceRef, inst.id), eq(responses.userId, annotator.id), eq(responses.projectId, projectId)))
        .get()
    : undefined;
  if (!annotator || !resp) throw new NotFoundError(`${d.annotator} has no response to ${d.instanceId}.`);
  const typed = JSON.parse(resp.substitutes) as string[];
  const active = db
    .select({ id: adjudications.id, action: adjudications.action, substitute: adjudications.substitute })
    .from(adjudications)
    .where(and(eq(adjudications.instanceRef, inst.id), eq(adjudications.annotatorId, annotator.id), isNull(adjudications.undoneAt)))
    .all();
  let substitute: string | null = null;
  let value: string | null = null;
  if (d.action === "multiword") {
    const typedPhrase = resp.multiword ? tidy(resp.multiword) : "";
    if (typedPhrase === "") throw new InputError(`${d.annotator} gave no multiword phrase for ${d.instanceId}.`, { substitute: "No multiword phrase in this response." });
    if (typedPhrase !== tidy(d.substitute)) {
      throw new InputError(`${d.annotator}'s multiword phrase for ${d.instanceId} is "${typedPhrase}", not "${tidy(d.substitute)}".`, { substitute: "Not the phrase of this response." });
    }
    if (active.some((a) => a.action === "multiword")) {
      throw new InputError(`${d.annotator}'s multiword phrase for ${d.instanceId} has a decision already: undo it first.`, { value: "Decided already: undo that first." });
    }
    substitute = resp.multiword;
    value = d.value;
    if (value !== null) {
      const broken = phraseProblem(inst, language, value);
      if (broken) throw new InputError(`The phrase "${value}": ${broken}`, { value: broken });
      if (value === typedPhrase) throw new InputError("The correction is the phrase as typed.", { value: "The correction is the phrase as typed." });
    }
  } else if (d.action === "strike-response") {
    if (active.some((a) => a.action === "strike-response")) {
      throw new InputError(`${d.annotator}'s response to ${d.instanceId} is struck already.`, { form: "Struck already: undo that first." });
    }
  } else {
    const at = typed.findIndex((s) => tidy(s) === tidy(d.substitute));
    if (at < 0) {
      throw new InputError(`${d.annotator} did not give "${tidy(d.substitute)}" for ${d.instanceId}.`, { substitute: "Not a substitute of this response." });
    }
    substitute = typed[at];
    if (active.some((a) => a.substitute !== null && tidy(a.substitute) === tidy(substitute!))) {
      throw new InputError(`"${tidy(substitute)}" of ${d.annotator} on ${d.instanceId} has a decision already: undo it first.`, {
        substitute: "Decided already: undo that first.",
      });
    }
    if (d.action === "correct") {
      value = d.value;
      const lemma = parseLexeltItem(inst.lexelt)?.lemma ?? inst.lemma;
      const broken = substituteBreak(value) ?? targetBreak(value, { lemma, head: inst.head, language });
      if (broken) throw new InputError(`The correction "${value}": ${broken.message}`, { value: broken.message });
      if (value === tidy(substitute)) throw new InputError("The correction is the substitute as typed.", { value: "The correction is the substitute as typed." });
      const other = typed.find((s, k) => k !== at && foldCase(tidy(s), language) === foldCase(value!, language));
      if (other !== undefined) throw new InputError(`"${value}" is another substitute of this response already; strike this one instead.`, { value: "Another substitute of this response already." });
    }
  }
  return insertDecision(db, actor, projectId, { inst, annotatorId: annotator.id, annotator: d.annotator, action: d.action, substitute, value, reason: d.reason, revision: resp.revision });
}

/** Write one decision and its log row (inside the caller's transaction). */
function insertDecision(
  db: Db,
  actor: NonNullable<Actor>,
  projectId: number,
  d: { inst: Inst; annotatorId: number; annotator: string; action: AdjudicationAction; substitute: string | null; value: string | null; reason: string; revision: number },
): AdjudicationRecord {
  const userId = actorUserId(actor);
  const now = new Date();
  const row = db
    .insert(adjudications)
    .values({
      projectId,
      instanceRef: d.inst.id,
      annotatorId: d.annotatorId,
      action: d.action,
      substitute: d.substitute,
      value: d.value,
      reason: d.reason,
      revision: d.revision,
      decidedBy: userId,
      decidedAt: now,
    })
    .returning({ id: adjudications.id })
    .get();
  db.insert(goldReviewLog)
    .values({
      projectId,
      kind: d.action,
      target: d.inst.instanceId,
      value: JSON.stringify({ id: row.id, annotator: d.annotator, substitute: d.substitute, value: d.value, reason: d.reason }),
      userId,
      at: now,
    })
    .run();
  return {
    id: row.id,
    instanceId: d.inst.instanceId,
    annotator: d.annotator,
    action: d.action,
    substitute: d.substitute,
    value: d.value,
    reason: d.reason,
    revision: d.revision,
    decidedBy: actor.kind === "user" ? actor.name : null,
    decidedAt: now,
    undoneBy: null,
    undoneAt: null,
  };
}

/**
 * Adopt one multiword phrase for the instance: a multiword decision (correct to
 * `phrase`) for every response that gave a different phrase, each recorded and
 * undoable on its own, in one transaction. Responses without a phrase are left as
 * they are (a decision corrects what an annotator said; it does not make up a
 * multiword for one who said the target stands alone), as are struck responses
 * and phrases with a decision already (undo those first). Refused when that
 * leaves nothing to decide.
 */
export function adoptMultiword(db: Db, actor: Actor, projectId: number, input: unknown): { decided: AdjudicationRecord[]; skipped: string[] } {
  const { language } = requireProject(db, actor, projectId, { coordinator: true });
  const d = parseOrThrow(adoptSchema, input, "adjudication");
  return db.transaction(() => {
    const inst = findInstance(db, projectId, d.instanceId);
    const broken = phraseProblem(inst, language, d.phrase);
    if (broken) throw new InputError(`The phrase "${d.phrase}": ${broken}`, { phrase: broken });
    const rows = db
      .select({ userId: users.id, name: users.name, multiword: responses.multiword, revision: responses.revision })
      .from(responses)
      .innerJoin(users, eq(users.id, responses.userId))
      .where(and(eq(responses.instanceRef, inst.id), eq(responses.projectId, projectId)))
      .orderBy(asc(users.name))
      .all();
    const active = db
      .select({ annotatorId: adjudications.annotatorId, action: adjudications.action })
      .from(adjudications)
      .where(and(eq(adjudications.instanceRef, inst.id), isNull(adjudications.undoneAt)))
      .all();
    const blocked = (id: number, action: AdjudicationAction) => active.some((a) => a.annotatorId === id && a.action === action);
    const decided: AdjudicationRecord[] = [];
    const skipped: string[] = [];
    for (const r of rows) {
      const typedPhrase = r.multiword ? tidy(r.multiword) : "";
      if (typedPhrase === "" || typedPhrase === d.phrase || blocked(r.userId, "strike-response")) continue;
      if (blocked(r.userId, "multiword")) {
        skipped.push(r.name);
        continue;
      }
      decided.push(insertDecision(db, actor!, projectId, { inst, annotatorId: r.userId, annotator: r.name, action: "multiword", substitute: r.multiword, value: d.phrase, reason: d.reason, revision: r.revision }));
    }
    if (decided.length === 0) {
      const why = skipped.length > 0 ? `the other phrases have a decision already (${skipped.join(", ")}): undo those first` : `every phrase given is "${d.phrase}" already`;
      throw new InputError(`Nothing to decide on ${d.instanceId}: ${why}.`, { phrase: "Nothing to decide." });
    }
    return { decided, skipped };
  });
}

/** Undo an active decision: it stays recorded, inactive, with who undid it and when (and a log row). */
export function undoAdjudication(db: Db, actor: Actor, projectId: number, adjudicationId: unknown): AdjudicationRecord {
  requireProject(db, actor, projectId, { coordinator: true });
  const id = Number(adjudicationId);
  if (!Number.isInteger(id) || id <= 0) throw new InputError("Give the decision to undo.", { id: "Give the decision to undo." });
  const userId = actorUserId(actor!);
  const now = new Date();
  // The check and the write in one transaction: a decision is undone once.
  return db.transaction(() => {
    const rec = loadRecords(db, projectId, { id })[0];
    if (!rec) throw new NotFoundError("No such decision in this project.");
    if (rec.undoneAt !== null) throw new InputError("That decision is undone already.", { id: "Undone already." });
    db.update(adjudications).set({ undoneAt: now, undoneBy: userId }).where(eq(adjudications.id, id)).run();
    db.insert(goldReviewLog)
      .values({
        projectId,
        kind: "undo",
        target: rec.instanceId,
        value: JSON.stringify({ id, action: rec.action, annotator: rec.annotator, substitute: rec.substitute, value: rec.value }),
        userId,
        at: now,
      })
      .run();
    return { ...rec, undoneAt: now, undoneBy: actor!.kind === "user" ? actor!.name : null };
  });
}

/** Mark an instance reviewed (true) or not (false), with who and when; logged. Returns the state now. */
export function setReviewed(db: Db, actor: Actor, projectId: number, instanceId: string, reviewed: boolean): { reviewed: boolean } {
  requireProject(db, actor, projectId, { coordinator: true });
  const inst = findInstance(db, projectId, String(instanceId));
  if (typeof reviewed !== "boolean") throw new InputError("Say whether the instance is reviewed.", { reviewed: "true or false" });
  const userId = actorUserId(actor!);
  const now = new Date();
  db.transaction(() => {
    db.update(instances)
      .set(reviewed ? { reviewedAt: now, reviewedBy: userId } : { reviewedAt: null, reviewedBy: null })
      .where(eq(instances.id, inst.id))
      .run();
    db.insert(goldReviewLog).values({ projectId, kind: "reviewed", target: inst.instanceId, value: reviewed ? "reviewed" : null, userId, at: now }).run();
  });
  return { reviewed };
}

/** The decisions of one instance (active and undone, oldest first), for the Gold tab. */
export function instanceAdjudications(db: Db, actor: Actor, projectId: number, instanceId: string): AdjudicationRecord[] {
  requireProject(db, actor, projectId, { coordinator: true });
  const inst = findInstance(db, projectId, String(instanceId));
  return loadRecords(db, projectId, { instanceRefs: [inst.id] });
}

const decider = alias(users, "decider");
const undoer = alias(users, "undoer");

/**
 * Decisions of a project, for callers that have checked the actor: the active
 * ones (`activeOnly`), those of some instances, or one by id; oldest first.
 */
export function loadRecords(db: Db, projectId: number, opts: { activeOnly?: boolean; instanceRefs?: readonly number[]; id?: number } = {}): AdjudicationRecord[] {
  const conds = [eq(adjudications.projectId, projectId)];
  if (opts.activeOnly) conds.push(isNull(adjudications.undoneAt));
  if (opts.id !== undefined) conds.push(eq(adjudications.id, opts.id));
  if (opts.instanceRefs) {
    if (opts.instanceRefs.length === 0) return [];
    conds.push(inArray(adjudications.instanceRef, [...opts.instanceRefs]));
  }
  return db
    .select({
      id: adjudications.id,
      instanceId: instances.instanceId,
      annotator: users.name,
      action: adjudications.action,
      substitute: adjudications.substitute,
      value: adjudications.value,
      reason: adjudications.reason,
      revision: adjudications.revision,
      decidedBy: decider.name,
      decidedAt: adjudications.decidedAt,
      undoneBy: undoer.name,
      undoneAt: adjudications.undoneAt,
    })
    .from(adjudications)
    .innerJoin(instances, eq(instances.id, adjudications.instanceRef))
    .innerJoin(users, eq(users.id, adjudications.annotatorId))
    .leftJoin(decider, eq(decider.id, adjudications.decidedBy))
    .leftJoin(undoer, eq(undoer.id, adjudications.undoneBy))
    .where(and(...conds))
    .orderBy(asc(adjudications.id))
    .all()
    .map((r) => ({ ...r, action: r.action as AdjudicationAction }));
}
