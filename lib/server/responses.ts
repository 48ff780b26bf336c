/**
 * The response store and the annotation workspace: what one annotator sees and
 * saves. Every function returns only the caller's own responses; other
 * annotators' answers never leave this module (they are only counted, to honour
 * projects.requiredAnnotators).
 *
 * The queue of an annotator in a project: the instances of the lexelts assigned
 * to them (assignedLexeltIds), lexelts in corpus order, instances in corpus order,
 * minus the instances that already have requiredAnnotators responses from other
 * annotators while the annotator has none.
 */
import "server-only";
import { and, asc, desc, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client";
import { instances, lexelts, memberships, projects, responseHistory, responses } from "../../db/schema";
import { type Actor, type ProjectRow, type UserActor, requireProject, requireSignedIn } from "./actor";
import { assignedLexeltIds } from "./assignments";
import { AuthError, ConflictError, InputError, NotFoundError } from "./errors";
import { type ResponseField, checkResponse } from "../lexsub/substitute-rules";

export const RESPONSE_KINDS = ["substitutes", "NAME", "NIL"] as const;
export type ResponseKind = (typeof RESPONSE_KINDS)[number];

export { MAX_PHRASE_LENGTH, MAX_SUBSTITUTES, MAX_SUBSTITUTE_LENGTH } from "../lexsub/substitute-rules";

/** What the workspace sends: the three substitute fields as typed (blank = unfilled). */
export interface ResponseInput {
  kind: string;
  substitutes: string[];
  multiword: boolean;
  phrase?: string;
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

/** The field keys errors are reported under. */
export type { ResponseField };

// ---------------------------------------------------------------------------
// Validation

/**
 * The request's shape (zod), then the rules of lib/lexsub/substitute-rules.ts, the
 * same the workspace checks before sending: each broken rule an issue on its field.
 */
function responseSchema(target: { lemma: string; head: string }) {
  return z
    .object({
      kind: z.enum(RESPONSE_KINDS, { message: "Choose substitutes, NAME or NIL." }),
      substitutes: z.array(z.string({ message: "A substitute must be text." }), { message: "Substitutes must be a list." }).default([]),
      multiword: z.boolean({ message: "Part of a multiword is yes or no." }).default(false),
      phrase: z.string({ message: "The multiword phrase must be text." }).default(""),
    })
    .transform((v, ctx): CleanResponse => {
      const checked = checkResponse(v, target);
      const broken = Object.entries(checked.errors);
      for (const [field, message] of broken) ctx.addIssue({ code: "custom", path: [field], message });
      if (broken.length > 0) return z.NEVER;
      return { kind: v.kind, substitutes: checked.substitutes, multiword: checked.multiword };
    });
}

const FIELDS = new Set<string>(["substitute1", "substitute2", "substitute3", "multiword", "form"]);

/**
 * Check and normalise one response for an instance whose lemma and head word are
 * given. Throws InputError with messages keyed by field (substitute1..3, multiword,
 * form); the message names the first problem.
 */
export function validateResponse(input: unknown, target: { lemma: string; head: string }): CleanResponse {
  const r = responseSchema(target).safeParse(input ?? {});
  if (r.success) return r.data;
  const errors: Record<string, string> = {};
  for (const i of r.error.issues) {
    const key = String(i.path[0] ?? "form");
    errors[FIELDS.has(key) ? key : "form"] ??= i.message;
  }
  throw new InputError(`Not saved: ${Object.values(errors)[0]}`, errors);
}

const saveOptionsSchema = z.object({
  expectedRevision: z.number({ message: "expectedRevision must be a number." }).int().min(0),
  activeMs: z.number().optional().nullable(),
});

// ---------------------------------------------------------------------------
// The queue

/** Only a signed-in person has responses; the CLI (system actor) does not annotate. */
function requireAnnotator(actor: Actor): UserActor {
  const a = requireSignedIn(actor);
  if (a.kind !== "user") throw new AuthError("Only a signed-in user has responses of their own.");
  return a;
}

interface OwnRow {
  instanceRef: number;
  kind: ResponseKind;
  substitutes: string;
  multiword: string | null;
  revision: number;
  updatedAt: Date;
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

interface QueueEntry {
  ref: number;
  lexeltId: number;
  answered: boolean;
}

interface LexeltInfo {
  id: number;
  lemma: string;
  label: string;
}

interface Queue {
  entries: QueueEntry[];
  lexelts: LexeltInfo[];
  own: Map<number, OwnRow>;
}

function othersCount(db: Db, projectId: number, userId: number): Map<number, number> {
  const rows = db
    .select({ instanceRef: responses.instanceRef, n: sql<number>`count(*)` })
    .from(responses)
    .where(and(eq(responses.projectId, projectId), ne(responses.userId, userId)))
    .groupBy(responses.instanceRef)
    .all();
  return new Map(rows.map((r) => [r.instanceRef, r.n]));
}

function loadQueue(db: Db, project: ProjectRow, userId: number): Queue {
  const assigned = assignedLexeltIds(db, project.id, userId);
  const assignedSet = new Set(assigned);
  const lx = db
    .select({ id: lexelts.id, lemma: lexelts.lemma })
    .from(lexelts)
    .where(eq(lexelts.projectId, project.id))
    .orderBy(asc(lexelts.position))
    .all()
    .filter((l) => assignedSet.has(l.id));
  // Annotators never see the PoS, so two lexelts with one lemma (stand.n, stand.v)
  // are told apart by number.
  const perLemma = new Map<string, number>();
  for (const l of lx) perLemma.set(l.lemma, (perLemma.get(l.lemma) ?? 0) + 1);
  const seen = new Map<string, number>();
  const lexeltInfo = lx.map((l) => {
    const k = (seen.get(l.lemma) ?? 0) + 1;
    seen.set(l.lemma, k);
    return { id: l.id, lemma: l.lemma, label: (perLemma.get(l.lemma) ?? 0) > 1 ? `${l.lemma} (${k})` : l.lemma };
  });
  const own = new Map(
    db
      .select({
        instanceRef: responses.instanceRef,
        kind: responses.kind,
        substitutes: responses.substitutes,
        multiword: responses.multiword,
        revision: responses.revision,
        updatedAt: responses.updatedAt,
      })
      .from(responses)
      .where(and(eq(responses.projectId, project.id), eq(responses.userId, userId)))
      .all()
      .map((r) => [r.instanceRef, r] as const),
  );
  const required = project.requiredAnnotators;
  const others = required != null ? othersCount(db, project.id, userId) : null;
  const entries = db
    .select({ ref: instances.id, lexeltId: instances.lexeltId })
    .from(instances)
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .where(eq(instances.projectId, project.id))
    .orderBy(asc(lexelts.position), asc(instances.position), asc(instances.id))
    .all()
    .filter((i) => assignedSet.has(i.lexeltId))
    .map((i) => ({ ...i, answered: own.has(i.ref) }))
    .filter((i) => i.answered || others === null || (others.get(i.ref) ?? 0) < required!);
  return { entries, lexelts: lexeltInfo, own };
}

/** The first unanswered entry after index `from` (exclusive), wrapping round; -1 if none besides `from`. */
function nextUnansweredIndex(entries: QueueEntry[], from: number): number {
  const n = entries.length;
  for (let k = 1; k <= n; k++) {
    const j = (from + k) % n;
    if (j === from) break;
    if (!entries[j].answered) return j;
  }
  return -1;
}

/** Where the annotator left off: the first unanswered after their last saved instance, else the first unanswered. */
function resumeIndex(db: Db, projectId: number, userId: number, entries: QueueEntry[]): number {
  const last = db
    .select({ instanceRef: responseHistory.instanceRef })
    .from(responseHistory)
    .where(and(eq(responseHistory.projectId, projectId), eq(responseHistory.userId, userId)))
    .orderBy(desc(responseHistory.id))
    .limit(1)
    .get();
  const at = last ? entries.findIndex((e) => e.ref === last.instanceRef) : -1;
  if (at >= 0) {
    for (let j = at + 1; j < entries.length; j++) if (!entries[j].answered) return j;
  }
  return entries.findIndex((e) => !e.answered);
}

export interface LexeltProgress {
  lexeltId: number;
  /** The lemma (numbered when two lexelts share it); never the PoS. */
  label: string;
  done: number;
  total: number;
  /** Where to jump for this lexelt: its first unanswered instance, else its first. */
  jumpRef: number;
}

export interface Progress {
  done: number;
  total: number;
  lexelts: LexeltProgress[];
}

function progressOf(q: Queue): Progress {
  // One pass over the queue (it can hold thousands of instances in hundreds of lexelts).
  const byLexelt = new Map<number, { done: number; total: number; first: number; open: number | null }>();
  let done = 0;
  for (const e of q.entries) {
    let g = byLexelt.get(e.lexeltId);
    if (!g) byLexelt.set(e.lexeltId, (g = { done: 0, total: 0, first: e.ref, open: null }));
    g.total++;
    if (e.answered) {
      g.done++;
      done++;
    } else if (g.open === null) g.open = e.ref;
  }
  const lexelts: LexeltProgress[] = [];
  for (const l of q.lexelts) {
    const g = byLexelt.get(l.id);
    if (!g) continue;
    lexelts.push({ lexeltId: l.id, label: l.label, done: g.done, total: g.total, jumpRef: g.open ?? g.first });
  }
  return { done, total: q.entries.length, lexelts };
}

// ---------------------------------------------------------------------------
// Reads

export interface AnnotatorProject {
  id: number;
  name: string;
  done: number;
  total: number;
}

/** The projects the signed-in user belongs to, with their own done / total. */
export function annotatorProjects(db: Db, actor: Actor): AnnotatorProject[] {
  const a = requireAnnotator(actor);
  const rows = db
    .select({ id: projects.id })
    .from(projects)
    .innerJoin(memberships, eq(memberships.projectId, projects.id))
    .where(eq(memberships.userId, a.userId))
    .orderBy(asc(projects.name))
    .all();
  return rows.map((r) => {
    const p = requireProject(db, a, r.id);
    const q = loadQueue(db, p, a.userId);
    return { id: p.id, name: p.name, done: q.entries.filter((e) => e.answered).length, total: q.entries.length };
  });
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
}

export interface WorkspaceView {
  project: { id: number; name: string; guidelines: string };
  /** The instance to show; null when the queue is empty or (on resume) everything is answered. */
  instance: InstanceView | null;
  /** 1-based place of the instance in the queue (0 when there is none). */
  position: number;
  /** The caller's own current response to the instance, if any. */
  response: OwnResponse | null;
  prevRef: number | null;
  nextRef: number | null;
  /** The next unanswered instance after this one (wrapping round), not this one. */
  nextUnansweredRef: number | null;
  progress: Progress;
}

/**
 * One instance of the caller's queue, or (without instanceRef) the one to resume
 * at. Throws NotFoundError for projects the caller is not a member of and for
 * instances outside their queue.
 */
export function workspace(db: Db, actor: Actor, projectId: number, instanceRef?: number): WorkspaceView {
  const a = requireAnnotator(actor);
  const p = requireProject(db, a, projectId);
  const q = loadQueue(db, p, a.userId);
  let index: number;
  if (instanceRef === undefined) {
    index = resumeIndex(db, p.id, a.userId, q.entries);
  } else {
    index = q.entries.findIndex((e) => e.ref === instanceRef);
    if (index < 0) throw new NotFoundError(instanceNotInQueueMessage(db, p, a, instanceRef));
  }
  const base = {
    project: { id: p.id, name: p.name, guidelines: p.guidelines },
    progress: progressOf(q),
  };
  if (index < 0) {
    return { ...base, instance: null, position: 0, response: null, prevRef: null, nextRef: null, nextUnansweredRef: null };
  }
  const entry = q.entries[index];
  const row = db
    .select({ instanceId: instances.instanceId, before: instances.before, head: instances.head, after: instances.after, lemma: lexelts.lemma })
    .from(instances)
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .where(eq(instances.id, entry.ref))
    .get()!;
  const label = q.lexelts.find((l) => l.id === entry.lexeltId)?.label ?? row.lemma;
  const own = q.own.get(entry.ref);
  const nu = nextUnansweredIndex(q.entries, index);
  return {
    ...base,
    instance: { ref: entry.ref, instanceId: row.instanceId, lemma: row.lemma, lexeltLabel: label, before: row.before, head: row.head, after: row.after },
    position: index + 1,
    response: own ? ownView(own) : null,
    prevRef: index > 0 ? q.entries[index - 1].ref : null,
    nextRef: index + 1 < q.entries.length ? q.entries[index + 1].ref : null,
    nextUnansweredRef: nu >= 0 ? q.entries[nu].ref : null,
  };
}

/** Why an instance is not in the caller's queue, without revealing anything they may not see. */
function instanceNotInQueueMessage(db: Db, p: ProjectRow, a: UserActor, instanceRef: number): string {
  const inst = Number.isInteger(instanceRef)
    ? db
        .select({ lexeltId: instances.lexeltId })
        .from(instances)
        .where(and(eq(instances.id, instanceRef), eq(instances.projectId, p.id)))
        .get()
    : undefined;
  if (!inst) return "No such instance in this project.";
  if (!assignedLexeltIds(db, p.id, a.userId).includes(inst.lexeltId)) return "That instance is not assigned to you.";
  return `That instance already has the ${p.requiredAnnotators} responses it needs from other annotators.`;
}

// ---------------------------------------------------------------------------
// Writes

export interface SaveResult {
  revision: number;
  response: OwnResponse;
  /** Where "save and next" goes: the next instance in the queue, else the next unanswered one, else null (all done). */
  next: number | null;
}

/**
 * Save the caller's response to one instance: validated, then in one transaction
 * the current response is inserted or updated (revision + 1) and a history row
 * appended (source "web").
 *
 * expectedRevision is the revision the annotator started from (0 for none): when
 * the stored revision differs (another tab saved in between) nothing is written
 * and a ConflictError carries the stored response. A new response is refused when
 * the instance already has requiredAnnotators responses from others.
 */
export function saveResponse(
  db: Db,
  actor: Actor,
  projectId: number,
  instanceRef: number,
  input: ResponseInput,
  options: { expectedRevision: number; activeMs?: number | null },
): SaveResult {
  const a = requireAnnotator(actor);
  const p = requireProject(db, a, projectId);
  const inst = Number.isInteger(instanceRef)
    ? db
        .select({ ref: instances.id, lexeltId: instances.lexeltId, head: instances.head, lemma: lexelts.lemma })
        .from(instances)
        .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
        .where(and(eq(instances.id, instanceRef), eq(instances.projectId, p.id)))
        .get()
    : undefined;
  if (!inst) throw new NotFoundError("No such instance in this project.");
  if (!assignedLexeltIds(db, p.id, a.userId).includes(inst.lexeltId)) throw new AuthError("That instance is not assigned to you.");
  const clean = validateResponse(input, inst);
  const opts = saveOptionsSchema.safeParse(options ?? {});
  if (!opts.success) throw new InputError(`Not saved: ${opts.error.issues[0].message}`, { form: opts.error.issues[0].message });
  const { expectedRevision } = opts.data;
  const activeMs =
    opts.data.activeMs != null && Number.isFinite(opts.data.activeMs) && opts.data.activeMs >= 0
      ? Math.min(Math.round(opts.data.activeMs), 24 * 3600 * 1000)
      : null;

  const saved = db.transaction(
    (tx) => {
      const cur = tx
        .select()
        .from(responses)
        .where(and(eq(responses.instanceRef, inst.ref), eq(responses.userId, a.userId)))
        .get();
      if (cur && cur.revision !== expectedRevision) {
        throw new ConflictError(
          "This instance was saved elsewhere (another tab or window) since you opened it. Choose which answer to keep.",
          ownView(cur),
        );
      }
      const now = new Date();
      const values = { kind: clean.kind, substitutes: JSON.stringify(clean.substitutes), multiword: clean.multiword, updatedAt: now };
      let row: typeof cur;
      if (cur) {
        row = tx
          .update(responses)
          .set({ ...values, revision: cur.revision + 1 })
          .where(eq(responses.id, cur.id))
          .returning()
          .get();
      } else {
        if (p.requiredAnnotators != null) {
          const n = tx
            .select({ n: sql<number>`count(*)` })
            .from(responses)
            .where(and(eq(responses.instanceRef, inst.ref), ne(responses.userId, a.userId)))
            .get()!.n;
          if (n >= p.requiredAnnotators) {
            const m = `This instance already has the ${p.requiredAnnotators} responses it needs; nothing was saved. Move on to the next one.`;
            throw new InputError(m, { form: m });
          }
        }
        row = tx
          .insert(responses)
          .values({ ...values, projectId: p.id, instanceRef: inst.ref, userId: a.userId, revision: 1, activeMs })
          .returning()
          .get();
      }
      tx.insert(responseHistory)
        .values({
          responseId: row!.id,
          projectId: p.id,
          instanceRef: inst.ref,
          userId: a.userId,
          kind: row!.kind,
          substitutes: row!.substitutes,
          multiword: row!.multiword,
          revision: row!.revision,
          source: "web",
          savedAt: now,
        })
        .run();
      return row!;
    },
    { behavior: "immediate" },
  );

  const q = loadQueue(db, p, a.userId);
  const at = q.entries.findIndex((e) => e.ref === inst.ref);
  let next: number | null = null;
  if (at >= 0 && at + 1 < q.entries.length) next = q.entries[at + 1].ref;
  else {
    const nu = q.entries.findIndex((e) => !e.answered);
    next = nu >= 0 ? q.entries[nu].ref : null;
  }
  return { revision: saved.revision, response: ownView(saved), next };
}
