/**
 * Training and checks (issue #15): known-answer instances, the training phase,
 * attention checks and their report, per-lexelt notes.
 *
 * - known_answers holds one row per known-answer instance (role training or
 *   check, accepted substitutes); it is small and keyed by instance, and the
 *   queue (lib/server/annotate/queue.ts) never reads it, so a save costs what it did.
 *   Training items leave the annotators' queue unless the project keeps them in
 *   (projects.training_in_queue): every change to the training items or to that
 *   setting calls syncTrainingQueue in its transaction, which moves them and
 *   recounts the queue's counters.
 * - Training: an annotator of a project with training required answers the
 *   training items (in training_answers, never in responses, so never in gold or
 *   agreement) with feedback after each; an attempt is scored when every item is
 *   answered (lib/lexsub/known-answers.ts defines the measure) and passes at the
 *   project's threshold. Until one attempt passed, workspace and saveResponse
 *   refuse real instances (requireTrainingPassed in lib/server/annotate/training-gate.ts, one indexed lookup).
 * - Attention checks are instances of the queue like any other (nothing tells the
 *   annotator); their responses are judged against the accepted substitutes for
 *   the report, and the gold derivation leaves them out (lib/server/gold/gold.ts).
 *
 * Every function checks who asks: coordinators of the project for set-up and
 * reports, the signed-in annotator for their own training.
 */
import "server-only";
import { and, asc, count, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { instances, knownAnswers, lexelts, projects, responses, trainingAnswers, trainingAttempts, users } from "../../../db/schema";
import { judgeAnswer, parseAcceptedList, passes, trainingScore } from "../../lexsub/known-answers";
import { PN } from "../../lexsub/gold";
import { restoreCell } from "../../lexsub/formats/spreadsheet";
import { type Actor, type UserActor, actorUserId, requireProject, requireSignedIn } from "../kernel/actor";
import { AuthError, InputError, NotFoundError } from "../kernel/errors";
import { screenOutOnFail, syncTrainingQueue, trainingPending } from "../annotate";
import { containsText } from "../kernel/search";
import { lemmaProposer, projectGold } from "../gold";
import { parseOrThrow } from "../kernel/validate";

type KnownRole = "training" | "check";

export interface QualitySettings {
  trainingRequired: boolean;
  /** Training items stay in the annotators' queue (default: left out of it). */
  trainingInQueue: boolean;
  trainingThreshold: number;
  speedThresholdSeconds: number;
}

export interface KnownItem {
  ref: number;
  instanceId: string;
  lexelt: string;
  role: KnownRole;
  accepted: string[];
}

function settingsOf(db: Db, projectId: number): QualitySettings {
  const r = db
    .select({ trainingRequired: projects.trainingRequired, trainingInQueue: projects.trainingInQueue, trainingThreshold: projects.trainingThreshold, speed: projects.speedThresholdMs })
    .from(projects)
    .where(eq(projects.id, projectId))
    .get()!;
  return { trainingRequired: r.trainingRequired, trainingInQueue: r.trainingInQueue, trainingThreshold: r.trainingThreshold, speedThresholdSeconds: r.speed / 1000 };
}

/** The project's training and check settings (coordinators; the Progress tab reads the speed threshold). */
export function qualitySettings(db: Db, actor: Actor, projectId: number): QualitySettings {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  return settingsOf(db, p.id);
}

const settingsSchema = z.object({
  trainingRequired: z.boolean({ message: "Training required is yes or no." }),
  /** Left out: unchanged. */
  trainingInQueue: z.boolean({ message: "Training items in the queue is yes or no." }).optional(),
  trainingThreshold: z.coerce
    .number({ message: "The pass mark must be a number." })
    .int("The pass mark is a whole percent.")
    .min(0, "The pass mark is between 0 and 100 %.")
    .max(100, "The pass mark is between 0 and 100 %."),
  speedThresholdSeconds: z.coerce
    .number({ message: "The speed threshold must be a number of seconds." })
    .min(0, "The speed threshold cannot be negative.")
    .max(600, "The speed threshold is at most 600 s."),
});

export function setQualitySettings(db: Db, actor: Actor, projectId: number, input: unknown): QualitySettings {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const v = parseOrThrow(settingsSchema, input, "Settings not saved");
  db.transaction(() => {
    db.update(projects)
      .set({
        trainingRequired: v.trainingRequired,
        trainingThreshold: v.trainingThreshold,
        speedThresholdMs: Math.round(v.speedThresholdSeconds * 1000),
        ...(v.trainingInQueue === undefined ? {} : { trainingInQueue: v.trainingInQueue }),
      })
      .where(eq(projects.id, p.id))
      .run();
    syncTrainingQueue(db, p.id);
  });
  return settingsOf(db, p.id);
}

function listKnown(db: Db, projectId: number, role?: KnownRole): KnownItem[] {
  return db
    .select({ ref: instances.id, instanceId: instances.instanceId, lexelt: lexelts.item, role: knownAnswers.role, accepted: knownAnswers.accepted })
    .from(knownAnswers)
    .innerJoin(instances, eq(instances.id, knownAnswers.instanceRef))
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .where(role ? and(eq(knownAnswers.projectId, projectId), eq(knownAnswers.role, role)) : eq(knownAnswers.projectId, projectId))
    .orderBy(asc(lexelts.position), asc(instances.position))
    .all()
    .map((r) => ({ ...r, accepted: JSON.parse(r.accepted) as string[] }));
}

/** The known-answer items of the project (coordinators). */
export function knownAnswerItems(db: Db, actor: Actor, projectId: number): KnownItem[] {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  return listKnown(db, p.id);
}

const roleSchema = z.enum(["training", "check"], { message: "Choose training item or attention check." });

function instanceByKey(db: Db, projectId: number, instanceId: string) {
  return db
    .select({ ref: instances.id })
    .from(instances)
    .where(and(eq(instances.projectId, projectId), eq(instances.instanceId, instanceId)))
    .get();
}

function writeKnown(db: Db, projectId: number, ref: number, role: KnownRole, accepted: string[], by: number | null) {
  db.insert(knownAnswers)
    .values({ instanceRef: ref, projectId, role, accepted: JSON.stringify(accepted), setBy: by, setAt: new Date() })
    .onConflictDoUpdate({ target: knownAnswers.instanceRef, set: { role, accepted: JSON.stringify(accepted), setBy: by, setAt: new Date() } })
    .run();
}

/** Mark one instance (by its id in the file) as a training item or check with these accepted substitutes (`a;b;c`). */
export function setKnownAnswer(db: Db, actor: Actor, projectId: number, input: { instanceId: unknown; role: unknown; accepted: unknown }): KnownItem {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const a = requireSignedIn(actor);
  const role = parseOrThrow(roleSchema, input.role, "Not saved");
  const instanceId = typeof input.instanceId === "string" ? input.instanceId.trim() : "";
  const inst = instanceId === "" ? undefined : instanceByKey(db, p.id, instanceId);
  if (!inst) throw new InputError(`Not saved: no instance "${instanceId}" in this project.`, { instanceId: "No such instance in this project." });
  const accepted = parseAcceptedList(typeof input.accepted === "string" ? input.accepted : "");
  if (accepted.length === 0) throw new InputError("Not saved: give at least one accepted substitute (separate them with ;).", { accepted: "Give at least one substitute." });
  db.transaction(() => {
    writeKnown(db, p.id, inst.ref, role, accepted, actorUserId(a));
    syncTrainingQueue(db, p.id);
  });
  return listKnown(db, p.id).find((k) => k.ref === inst.ref)!;
}

/** Unmark a known-answer instance (it becomes an ordinary instance again). */
export function removeKnownAnswer(db: Db, actor: Actor, projectId: number, instanceId: unknown): boolean {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const inst = typeof instanceId === "string" ? instanceByKey(db, p.id, instanceId) : undefined;
  if (!inst) throw new NotFoundError("No such instance in this project.");
  return db.transaction(() => {
    const removed = db.delete(knownAnswers).where(and(eq(knownAnswers.instanceRef, inst.ref), eq(knownAnswers.projectId, p.id))).run().changes > 0;
    syncTrainingQueue(db, p.id);
    return removed;
  });
}

/**
 * Upload `instance_id<TAB>sub1;sub2;…` lines (blank lines and lines starting with
 * # skipped) as items of one role. All or nothing: any bad line names its line
 * and nothing is written; the good file is written in one transaction.
 */
export function importKnownAnswers(db: Db, actor: Actor, projectId: number, input: { role: unknown; fileName: string; text: string }): { added: number } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const a = requireSignedIn(actor);
  const role = parseOrThrow(roleSchema, input.role, "Nothing imported");
  const problems: string[] = [];
  const rows: { ref: number; accepted: string[] }[] = [];
  const seen = new Map<string, number>();
  input.text.split(/\r?\n/).forEach((line, i) => {
    const n = i + 1;
    if (line.trim() === "" || line.startsWith("#")) return;
    // Cells written neutralised for spreadsheets (a leading apostrophe: lib/lexsub/formats/spreadsheet.ts) read as their value.
    const cells = line.split("\t").map(restoreCell);
    if (cells.length !== 2) {
      problems.push(`${input.fileName} line ${n}: expected instance_id<TAB>sub1;sub2;… (2 columns), found ${cells.length}.`);
      return;
    }
    const id = cells[0].trim();
    const inst = instanceByKey(db, p.id, id);
    if (!inst) return void problems.push(`${input.fileName} line ${n}: no instance "${id}" in this project.`);
    if (seen.has(id)) return void problems.push(`${input.fileName} line ${n}: instance "${id}" already given on line ${seen.get(id)}.`);
    seen.set(id, n);
    const accepted = parseAcceptedList(cells[1]);
    if (accepted.length === 0) return void problems.push(`${input.fileName} line ${n}: no accepted substitute for "${id}".`);
    rows.push({ ref: inst.ref, accepted });
  });
  if (problems.length > 0) throw new InputError(`Nothing imported: ${problems[0]}`, {}, problems);
  if (rows.length === 0) throw new InputError(`Nothing imported: ${input.fileName} has no lines.`);
  db.transaction((tx) => {
    for (const r of rows) writeKnown(tx as unknown as Db, p.id, r.ref, role, r.accepted, actorUserId(a));
    syncTrainingQueue(db, p.id);
  });
  return { added: rows.length };
}

/** Use the current gold of these instances (ids separated by spaces, commas or lines) as their accepted substitutes. */
export function knownAnswersFromGold(db: Db, actor: Actor, projectId: number, input: { role: unknown; instanceIds: unknown }): { added: number } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const a = requireSignedIn(actor);
  const role = parseOrThrow(roleSchema, input.role, "Nothing marked");
  const ids = (typeof input.instanceIds === "string" ? input.instanceIds : "").split(/[\s,]+/).filter((s) => s !== "");
  if (ids.length === 0) throw new InputError("Nothing marked: give the instance ids.", { instanceIds: "Give at least one instance id." });
  const gold = new Map(projectGold(db, a, p.id).result.items.map((it) => [it.instanceId, it]));
  const rows: { ref: number; accepted: string[] }[] = [];
  for (const id of ids) {
    const inst = instanceByKey(db, p.id, id);
    if (!inst) throw new InputError(`Nothing marked: no instance "${id}" in this project.`, { instanceIds: `No instance "${id}".` });
    const accepted = (gold.get(id)?.entries ?? []).map((e) => e.substitute).filter((s) => s !== PN);
    if (accepted.length === 0) throw new InputError(`Nothing marked: instance "${id}" has no gold yet.`, { instanceIds: `"${id}" has no gold yet.` });
    rows.push({ ref: inst.ref, accepted });
  }
  db.transaction((tx) => {
    for (const r of rows) writeKnown(tx as unknown as Db, p.id, r.ref, role, r.accepted, actorUserId(a));
    syncTrainingQueue(db, p.id);
  });
  return { added: rows.length };
}

// ---------------------------------------------------------------------------
// Training, as the annotator sees it

function requireUser(actor: Actor): UserActor {
  const a = requireSignedIn(actor);
  if (a.kind !== "user") throw new AuthError("Only a signed-in user takes the training.");
  return a;
}

export interface TrainingFeedback {
  ref: number;
  answer: string[];
  accepted: string[];
  matched: boolean;
  matchedSubstitutes: string[];
}

export interface TrainingView {
  /** `language`: a BCP 47 tag, the sentence's and the fields' `lang`. */
  project: { id: number; name: string; guidelines: string; language: string };
  required: boolean;
  threshold: number;
  passed: boolean;
  attempt: number;
  total: number;
  /** Answers of the current attempt so far, with feedback, in the order shown. */
  answered: TrainingFeedback[];
  /** The next item to answer, null when the attempt is complete. */
  next: { ref: number; lemma: string; before: string; head: string; after: string; note: string } | null;
  /** When the attempt is complete: its score. */
  score: number | null;
}

function currentAttempt(db: Db, projectId: number, userId: number) {
  return db
    .select()
    .from(trainingAttempts)
    .where(and(eq(trainingAttempts.projectId, projectId), eq(trainingAttempts.userId, userId)))
    .orderBy(desc(trainingAttempts.attempt))
    .limit(1)
    .get();
}

function shuffle<T>(xs: T[]): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function startAttempt(db: Db, projectId: number, userId: number, number: number, order: "same" | "fresh") {
  const items = listKnown(db, projectId, "training").map((k) => k.ref);
  if (items.length === 0) throw new NotFoundError("This project has no training items.");
  const row = { projectId, userId, attempt: number, items: JSON.stringify(order === "fresh" ? shuffle(items) : items), score: null, passed: false, startedAt: new Date() };
  db.insert(trainingAttempts).values(row).run();
  return row;
}

export function trainingView(db: Db, actor: Actor, projectId: number): TrainingView {
  const a = requireUser(actor);
  const p = requireProject(db, a, projectId, { annotate: true });
  const settings = settingsOf(db, p.id);
  const known = new Map(listKnown(db, p.id, "training").map((k) => [k.ref, k]));
  if (known.size === 0) throw new NotFoundError("This project has no training items.");
  const att = db.transaction((tx) => currentAttempt(tx as unknown as Db, p.id, a.userId) ?? startAttempt(tx as unknown as Db, p.id, a.userId, 1, "same"));
  const order = (JSON.parse(att.items) as number[]).filter((r) => known.has(r));
  const given = new Map(
    db
      .select()
      .from(trainingAnswers)
      .where(and(eq(trainingAnswers.projectId, p.id), eq(trainingAnswers.userId, a.userId), eq(trainingAnswers.attempt, att.attempt)))
      .all()
      .map((r) => [r.instanceRef, r]),
  );
  const answered: TrainingFeedback[] = [];
  let nextRef: number | null = null;
  for (const ref of order) {
    const g = given.get(ref);
    if (!g) {
      nextRef ??= ref;
      continue;
    }
    answered.push(feedbackOf(db, p.language, ref, JSON.parse(g.substitutes) as string[], known.get(ref)!.accepted));
  }
  let next: TrainingView["next"] = null;
  if (nextRef !== null) {
    const i = db
      .select({ before: instances.before, head: instances.head, after: instances.after, lemma: lexelts.lemma, note: lexelts.note })
      .from(instances)
      .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
      .where(eq(instances.id, nextRef))
      .get()!;
    next = { ref: nextRef, ...i };
  }
  const passedEver =
    db
      .select({ x: trainingAttempts.attempt })
      .from(trainingAttempts)
      .where(and(eq(trainingAttempts.projectId, p.id), eq(trainingAttempts.userId, a.userId), eq(trainingAttempts.passed, true)))
      .get() !== undefined;
  return {
    project: { id: p.id, name: p.name, guidelines: p.guidelines, language: p.language },
    required: settings.trainingRequired,
    threshold: settings.trainingThreshold,
    passed: passedEver,
    attempt: att.attempt,
    total: order.length,
    answered,
    next,
    score: att.score,
  };
}

function posOf(db: Db, ref: number): string {
  return db.select({ pos: lexelts.pos }).from(instances).innerJoin(lexelts, eq(lexelts.id, instances.lexeltId)).where(eq(instances.id, ref)).get()?.pos ?? "";
}

/** An answer judged against the accepted substitutes, through the project's lemma proposals (WordNet for English only). */
function feedbackOf(db: Db, language: string, ref: number, answer: string[], accepted: string[]): TrainingFeedback {
  const v = judgeAnswer(answer, accepted, posOf(db, ref), lemmaProposer(language));
  return { ref, answer, accepted, ...v };
}

const answerSchema = z
  .array(z.string({ message: "A substitute must be text." }).max(100, "A substitute is at most 100 characters."), { message: "Substitutes must be a list." })
  .max(3, "Give at most three substitutes.")
  .transform((xs) => xs.map((x) => x.replace(/\s+/g, " ").trim()).filter((x) => x !== ""))
  .refine((xs) => xs.length > 0, "Give at least one substitute (or NAME / NIL).");

/** A training answer as the workspace's fields give it: substitutes, or NAME / NIL, and a multiword phrase. */
const fieldsSchema = z.object({
  kind: z.enum(["substitutes", "NAME", "NIL"], { message: "Give substitutes, NAME or NIL." }),
  substitutes: z.array(z.unknown()).default([]),
  multiword: z.string({ message: "A multiword phrase must be text." }).max(200, "A multiword phrase is at most 200 characters.").nullable().default(null),
});

/**
 * What is judged: the substitutes, or NAME / NIL as the one answer (it matches an item whose accepted
 * answers include it, lib/lexsub/known-answers.ts). The known answers are substitutes only, so a
 * multiword phrase is neither stored nor judged; it is given back to be shown as such.
 */
function answerOf(input: unknown): { answer: string[]; multiword: string | null } {
  if (Array.isArray(input)) return { answer: parseOrThrow(answerSchema, input, "Not saved"), multiword: null };
  const f = parseOrThrow(fieldsSchema, input, "Not saved");
  const answer = f.kind === "substitutes" ? parseOrThrow(answerSchema, f.substitutes, "Not saved") : [f.kind];
  return { answer, multiword: f.multiword?.replace(/\s+/g, " ").trim() || null };
}

/**
 * Answer the current training item (a list of substitutes, or the workspace's fields): stored with its
 * verdict; the attempt is scored when it is the last.
 */
export function answerTraining(
  db: Db,
  actor: Actor,
  projectId: number,
  instanceRef: number,
  input: unknown,
): TrainingFeedback & { score: number | null; passed: boolean; multiword: string | null } {
  const a = requireUser(actor);
  const p = requireProject(db, a, projectId, { annotate: true });
  const { answer, multiword } = answerOf(input);
  const known = new Map(listKnown(db, p.id, "training").map((k) => [k.ref, k]));
  return db.transaction((txx) => {
    const tx = txx as unknown as Db;
    const att = currentAttempt(tx, p.id, a.userId) ?? startAttempt(tx, p.id, a.userId, 1, "same");
    if (att.score !== null) throw new InputError("Not saved: this attempt is finished; start it again to retry.");
    const order = (JSON.parse(att.items) as number[]).filter((r) => known.has(r));
    if (!order.includes(instanceRef) || !known.has(instanceRef)) throw new NotFoundError("No such training item.");
    const fb = feedbackOf(tx, p.language, instanceRef, answer, known.get(instanceRef)!.accepted);
    tx.insert(trainingAnswers)
      .values({ projectId: p.id, userId: a.userId, attempt: att.attempt, instanceRef, substitutes: JSON.stringify(answer), matched: fb.matched, at: new Date() })
      .onConflictDoNothing()
      .run();
    const rows = tx
      .select({ ref: trainingAnswers.instanceRef, matched: trainingAnswers.matched })
      .from(trainingAnswers)
      .where(and(eq(trainingAnswers.projectId, p.id), eq(trainingAnswers.userId, a.userId), eq(trainingAnswers.attempt, att.attempt)))
      .all()
      .filter((r) => order.includes(r.ref));
    let score: number | null = null;
    let passed = false;
    if (rows.length === order.length) {
      score = trainingScore(rows.filter((r) => r.matched).length, order.length);
      passed = passes(score, settingsOf(tx, p.id).trainingThreshold);
      tx.update(trainingAttempts)
        .set({ score, passed })
        .where(and(eq(trainingAttempts.projectId, p.id), eq(trainingAttempts.userId, a.userId), eq(trainingAttempts.attempt, att.attempt)))
        .run();
      // A study participant has one attempt: not passed, they end at the screen-out code (same connection, same transaction).
      screenOutOnFail(db, a, p.id, passed);
    }
    return { ...fb, score, passed, multiword };
  });
}

/** Start a new attempt after a finished one: the same items in the same order, or a fresh order. */
export function retryTraining(db: Db, actor: Actor, projectId: number, order: unknown): { attempt: number } {
  const a = requireUser(actor);
  const p = requireProject(db, a, projectId, { annotate: true });
  // Screening: a study participant's one attempt decides (lib/server/annotate/participant.ts).
  if (a.role === "participant") throw new AuthError("The training of a study is taken once.");
  const o = order === "fresh" ? "fresh" : order === "same" ? "same" : null;
  if (!o) throw new InputError("Choose the same order or a fresh one.");
  return db.transaction((txx) => {
    const tx = txx as unknown as Db;
    const att = currentAttempt(tx, p.id, a.userId);
    if (att && att.score === null) throw new InputError("Finish the current attempt first.");
    const prev = att ? (JSON.parse(att.items) as number[]) : null;
    const row = startAttempt(tx, p.id, a.userId, (att?.attempt ?? 0) + 1, o);
    if (o === "same" && prev) tx.update(trainingAttempts).set({ items: JSON.stringify(prev) }).where(and(eq(trainingAttempts.projectId, p.id), eq(trainingAttempts.userId, a.userId), eq(trainingAttempts.attempt, row.attempt))).run();
    return { attempt: row.attempt };
  });
}

/** Where the annotator should go: the training (required and not passed), else the queue. */
export function trainingPendingFor(db: Db, actor: Actor, projectId: number): boolean {
  const a = requireUser(actor);
  const p = requireProject(db, a, projectId, { annotate: true });
  return trainingPending(db, p.id, a);
}

// ---------------------------------------------------------------------------
// Reports

export interface CheckReportRow {
  userId: number;
  name: string;
  seen: number;
  passed: number;
  /** passed / seen in percent (one decimal), null when none seen. */
  percent: number | null;
  /** Training: attempts made, best score, passed. */
  trainingAttempts: number;
  trainingBest: number | null;
  trainingPassed: boolean;
}

/**
 * Per annotator: attention checks answered and passed (their responses to check
 * instances, judged against the accepted substitutes), and their training.
 * O(checks × annotators' responses to them), through the responses' instance index.
 */
export function checkReport(db: Db, actor: Actor, projectId: number): CheckReportRow[] {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const checks = new Map(listKnown(db, p.id, "check").map((k) => [k.ref, k]));
  const pos = new Map<number, string>();
  const rows = new Map<number, CheckReportRow>();
  const row = (userId: number, name: string) => {
    let r = rows.get(userId);
    if (!r) rows.set(userId, (r = { userId, name, seen: 0, passed: 0, percent: null, trainingAttempts: 0, trainingBest: null, trainingPassed: false }));
    return r;
  };
  if (checks.size > 0) {
    const answers = db
      .select({ ref: responses.instanceRef, userId: responses.userId, name: users.name, kind: responses.kind, substitutes: responses.substitutes })
      .from(responses)
      .innerJoin(users, eq(users.id, responses.userId))
      .where(and(inArray(responses.instanceRef, [...checks.keys()]), ne(users.role, "model")))
      .all();
    for (const r of answers) {
      if (!pos.has(r.ref)) pos.set(r.ref, posOf(db, r.ref));
      const given = r.kind === "substitutes" ? (JSON.parse(r.substitutes) as string[]) : [r.kind];
      const v = judgeAnswer(given, checks.get(r.ref)!.accepted, pos.get(r.ref)!, lemmaProposer(p.language));
      const out = row(r.userId, r.name);
      out.seen++;
      if (v.matched) out.passed++;
    }
  }
  for (const t of db
    .select({ userId: trainingAttempts.userId, name: users.name, score: trainingAttempts.score, passed: trainingAttempts.passed })
    .from(trainingAttempts)
    .innerJoin(users, eq(users.id, trainingAttempts.userId))
    .where(eq(trainingAttempts.projectId, p.id))
    .all()) {
    const out = row(t.userId, t.name);
    out.trainingAttempts++;
    if (t.score !== null && (out.trainingBest === null || t.score > out.trainingBest)) out.trainingBest = t.score;
    if (t.passed) out.trainingPassed = true;
  }
  return [...rows.values()]
    .map((r) => ({ ...r, percent: r.seen === 0 ? null : Math.round((1000 * r.passed) / r.seen) / 10 }))
    .sort((x, y) => x.name.localeCompare(y.name));
}

// ---------------------------------------------------------------------------
// Per-lexelt notes

const noteSchema = z.string({ message: "The note must be text." }).max(20000, "The note is at most 20,000 characters.");

export function setLexeltNote(db: Db, actor: Actor, projectId: number, lexeltId: number, note: unknown): string {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const text = parseOrThrow(noteSchema, note, "Note not saved");
  const r = db.update(lexelts).set({ note: text }).where(and(eq(lexelts.id, Number(lexeltId)), eq(lexelts.projectId, p.id))).run();
  if (r.changes === 0) throw new NotFoundError("No such lexelt in this project.");
  return text;
}

/** The Training tab's lexelt notes: the lexelt chosen, with its note, and a short list to choose from. */
export interface LexeltNotesView {
  /** The lexelt asked for (`lexelt`), else the first; null when the project has none. */
  chosen: { id: number; item: string; note: string } | null;
  /** Those matching `find`, else those with a note first; at most `limit`, in corpus order. */
  listed: { id: number; item: string; hasNote: boolean }[];
  total: number;
  withNote: number;
  /** How many match `find` (all, without one). */
  matched: number;
}

/**
 * Per-lexelt notes for the Training tab, searched and cut in SQL: the page
 * costs the same at 10,000 lexelts as at 10. `find` matches the lexelt's item
 * (ASCII letters in either case).
 */
export function lexeltNotes(db: Db, actor: Actor, projectId: number, query: { lexelt?: number; find?: string; limit?: number } = {}): LexeltNotesView {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const find = (query.find ?? "").trim();
  const limit = query.limit && query.limit > 0 ? Math.floor(query.limit) : 30;
  const inProject = eq(lexelts.projectId, p.id);
  const hasNote = sql<number>`trim(${lexelts.note}) <> ''`;
  const counts = db
    .select({ total: count(), withNote: sql<number>`coalesce(sum(${hasNote}), 0)` })
    .from(lexelts)
    .where(inProject)
    .get()!;
  const matching = find === "" ? inProject : and(inProject, containsText(lexelts.item, find));
  const matched = find === "" ? counts.total : db.select({ n: count() }).from(lexelts).where(matching).get()!.n;
  const listed = db
    .select({ id: lexelts.id, item: lexelts.item, hasNote })
    .from(lexelts)
    .where(matching)
    .orderBy(...(find === "" ? [desc(hasNote), asc(lexelts.position)] : [asc(lexelts.position)]))
    .limit(limit)
    .all()
    .map((r) => ({ id: r.id, item: r.item, hasNote: Boolean(r.hasNote) }));
  const columns = { id: lexelts.id, item: lexelts.item, note: lexelts.note };
  const asked = Number.isInteger(query.lexelt) ? db.select(columns).from(lexelts).where(and(inProject, eq(lexelts.id, query.lexelt!))).get() : undefined;
  const chosen = asked ?? db.select(columns).from(lexelts).where(inProject).orderBy(asc(lexelts.position)).limit(1).get() ?? null;
  return { chosen, listed, total: counts.total, withNote: counts.withNote, matched };
}

