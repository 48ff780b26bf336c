/**
 * The response store and the annotation workspace: what one annotator sees and
 * saves. Every function returns only the caller's own responses; other
 * annotators' answers never leave this module (they are only counted, to honour
 * projects.requiredAnnotators).
 *
 * The queue of an annotator in a project: the instances of the lexelts assigned
 * to them (assignedLexeltIds), lexelts in corpus order, instances in corpus order,
 * minus the instances that already have requiredAnnotators responses from other
 * annotators while the annotator has none. It is never read whole: see queue.ts.
 *
 * Why one file over 600 lines: the save is one transaction whose checks (assignment,
 * training, revision, the queue counters) must be read together to see that no
 * acknowledged answer is lost; the queue itself is in queue.ts.
 */
import "server-only";
import { maintainInstanceAtCommit } from "../derived/actor-free";
import { requireTrainingPassed } from "./training-gate";
import { and, asc, desc, eq, isNull, ne } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { assignments, instances, lexelts, memberships, projects, responseHistory, responses } from "../../../db/schema";
import { type Actor, type ProjectRow, type UserActor, requireProject, requireSignedIn } from "../kernel/actor";
import { named } from "../../../db/sql-names";
import {
  type Entry,
  type LexeltRow,
  type QueueScope,
  assignedLexelts,
  closedByLexelt,
  countNewResponse,
  doneByLexelt,
  entryOf,
  jumpEntry,
  lexeltCountUpTo,
  lexeltLabel,
  lexeltRow,
  lexeltTotals,
  nextUnanswered,
  positionOf,
  queueScope,
  step,
  totals,
} from "./batch-queue";
import { batchOpened, batchSaved, notInBatchMessage, requireBatchItem, requireBatchOpen, requireBatchWritable } from "./participant";
import { get, run } from "../kernel/statements";
import { writeTransaction } from "../kernel/write-lock";
import { AuthError, ConflictError, InputError, NotFoundError } from "../kernel/errors";
import { type Target, checkResponse } from "../../lexsub/substitute-rules";
import { type FlagNote, instanceMarks, resolveReturns, returnsSummary, validateFlag, writeFlag } from "./flags";
import { type SuggestionsClaim, suggestionsRecord } from "./suggestions-record";
import { MODEL_USERS_SQL } from "../kernel/model-users";

const RESPONSE_KINDS = ["substitutes", "NAME", "NIL"] as const;
export type ResponseKind = (typeof RESPONSE_KINDS)[number];

/** What the workspace sends: the three substitute fields as typed (blank = unfilled). */
export interface ResponseInput {
  kind: string;
  substitutes: string[];
  multiword: boolean;
  phrase?: string;
  /** The annotator's flag on the instance (flags.ts FLAG_KINDS, null = none); saved with the response when given. */
  flag?: string | null;
  /** The annotator's note on the instance ("" = none); saved with the response when given. */
  note?: string;
  /** Whether a model's suggestions were shown and which were accepted (suggestions-record.ts); sent when the project suggests. */
  suggestions?: SuggestionsClaim;
}

/** A validated response, ready to store. */
export interface CleanResponse {
  kind: ResponseKind;
  substitutes: string[];
  /** The multiword phrase, or null when the target is not part of one. */
  multiword: string | null;
}

/** The caller's own stored response. */
export interface OwnResponse extends CleanResponse {
  revision: number;
  /** Epoch milliseconds of the last save. */
  updatedAt: number;
}

// ---------------------------------------------------------------------------
// Validation

/**
 * The request's shape (zod, built once: a save is the hot path), then the rules of
 * lib/lexsub/substitute-rules.ts, the same the workspace checks before sending:
 * each broken rule an issue on its field.
 */
const responseShape = z.object({
  kind: z.enum(RESPONSE_KINDS, { message: "Choose substitutes, NAME or NIL." }),
  substitutes: z.array(z.string({ message: "A substitute must be text." }), { message: "Substitutes must be a list." }).default([]),
  multiword: z.boolean({ message: "Part of a multiword is yes or no." }).default(false),
  phrase: z.string({ message: "The multiword phrase must be text." }).default(""),
});

const FIELDS = new Set<string>(["substitute1", "substitute2", "substitute3", "multiword", "form"]);

/**
 * Check and normalise one response for an instance whose lemma and head word are
 * given. Throws InputError with messages keyed by field (substitute1..3, multiword,
 * form); the message names the first problem.
 */
export function validateResponse(input: unknown, target: Target): CleanResponse {
  const r = responseShape.safeParse(input ?? {});
  const errors: Record<string, string> = {};
  if (r.success) {
    const checked = checkResponse(r.data, target);
    for (const [field, message] of Object.entries(checked.errors)) errors[FIELDS.has(field) ? field : "form"] ??= message;
    if (Object.keys(errors).length === 0) return { kind: r.data.kind, substitutes: checked.substitutes, multiword: checked.multiword };
  } else {
    for (const i of r.error.issues) {
      const key = String(i.path[0] ?? "form");
      errors[FIELDS.has(key) ? key : "form"] ??= i.message;
    }
  }
  throw new InputError(`Not saved: ${Object.values(errors)[0]}`, errors);
}

const saveOptionsSchema = z.object({
  expectedRevision: z.number({ message: "expectedRevision must be a number." }).int().min(0),
  /** Sent by the workspace (its own measure) and ignored: time on task is derived here (timeOnTask). */
  activeMs: z.unknown().optional(),
});

/** A gap between saves longer than this is a break, not time on one item: such a response carries no time. */
export const MAX_TIMED_GAP_MS = 10 * 60 * 1000;

/**
 * Time on task, from the server's own clock (never the browser's word): the time
 * since the annotator's previous save in this project, null when there is none
 * or it is more than MAX_TIMED_GAP_MS ago (the first item after a break is not
 * timed). The Progress tab's median per item and the speed flag read it.
 * From the index on (project, user) that ends in the rowid: the newest rows first.
 */
function timeOnTask(db: Db, projectId: number, userId: number, now: number): number | null {
  const prev = get<{ at: number }>(
    db,
    `select ${RH.savedAt} as at from ${RH.$} where ${RH.projectId} = ? and ${RH.userId} = ? and ${RH.source} = 'web' order by ${RH.id} desc limit 1`,
    projectId,
    userId,
  );
  if (!prev) return null;
  const gap = now - prev.at;
  return gap >= 0 && gap <= MAX_TIMED_GAP_MS ? gap : null;
}

// ---------------------------------------------------------------------------
// The queue (lib/server/annotate/queue.ts answers every question about it without reading it)

/** Only a signed-in person has responses; the CLI (system actor) does not annotate. */
function requireAnnotator(actor: Actor): UserActor {
  const a = requireSignedIn(actor);
  if (a.kind !== "user") throw new AuthError("Only a signed-in user has responses of their own.");
  return a;
}

interface OwnRow {
  kind: ResponseKind;
  substitutes: string;
  multiword: string | null;
  revision: number;
  updatedAt: Date;
}

/** A responses row as the raw statements read it (updated_at in epoch ms). */
interface ResponseRow {
  id: number;
  kind: ResponseKind;
  substitutes: string;
  multiword: string | null;
  revision: number;
  updatedAt: number;
}

// Tables and columns for the raw statements (aliases as they use them).
const [AS, I, L, RS, RH, R] = [named(assignments), named(instances, "i"), named(lexelts, "l"), named(responses), named(responseHistory), named(responses, "r")];

const RESPONSE_COLUMNS = `${RS.id}, ${RS.kind}, ${RS.substitutes}, ${RS.multiword}, ${RS.revision}, ${RS.updatedAt} as updatedAt`;

function asOwnRow(r: ResponseRow): OwnRow {
  return { kind: r.kind, substitutes: r.substitutes, multiword: r.multiword, revision: r.revision, updatedAt: new Date(r.updatedAt) };
}

function ownView(r: OwnRow): OwnResponse {
  return {
    kind: r.kind,
    substitutes: JSON.parse(r.substitutes) as string[],
    multiword: r.multiword,
    revision: r.revision,
    updatedAt: r.updatedAt.getTime(),
  };
}

/** The caller's queue: a participant's is their batch (batch-queue.ts), everyone else's queue.ts's. */
function scopeOf(db: Db, p: ProjectRow, a: UserActor): QueueScope {
  return queueScope(db, p.id, a, p.requiredAnnotators);
}

/** Whether a lexelt is the annotator's (O(log n)). */
function isAssigned(db: Db, s: QueueScope, lexeltId: number): boolean {
  if (!s.restricted) return true;
  return get(db, `select 1 as x from ${AS.$} where ${AS.projectId} = ? and ${AS.userId} = ? and ${AS.lexeltId} = ?`, s.projectId, s.userId, lexeltId) !== undefined;
}

export interface LexeltProgress {
  lexeltId: number;
  /** The lemma (numbered when two lexelts share it); never the PoS. */
  label: string;
  done: number;
  total: number;
}

export interface Progress {
  done: number;
  total: number;
}

// ---------------------------------------------------------------------------
// Reads

export interface AnnotatorProject {
  id: number;
  name: string;
  done: number;
  total: number;
  /** Instances the coordinator returned to them, still open. */
  returned: number;
}

/** The projects the signed-in user belongs to, with their own done / total. */
export function annotatorProjects(db: Db, actor: Actor): AnnotatorProject[] {
  const a = requireAnnotator(actor);
  const rows = db
    .select({ id: projects.id })
    .from(projects)
    .innerJoin(memberships, eq(memberships.projectId, projects.id))
    // An archived project leaves the annotators' lists (its coordinators still see it).
    // A project they judge in is not theirs to annotate: their rounds are listed apart (myRounds).
    .where(and(eq(memberships.userId, a.userId), ne(memberships.role, "judge"), isNull(projects.archivedAt)))
    .orderBy(asc(projects.name))
    .all();
  return rows.map((r) => {
    const p = requireProject(db, a, r.id, { annotate: true });
    return { id: p.id, name: p.name, ...totals(db, scopeOf(db, p, a)), returned: returnsSummary(db, p.id, a.userId).count };
  });
}

/** The project for answering in: a member's, and not archived (an archived project takes no new answers). */
function requireOpenProject(db: Db, a: UserActor, projectId: number): ProjectRow {
  const p = requireProject(db, a, projectId, { annotate: true });
  if (p.archivedAt !== null) throw new AuthError(`“${p.name}” is archived: it takes no new answers. Your answers are kept.`);
  return p;
}

export interface InstanceView {
  /** The instance's database id (used in URLs). */
  ref: number;
  /** The id as written in the lexelt file. */
  instanceId: string;
  /** The target's lemma; the PoS is deliberately left out. */
  lemma: string;
  lexeltLabel: string;
  before: string;
  head: string;
  after: string;
  /** The coordinator's note and examples for the lexelt (Markdown; lib/server/quality/training.ts). */
  note: string;
}

/** Everything the workspace shows for one instance of the queue. */
export interface InstanceStep {
  instance: InstanceView;
  /** 1-based place of the instance in the queue. */
  position: number;
  /** The caller's own current response to the instance, if any. */
  response: OwnResponse | null;
  prevRef: number | null;
  nextRef: number | null;
  /** The next unanswered instance after this one (wrapping round), not this one. */
  nextUnansweredRef: number | null;
  /** The caller's progress in the instance's lexelt. */
  lexelt: LexeltProgress;
  /** The caller's flag and note on the instance. */
  flag: FlagNote;
  /** The coordinator's comment when the instance is returned to the caller (until they save it again). */
  returnComment: string | null;
}

/** How many instances after the one shown come with it, so the browser moves on at once. */
const UPCOMING = 3;
/**
 * How many after the next one a save's answer brings: one. The workspace already holds the rest of
 * what the page and the earlier saves brought, and with the next instance and the one after it in
 * hand it moves on without asking (app/annotate/use-queue.ts fetches only an instance it lacks).
 */
const UPCOMING_AFTER_SAVE = 1;

export interface WorkspaceView {
  /** `language`: a BCP 47 tag, the sentence's and the answer fields' `lang` and the rules' case folding. */
  project: { id: number; name: string; guidelines: string; language: string };
  /** The instance to show; null when the queue is empty or (on resume) everything is answered. */
  instance: InstanceView | null;
  /** 1-based place of the instance in the queue (0 when there is none). */
  position: number;
  response: OwnResponse | null;
  prevRef: number | null;
  nextRef: number | null;
  nextUnansweredRef: number | null;
  /** The caller's progress in the instance's lexelt (null without an instance). */
  lexelt: LexeltProgress | null;
  progress: Progress;
  /** The first instance of the queue (for "review from the first instance"). */
  firstRef: number | null;
  /** The instances that follow the one shown, in queue order (up to UPCOMING). */
  upcoming: InstanceStep[];
  /** How many lexelts the caller annotates, counted up to FEW_TARGETS + 1 (the list of targets is fetched apart). */
  targetCount: number;
  /** Whether they are few enough (at most FEW_TARGETS) to list at once. */
  fewTargets: boolean;
  /** Instances the coordinator returned to the caller, still open: how many, and the first in the order returned. */
  returned: { count: number; firstRef: number | null };
  /** The caller's flag and note on the instance shown (none without one). */
  flag: FlagNote;
  /** The coordinator's comment when the instance shown is returned to the caller. */
  returnComment: string | null;
}

/** Up to this many targets, the workspace lists them at once. */
const FEW_TARGETS = 12;

/** A lexelt as the steps show it: its row, its label for the caller and the caller's counts in it. */
interface LexeltShown {
  l: LexeltRow;
  label: string;
  totals: { done: number; total: number };
}

/** Lexelts already looked up while building one answer (its steps are mostly in one lexelt). */
type LexeltsShown = Map<number, LexeltShown>;

function lexeltShown(db: Db, s: QueueScope, lexeltId: number, seen: LexeltsShown): LexeltShown {
  let x = seen.get(lexeltId);
  if (!x) {
    const l = lexeltRow(db, lexeltId);
    x = { l, label: lexeltLabel(db, s, l), totals: lexeltTotals(db, s, l) };
    seen.set(lexeltId, x);
  }
  return x;
}

/**
 * The step for an entry, all but its next unanswered instance (stepsFrom fills that in). `prev`: the
 * entry before it when the caller knows it (undefined: looked up).
 */
function instanceStep(db: Db, s: QueueScope, e: Entry, position: number, prev: Entry | null | undefined, seen: LexeltsShown): { step: InstanceStep; next: Entry | null } {
  // Raw statements, prepared once (queue.ts): a save reads a few of these steps. The instance and the caller's own response in one.
  const row = get<{ instanceId: string; before: string; head: string; after: string; note: string; kind: ResponseKind | null; substitutes: string; multiword: string | null; revision: number; updatedAt: number }>(
    db,
    `select ${I.instanceId} as instanceId, ${I.before} as before, ${I.head} as head, ${I.after} as after, ${L.note} as note,
       ${R.kind} as kind, ${R.substitutes} as substitutes, ${R.multiword} as multiword, ${R.revision} as revision, ${R.updatedAt} as updatedAt
     from ${I.$} join ${L.$} on ${L.id} = ${I.lexeltId} left join ${R.$} on ${R.instanceRef} = ${I.id} and ${R.userId} = ? where ${I.id} = ?`,
    s.userId,
    e.ref,
  )!;
  const { l, label, totals } = lexeltShown(db, s, e.lexeltId, seen);
  const before = prev === undefined ? step(db, s, e, -1) : prev;
  const next = step(db, s, e, 1);
  return {
    step: {
      instance: { ref: e.ref, instanceId: row.instanceId, lemma: l.lemma, lexeltLabel: label, before: row.before, head: row.head, after: row.after, note: row.note },
      position,
      response:
        row.kind === null
          ? null
          : ownView({ kind: row.kind, substitutes: row.substitutes, multiword: row.multiword, revision: row.revision, updatedAt: new Date(row.updatedAt) }),
      prevRef: before?.ref ?? null,
      nextRef: next?.ref ?? null,
      nextUnansweredRef: null,
      lexelt: { lexeltId: l.id, label, ...totals },
      ...instanceMarks(db, e.ref, s.userId),
    },
    next,
  };
}

/**
 * The step for an entry and the `count` that follow it (each O(log n): positions follow on). `prev`:
 * the entry before `e` when the caller knows it; `seen`: lexelts the caller already looked up.
 */
function stepsFrom(db: Db, s: QueueScope, e: Entry, count: number, prev?: Entry | null, seen: LexeltsShown = new Map()): InstanceStep[] {
  const out: InstanceStep[] = [];
  const entries: Entry[] = [];
  let at: Entry | null = e;
  let position = positionOf(db, s, e);
  while (at && out.length <= count) {
    const { step: st, next } = instanceStep(db, s, at, position, prev, seen);
    out.push(st);
    entries.push(at);
    prev = at;
    at = next;
    position++;
  }
  // The next unanswered instance after a step: the step that follows it when the caller has no answer
  // there (an open entry without their answer is unanswered), else looked up.
  out.forEach((st, i) => {
    const following = out[i + 1];
    st.nextUnansweredRef =
      following && following.response === null && st.nextRef === following.instance.ref ? following.instance.ref : (nextUnanswered(db, s, entries[i])?.ref ?? null);
  });
  return out;
}

/**
 * One instance of the caller's queue, or (without instanceRef) the one to resume
 * at, or (with lexeltId) where to jump in a lexelt: its first unanswered instance,
 * else its first. Throws NotFoundError for projects the caller is not a member of
 * and for instances and lexelts outside their queue.
 */
export function workspace(db: Db, actor: Actor, projectId: number, instanceRef?: number, options: { lexeltId?: number } = {}): WorkspaceView {
  const a = requireAnnotator(actor);
  const p = requireOpenProject(db, a, projectId);
  requireTrainingPassed(db, p, a);
  const s = scopeOf(db, p, a);
  if (s.batch) requireBatchOpen(s.batch);
  let entry: Entry | null;
  if (instanceRef !== undefined) {
    entry = Number.isInteger(instanceRef) ? entryOf(db, s, instanceRef) : null;
    if (!entry) throw new NotFoundError(instanceNotInQueueMessage(db, p, s, instanceRef));
  } else if (options.lexeltId !== undefined) {
    const l = Number.isInteger(options.lexeltId)
      ? db.select({ id: lexelts.id, position: lexelts.position }).from(lexelts).where(and(eq(lexelts.id, options.lexeltId), eq(lexelts.projectId, p.id))).get()
      : undefined;
    if (!l || !isAssigned(db, s, l.id)) throw new NotFoundError("No such target in your queue.");
    entry = jumpEntry(db, s, l);
    if (!entry) throw new NotFoundError("That target has nothing left for you to annotate.");
  } else {
    entry = resumeEntry(db, s);
  }
  if (s.batch) batchOpened(db, s.batch);
  const base = {
    project: { id: p.id, name: p.name, guidelines: p.guidelines, language: p.language },
    progress: totals(db, s),
    targetCount: lexeltCountUpTo(db, s, FEW_TARGETS + 1),
    returned: returnsSummary(db, p.id, a.userId),
  };
  const few = { fewTargets: base.targetCount <= FEW_TARGETS };
  if (!entry) {
    return {
      ...base,
      instance: null,
      position: 0,
      response: null,
      prevRef: null,
      nextRef: null,
      nextUnansweredRef: null,
      lexelt: null,
      firstRef: step(db, s, null, 1)?.ref ?? null,
      upcoming: [],
      flag: { flag: null, note: "" },
      returnComment: null,
      ...few,
    };
  }
  const [here, ...upcoming] = stepsFrom(db, s, entry, UPCOMING);
  return { ...base, ...few, ...here, firstRef: null, upcoming };
}

/**
 * Where the annotator left off: the first instance returned to them (oldest return
 * first, on the returned_items index), else the first unanswered after their last
 * saved instance (wrapping round), else the first unanswered.
 */
function resumeEntry(db: Db, s: QueueScope): Entry | null {
  const returned = returnsSummary(db, s.projectId, s.userId).firstRef;
  const back = returned !== null ? entryOf(db, s, returned) : null;
  if (back) return back;
  const last = db
    .select({ instanceRef: responseHistory.instanceRef })
    .from(responseHistory)
    .where(and(eq(responseHistory.projectId, s.projectId), eq(responseHistory.userId, s.userId)))
    .orderBy(desc(responseHistory.id))
    .limit(1)
    .get();
  const at = last ? entryOf(db, s, last.instanceRef) : null;
  if (at) return nextUnanswered(db, s, at);
  return step(db, s, null, 1, "unanswered");
}

/** The caller's lexelts with their done / total, for the workspace's list of targets (O(lexelts), asked once per page). */
export function workspaceTargets(db: Db, actor: Actor, projectId: number): LexeltProgress[] {
  const a = requireAnnotator(actor);
  const p = requireProject(db, a, projectId, { annotate: true });
  const s = scopeOf(db, p, a);
  const lx = assignedLexelts(db, s);
  const done = doneByLexelt(db, s);
  const closed = closedByLexelt(db, s);
  // Annotators never see the PoS, so two lexelts with one lemma (stand.n, stand.v) are told apart by number.
  const perLemma = new Map<string, number>();
  for (const l of lx) perLemma.set(l.lemma, (perLemma.get(l.lemma) ?? 0) + 1);
  const seen = new Map<string, number>();
  const out: LexeltProgress[] = [];
  for (const l of lx) {
    const k = (seen.get(l.lemma) ?? 0) + 1;
    seen.set(l.lemma, k);
    const total = l.instanceCount - (closed.get(l.id) ?? 0);
    if (total <= 0) continue;
    out.push({ lexeltId: l.id, label: (perLemma.get(l.lemma) ?? 0) > 1 ? `${l.lemma} (${k})` : l.lemma, done: done.get(l.id) ?? 0, total });
  }
  return out;
}

/** Why an instance is not in the caller's queue, without revealing anything they may not see. */
function instanceNotInQueueMessage(db: Db, p: ProjectRow, s: QueueScope, instanceRef: number): string {
  const inst = Number.isInteger(instanceRef)
    ? db
        .select({ lexeltId: instances.lexeltId, inQueue: instances.inQueue })
        .from(instances)
        .innerJoin(lexelts, and(eq(lexelts.id, instances.lexeltId), eq(lexelts.projectId, p.id)))
        .where(and(eq(instances.id, instanceRef), eq(instances.projectId, p.id)))
        .get()
    : undefined;
  if (!inst) return "No such instance in this project.";
  if (s.batch) return notInBatchMessage(s.batch, instanceRef);
  if (!isAssigned(db, s, inst.lexeltId)) return "That instance is not assigned to you.";
  if (!inst.inQueue) return "That instance is a training item: it is answered in the training, not in the queue.";
  return `That instance already has the ${p.requiredAnnotators} responses it needs from other annotators.`;
}

// ---------------------------------------------------------------------------
// Writes

export interface SaveResult {
  revision: number;
  response: OwnResponse;
  /**
   * Where "save and next" goes: the next returned instance; else, after answering a returned one again, the next
   * unanswered one; else the next instance in the queue, else the next unanswered one; else null (all done).
   */
  next: number | null;
  /** The caller's done / total after the save. */
  progress: Progress;
  /** The caller's progress in the saved instance's lexelt after the save. */
  lexelt: LexeltProgress;
  /** The instance `next` names and the one after it (1 + UPCOMING_AFTER_SAVE), to show without another request. */
  upcoming: InstanceStep[];
  /** The caller's flag and note on the instance after the save. */
  flag: FlagNote;
  /** Instances still returned to the caller after the save. */
  returned: { count: number; firstRef: number | null };
}

/**
 * Save the caller's response to one instance: validated, then in one transaction
 * the current response is inserted or updated (revision + 1), a history row
 * appended (source "web") and, for a new response, the queue counters raised.
 *
 * expectedRevision is the revision the annotator started from (0 for none): when
 * the stored revision differs (another tab saved in between) nothing is written
 * and a ConflictError carries the stored response. A new response is refused when
 * the instance already has requiredAnnotators responses from others.
 *
 * Synchronous (the CLI, tests, server actions): it waits for the write lock in SQLite's busy
 * handler. The save route uses saveResponseAsync, which waits without stopping the process.
 */
export function saveResponse(
  db: Db,
  actor: Actor,
  projectId: number,
  instanceRef: number,
  input: ResponseInput,
  options: { expectedRevision: number; /** Ignored: time on task is the server's (timeOnTask). */ activeMs?: unknown },
): SaveResult {
  const plan = planSave(db, actor, projectId, instanceRef, input, options);
  const saved = db.$client.transaction(plan.write).immediate();
  return answerSave(db, plan, saved);
}

/**
 * saveResponse for the save route: the same checks, transaction and answer, but the write lock is
 * waited for without blocking the event loop (kernel/write-lock.ts: tried with no busy timeout and
 * again from a timer), so that while the other server process writes, this one goes on serving.
 * Resolves once the transaction has committed; BusyError (503, nothing written) when the lock
 * stayed taken for seconds.
 */
export async function saveResponseAsync(
  db: Db,
  actor: Actor,
  projectId: number,
  instanceRef: number,
  input: ResponseInput,
  options: { expectedRevision: number; activeMs?: unknown },
): Promise<SaveResult> {
  const plan = planSave(db, actor, projectId, instanceRef, input, options);
  // The save reads none of the derived figures: their upkeep waits for the end of the batch (write-lock.ts).
  const saved = await writeTransaction(db, plan.write, { defers: true });
  return answerSave(db, plan, saved);
}

interface SavePlan {
  a: UserActor;
  p: ProjectRow;
  inst: { ref: number; lexeltId: number };
  s: QueueScope;
  flag: FlagNote | null;
  /** The save's writes, to run in a write transaction: the stored response, and whether it answered a returned instance again. */
  write: () => Saved;
}

interface Saved {
  own: OwnRow;
  /** The save resolved a return of the instance to the caller. */
  wasReturned: boolean;
}

/** A save's checks and validation (throwing what refuses it), and its writes as a function. */
function planSave(db: Db, actor: Actor, projectId: number, instanceRef: number, input: ResponseInput, options: { expectedRevision: number; activeMs?: unknown }): SavePlan {
  const a = requireAnnotator(actor);
  // The checks' reads in one read transaction, as the answer's below: one snapshot, one look at the WAL.
  const { p, inst, s } = db.$client.transaction(() => {
    const p = requireOpenProject(db, a, projectId);
    requireTrainingPassed(db, p, a);
    const inst = Number.isInteger(instanceRef)
      ? get<{ ref: number; lexeltId: number; head: string; lemma: string; inQueue: number }>(
          db,
          `select ${I.id} as ref, ${I.lexeltId} as lexeltId, ${I.head} as head, ${L.lemma} as lemma, ${I.inQueue} as inQueue from ${I.$} join ${L.$} on ${L.id} = ${I.lexeltId} and ${L.projectId} = ${I.projectId} where ${I.id} = ? and ${I.projectId} = ?`,
          instanceRef,
          p.id,
        )
      : undefined;
    if (!inst) throw new NotFoundError("No such instance in this project.");
    const s = scopeOf(db, p, a);
    if (!isAssigned(db, s, inst.lexeltId)) throw new AuthError("That instance is not assigned to you.");
    // A training item out of the queue (queue.ts syncTrainingQueue) is answered in the training (said only to whom
    // the instance is assigned). A study's batch holds only queued instances when cut
    // (lib/server/crowd/allocation.ts); one marked since is still saved there, uncounted.
    if (inst.inQueue !== 1 && !s.batch) {
      const m = "This instance is a training item: it is answered in the training, not in the queue. Nothing was saved.";
      throw new InputError(m, { form: m });
    }
    if (s.batch) requireBatchItem(s.batch, inst.ref);
    return { p, inst, s };
  })();
  const clean = validateResponse(input, { lemma: inst.lemma, head: inst.head, language: p.language });
  // The flag and note travel as extra properties of the input; left out, they stay as they are.
  const flagGiven = input != null && typeof input === "object" && ("flag" in input || "note" in input);
  const flag = flagGiven ? validateFlag({ flag: input.flag ?? null, note: input.note ?? "" }) : null;
  const opts = saveOptionsSchema.safeParse(options ?? {});
  if (!opts.success) throw new InputError(`Not saved: ${opts.error.issues[0].message}`, { form: opts.error.issues[0].message });
  const { expectedRevision } = opts.data;

  // Raw statements, prepared once (queue.ts): the save is the hot path.
  const write = (): Saved => {
    if (s.batch) requireBatchWritable(db, s.batch, inst.ref);
    const cur = get<ResponseRow>(db, `select ${RESPONSE_COLUMNS} from ${RS.$} where ${RS.instanceRef} = ? and ${RS.userId} = ?`, inst.ref, a.userId);
    if (cur && cur.revision !== expectedRevision) {
      throw new ConflictError(
        "This instance was saved elsewhere (another tab or window) since you opened it. Choose which answer to keep.",
        ownView(asOwnRow(cur)),
      );
    }
    const now = Date.now();
    const substitutes = JSON.stringify(clean.substitutes);
    // A model's suggestions (lib/server/models), when the workspace says it showed some: checked, then kept with the save.
    const suggestions = input.suggestions === undefined ? null : suggestionsRecord(db, p.id, a, inst.ref, input.suggestions, clean, !!cur, p.language);
    let row: ResponseRow;
    if (cur) {
      row = get<ResponseRow>(
        db,
        `update ${RS.$} set ${RS.kind} = ?, ${RS.substitutes} = ?, ${RS.multiword} = ?, ${RS.updatedAt} = ?, ${RS.revision} = ?, ${RS.suggestions} = ? where ${RS.id} = ? returning ${RESPONSE_COLUMNS}`,
        clean.kind,
        substitutes,
        clean.multiword,
        now,
        cur.revision + 1,
        suggestions,
        cur.id,
      )!;
    } else {
      // A participant's batch holds its place among the study's overlap: the project's rule is for its annotators.
      if (p.requiredAnnotators != null && !s.batch) {
        // The people's: a model's answers (lib/server/models) never take a place.
        const n = get<{ n: number }>(db, `select count(*) as n from ${RS.$} where ${RS.instanceRef} = ? and ${RS.userId} <> ? and ${RS.userId} not in (${MODEL_USERS_SQL})`, inst.ref, a.userId)!.n;
        if (n >= p.requiredAnnotators) {
          const m = `This instance already has the ${p.requiredAnnotators} responses it needs; nothing was saved. Move on to the next one.`;
          throw new InputError(m, { form: m });
        }
      }
      const activeMs = timeOnTask(db, p.id, a.userId, now);
      row = get<ResponseRow>(
        db,
        `insert into ${RS.$} (${RS.projectId}, ${RS.instanceRef}, ${RS.userId}, ${RS.kind}, ${RS.substitutes}, ${RS.multiword}, ${RS.revision}, ${RS.activeMs}, ${RS.updatedAt}, ${RS.suggestions})
         values (?, ?, ?, ?, ?, ?, 1, ?, ?, ?) returning ${RESPONSE_COLUMNS}`,
        p.id,
        inst.ref,
        a.userId,
        clean.kind,
        substitutes,
        clean.multiword,
        activeMs,
        now,
        suggestions,
      )!;
      if (inst.inQueue === 1) countNewResponse(db, p.id, a.userId, inst.lexeltId);
    }
    if (flag) writeFlag(db, p.id, inst.ref, a.userId, flag, now);
    // Answering a returned instance again resolves the return (recorded with the revision).
    const wasReturned = resolveReturns(db, inst.ref, a.userId, row.revision, now) > 0;
    run(
      db,
      `insert into ${RH.$} (${RH.responseId}, ${RH.projectId}, ${RH.instanceRef}, ${RH.userId}, ${RH.kind}, ${RH.substitutes}, ${RH.multiword}, ${RH.revision}, ${RH.source}, ${RH.savedAt}, ${RH.suggestions})
       values (?, ?, ?, ?, ?, ?, ?, ?, 'web', ?, ?)`,
      row.id,
      p.id,
      inst.ref,
      a.userId,
      row.kind,
      row.substitutes,
      row.multiword,
      row.revision,
      now,
      suggestions,
    );
    if (s.batch) batchSaved(db, s.batch, a.userId, inst.ref, !cur, now);
    // The instance's derived figures (its gold line, agreement sums, run scores) in the same transaction (#39):
    // with the other instances of the saves committed with this one, at the end of their batch.
    maintainInstanceAtCommit(db, p.id, inst.ref);
    return { own: asOwnRow(row), wasReturned };
  };
  return { a, p, inst, s, flag, write };
}

/**
 * The answer to a committed save: where "save and next" goes and what the workspace lacks to show
 * it at once — the next instance and the one after it (the page and earlier saves brought the
 * rest; the workspace asks for an instance it does not hold).
 */
function answerSave(db: Db, { a, p, inst, s, flag }: SavePlan, { own: saved, wasReturned }: Saved): SaveResult {
  // The answer's reads in one read transaction: one snapshot (the next instance, the progress and the
  // upcoming ones agree with each other), and SQLite looks at the WAL once rather than once per statement.
  return db.$client.transaction((): SaveResult => {
    // The instance is in the queue now (it has the caller's response).
    const at = entryOf(db, s, inst.ref)!;
    // Returned instances come first: after one is answered, the next returned one.
    const returned = returnsSummary(db, p.id, a.userId);
    const back = returned.firstRef !== null ? entryOf(db, s, returned.firstRef) : null;
    // After a returned instance is answered again, the annotator goes back to where they were (their next
    // unanswered one), not to its neighbour in corpus order, which they answered long ago.
    let following: Entry | null = null;
    // A participant whose save finished their batch goes to the completion screen.
    const next = s.batch?.finishedNow
      ? null
      : (back ?? (wasReturned ? (nextUnanswered(db, s, at) ?? (following = step(db, s, at, 1))) : ((following = step(db, s, at, 1)) ?? nextUnanswered(db, s, at))));
    // The saved instance's lexelt, looked up once for the answer and the steps in it.
    const seen: LexeltsShown = new Map();
    const shown = lexeltShown(db, s, inst.lexeltId, seen);
    return {
      revision: saved.revision,
      response: ownView(saved),
      next: next?.ref ?? null,
      progress: totals(db, s),
      lexelt: { lexeltId: shown.l.id, label: shown.label, ...shown.totals },
      // When `next` is the instance after the saved one, the saved one is what comes before it.
      upcoming: next ? stepsFrom(db, s, next, UPCOMING_AFTER_SAVE, next === following ? at : undefined, seen) : [],
      flag: flag ?? instanceMarks(db, inst.ref, a.userId).flag,
      returned,
    };
  })();
}
