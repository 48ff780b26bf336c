/**
 * Annotators' flags and notes on instances, and instances a coordinator returns
 * to one annotator with a comment (issue 15).
 *
 * - An annotator flags an instance of their own queue (unsure, typo in the
 *   sentence, target part of a name?, other) and/or leaves a note; saved on its
 *   own (savable without an answer) or with the response (saveResponse calls
 *   writeFlag inside its transaction).
 * - The project's coordinator lists the flags (filtered, paginated in SQL), sees
 *   them beside the answers on the Gold tab, downloads them as TSV.
 * - The coordinator returns one annotator's response with a comment: a row of
 *   returned_items, open until that annotator saves the instance again
 *   (saveResponse resolves it in its transaction and records when and which
 *   revision). Open returns are few and indexed (project, user, resolved_at, id),
 *   so the workspace finds the first one in O(log n).
 *
 * Every exported function taking an actor checks it first; the ones without
 * (writeFlag, instanceMarks, returnsSummary, resolveReturns) are for callers that
 * already did (lib/server/annotate/responses.ts).
 */
import "server-only";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { type Actor, actorUserId, requireProject, requireSignedIn } from "../kernel/actor";
import { AuthError, InputError, NotFoundError } from "../kernel/errors";
import { get, run } from "../kernel/statements";
import { requireOwnBatchItem } from "./participant";
import { neutraliseCell } from "../../lexsub/formats/spreadsheet";
import { assignments, goldReviewLog, instanceFlags, instances, lexelts, memberships, responses, returnedItems, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const ASSIGNMENTS = named(assignments);
const B = named(users, "b");
const F = named(instanceFlags, "f");
const GOLD_REVIEW_LOG = named(goldReviewLog);
const I = named(instances, "i");
const INSTANCES = named(instances);
const INSTANCE_FLAGS = named(instanceFlags);
const L = named(lexelts, "l");
const M = named(memberships, "m");
const R = named(responses, "r");
const RESPONSES = named(responses);
const RETURNED_ITEMS = named(returnedItems);
const R_RETURNED_ITEMS = named(returnedItems, "r");
const T = named(returnedItems, "t");
const U = named(users, "u");

export const FLAG_KINDS = ["unsure", "typo", "name", "other"] as const;
export type FlagKind = (typeof FLAG_KINDS)[number];

/** How each flag reads to people. */
export const FLAG_LABELS: Record<FlagKind, string> = {
  unsure: "Unsure",
  typo: "Typo in the sentence",
  name: "Target is part of a name?",
  other: "Other",
};

const MAX_NOTE_LENGTH = 1000;
const MAX_COMMENT_LENGTH = 1000;
const FLAGS_PAGE_SIZE = 50;

/** An annotator's flag and note on one instance (null flag = none, "" = no note). */
export interface FlagNote {
  flag: FlagKind | null;
  note: string;
}

const flagSchema = z.object({
  flag: z.enum(FLAG_KINDS, { message: `The flag is one of ${FLAG_KINDS.join(", ")}, or none.` }).nullable().default(null),
  note: z
    .string({ message: "The note must be text." })
    .default("")
    .transform((s) => s.replace(/\r\n?/g, "\n").trim())
    .refine((s) => s.length <= MAX_NOTE_LENGTH, `The note is at most ${MAX_NOTE_LENGTH} characters.`),
});

/** Check a flag and note as sent; InputError keyed "flag" or "note". */
export function validateFlag(input: unknown): FlagNote {
  const r = flagSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  const i = r.error.issues[0];
  const field = i.path[0] === "note" ? "note" : "flag";
  throw new InputError(`Not saved: ${i.message}`, { [field]: i.message });
}

/** Store the flag and note (no checks: the caller checked who asks and the instance; call inside its transaction). */
export function writeFlag(db: Pick<Db, "$client">, projectId: number, instanceRef: number, userId: number, v: FlagNote, now = Date.now()): void {
  run(
    db,
    `insert into ${INSTANCE_FLAGS.$} (${INSTANCE_FLAGS.projectId}, ${INSTANCE_FLAGS.instanceRef}, ${INSTANCE_FLAGS.userId}, ${INSTANCE_FLAGS.flag}, ${INSTANCE_FLAGS.note}, ${INSTANCE_FLAGS.updatedAt}) values (?, ?, ?, ?, ?, ?)
     on conflict (${INSTANCE_FLAGS.instanceRef}, ${INSTANCE_FLAGS.userId}) do update set ${INSTANCE_FLAGS.flag} = excluded.${INSTANCE_FLAGS.flag}, ${INSTANCE_FLAGS.note} = excluded.${INSTANCE_FLAGS.note}, ${INSTANCE_FLAGS.updatedAt} = excluded.${INSTANCE_FLAGS.updatedAt}`,
    projectId,
    instanceRef,
    userId,
    v.flag,
    v.note,
    now,
  );
}

/**
 * How many instances are returned to the annotator and open, and the first (oldest)
 * one (no checks): one statement on the returned_items_open index (an instance
 * has at most one open return: returning it again supersedes the open one).
 */
export function returnsSummary(db: Pick<Db, "$client">, projectId: number, userId: number): { count: number; firstRef: number | null } {
  // SQLite: with min(), the bare column comes from the row holding the minimum.
  const r = get<{ n: number; ref: number | null }>(
    db,
    `select count(*) as n, min(${RETURNED_ITEMS.id}) as first, ${RETURNED_ITEMS.instanceRef} as ref from ${RETURNED_ITEMS.$} where ${RETURNED_ITEMS.projectId} = ? and ${RETURNED_ITEMS.userId} = ? and ${RETURNED_ITEMS.resolvedAt} is null`,
    projectId,
    userId,
  )!;
  return { count: r.n, firstRef: r.n > 0 ? r.ref : null };
}

/** The annotator's flag and note on an instance and its open return's comment, in one statement (no checks). */
export function instanceMarks(db: Pick<Db, "$client">, instanceRef: number, userId: number): { flag: FlagNote; returnComment: string | null } {
  const r = get<{ flag: FlagKind | null; note: string | null; comment: string | null }>(
    db,
    // Through the instance's primary key, so every step is an indexed search.
    `select ${F.flag} as flag, ${F.note} as note,
       (select ${T.comment} from ${T.$} where ${T.instanceRef} = ${I.id} and ${T.userId} = ? and ${T.resolvedAt} is null order by ${T.id} desc limit 1) as comment
     from ${I.$} left join ${F.$} on ${F.instanceRef} = ${I.id} and ${F.userId} = ? where ${I.id} = ?`,
    userId,
    userId,
    instanceRef,
  );
  if (!r) return { flag: { flag: null, note: "" }, returnComment: null };
  return { flag: { flag: r.flag ?? null, note: r.note ?? "" }, returnComment: r.comment };
}

/** In the save's transaction: the annotator answered the instance again, so its open returns are resolved. How many were. */
export function resolveReturns(db: Pick<Db, "$client">, instanceRef: number, userId: number, revision: number, now: number): number {
  return run(
    db,
    `update ${RETURNED_ITEMS.$} set ${RETURNED_ITEMS.resolvedAt} = ?, ${RETURNED_ITEMS.resolvedRevision} = ? where ${RETURNED_ITEMS.instanceRef} = ? and ${RETURNED_ITEMS.userId} = ? and ${RETURNED_ITEMS.resolvedAt} is null`,
    now,
    revision,
    instanceRef,
    userId,
  );
}

/** The instance of the project, if it is the annotator's (their lexelts, or all when they have no assignments). */
function ownInstance(db: Db, projectId: number, userId: number, instanceRef: number): { ref: number; lexeltId: number } {
  const inst = Number.isInteger(instanceRef)
    ? get<{ ref: number; lexeltId: number }>(db, `select ${INSTANCES.id} as ref, ${INSTANCES.lexeltId} as lexeltId from ${INSTANCES.$} where ${INSTANCES.id} = ? and ${INSTANCES.projectId} = ?`, instanceRef, projectId)
    : undefined;
  if (!inst) throw new NotFoundError("No such instance in this project.");
  const restricted = get(db, `select 1 as x from ${ASSIGNMENTS.$} where ${ASSIGNMENTS.projectId} = ? and ${ASSIGNMENTS.userId} = ? limit 1`, projectId, userId) !== undefined;
  if (restricted && !get(db, `select 1 as x from ${ASSIGNMENTS.$} where ${ASSIGNMENTS.projectId} = ? and ${ASSIGNMENTS.userId} = ? and ${ASSIGNMENTS.lexeltId} = ?`, projectId, userId, inst.lexeltId)) {
    throw new AuthError("That instance is not assigned to you.");
  }
  return inst;
}

/**
 * The signed-in annotator flags an instance of their queue and/or notes something
 * on it, with or without an answer; a null flag and an empty note clear both.
 */
export function saveFlag(db: Db, actor: Actor, projectId: number, instanceRef: number, input: unknown): FlagNote {
  const a = requireSignedIn(actor);
  if (a.kind !== "user") throw new AuthError("Only a signed-in user has flags of their own.");
  const p = requireProject(db, a, projectId, { annotate: true });
  const inst = ownInstance(db, p.id, a.userId, instanceRef);
  // A study participant flags the items of their batch only.
  requireOwnBatchItem(db, a, inst.ref);
  const v = validateFlag(input);
  db.transaction(() => writeFlag(db, p.id, inst.ref, a.userId, v), { behavior: "immediate" });
  return v;
}

// ---------------------------------------------------------------------------
// The coordinator's side

interface FlagRow {
  annotator: string;
  lexelt: string;
  instanceId: string;
  flag: FlagKind | null;
  note: string;
  /** The annotator's answer as in the responses TSV (NAME, NIL, a;b;c), or null without one. */
  answer: string | null;
  /** The same as a list, to show (the substitutes, or [NAME] / [NIL]); null without an answer. */
  answers: string[] | null;
  updatedAt: Date;
}

export interface FlagQuery {
  flag?: string;
  lexelt?: string;
  annotator?: string;
  page?: unknown;
}

export interface FlagPage {
  rows: FlagRow[];
  total: number;
  page: number;
  pages: number;
  pageSize: number;
  start: number;
  /** The filters' choices: the project's lexelts and annotators that have flags or notes. */
  lexelts: string[];
  annotators: string[];
}

const FLAGGED = `(${F.flag} is not null or ${F.note} <> '')`;

function flagWhere(projectId: number, q: FlagQuery): [string, unknown[]] {
  const parts = [`${F.projectId} = ?`, FLAGGED];
  const params: unknown[] = [projectId];
  if (q.flag) {
    if (q.flag === "note") parts.push(`${F.note} <> ''`);
    else if ((FLAG_KINDS as readonly string[]).includes(q.flag)) {
      parts.push(`${F.flag} = ?`);
      params.push(q.flag);
    } else throw new InputError(`Unknown flag "${q.flag}": the flags are ${FLAG_KINDS.join(", ")} (or "note").`, { flag: "Unknown flag." });
  }
  if (q.lexelt) {
    parts.push(`${L.item} = ?`);
    params.push(q.lexelt);
  }
  if (q.annotator) {
    parts.push(`${U.name} = ?`);
    params.push(q.annotator);
  }
  return [parts.join(" and "), params];
}

const FLAG_FROM = `from ${F.$} join ${I.$} on ${I.id} = ${F.instanceRef} join ${L.$} on ${L.id} = ${I.lexeltId} join ${U.$} on ${U.id} = ${F.userId}
  left join ${R.$} on ${R.instanceRef} = ${F.instanceRef} and ${R.userId} = ${F.userId}`;

interface RawFlag {
  annotator: string;
  lexelt: string;
  instanceId: string;
  flag: FlagKind | null;
  note: string;
  kind: string | null;
  substitutes: string | null;
  updatedAt: number;
}

const FLAG_SELECT = `select ${U.name} as annotator, ${L.item} as lexelt, ${I.instanceId} as instanceId, ${F.flag} as flag, ${F.note} as note,
  ${R.kind} as kind, ${R.substitutes} as substitutes, ${F.updatedAt} as updatedAt`;

function asFlagRow(r: RawFlag): FlagRow {
  const answers = r.kind === null ? null : r.kind === "substitutes" ? (JSON.parse(r.substitutes ?? "[]") as string[]) : [r.kind];
  const answer = answers === null ? null : answers.join(";");
  return { annotator: r.annotator, lexelt: r.lexelt, instanceId: r.instanceId, flag: r.flag, note: r.note, answer, answers, updatedAt: new Date(r.updatedAt) };
}

/** One page of the project's flags and notes, newest first, filtered by flag kind ("note": any note), lexelt item and annotator name. */
export function listFlags(db: Db, actor: Actor, projectId: number, q: FlagQuery = {}): FlagPage {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const [where, params] = flagWhere(p.id, q);
  const total = db.$client.prepare(`select count(*) as n ${FLAG_FROM} where ${where}`).get(...params) as { n: number };
  const pages = Math.max(1, Math.ceil(total.n / FLAGS_PAGE_SIZE));
  const n = Number(q.page);
  const page = Math.min(Number.isFinite(n) && n >= 1 ? Math.floor(n) : 1, pages);
  const start = (page - 1) * FLAGS_PAGE_SIZE;
  const rows = db.$client
    .prepare(`${FLAG_SELECT} ${FLAG_FROM} where ${where} order by ${F.updatedAt} desc, ${F.instanceRef}, ${U.name} limit ? offset ?`)
    .all(...params, FLAGS_PAGE_SIZE, start) as RawFlag[];
  const lexelts = db.$client
    .prepare(
      `select distinct ${L.item} as v, ${L.position} from ${F.$} join ${I.$} on ${I.id} = ${F.instanceRef} join ${L.$} on ${L.id} = ${I.lexeltId}
       where ${F.projectId} = ? and ${FLAGGED} order by ${L.position}`,
    )
    .all(p.id) as { v: string }[];
  const annotators = db.$client
    .prepare(`select distinct ${U.name} as v from ${F.$} join ${U.$} on ${U.id} = ${F.userId} where ${F.projectId} = ? and ${FLAGGED} order by ${U.name}`)
    .all(p.id) as { v: string }[];
  return {
    rows: rows.map(asFlagRow),
    total: total.n,
    page,
    pages,
    pageSize: FLAGS_PAGE_SIZE,
    start,
    lexelts: lexelts.map((r) => r.v),
    annotators: annotators.map((r) => r.v),
  };
}

/** The ids (as in the lexelt file) of the project's instances some annotator flagged, optionally with one flag kind: for the review queue's filter. */
export function flaggedInstanceIds(db: Db, actor: Actor, projectId: number, flag?: FlagKind): string[] {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const rows = db.$client
    .prepare(
      `select distinct ${I.instanceId} as id from ${F.$} join ${I.$} on ${I.id} = ${F.instanceRef}
       where ${F.projectId} = ? and ${flag ? "f.flag = ?" : "f.flag is not null"} order by ${I.id}`,
    )
    .all(...(flag ? [p.id, flag] : [p.id])) as { id: string }[];
  return rows.map((r) => r.id);
}

/** What the Gold tab shows beside one annotator's answer. */
export interface AnnotatorNote {
  flag: FlagKind | null;
  note: string;
  /** The open return's comment, if the instance is returned to them and not answered again yet. */
  returned: string | null;
}

/** Flags, notes and open returns of some instances (ids as in the file), by instance id then annotator name. */
export function instanceNotes(db: Db, actor: Actor, projectId: number, instanceIds: readonly string[]): Map<string, Map<string, AnnotatorNote>> {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const out = new Map<string, Map<string, AnnotatorNote>>();
  if (instanceIds.length === 0) return out;
  const ids = [...new Set(instanceIds)].slice(0, 1000);
  const marks = ids.map(() => "?").join(", ");
  const at = (id: string, name: string): AnnotatorNote => {
    let m = out.get(id);
    if (!m) out.set(id, (m = new Map()));
    let v = m.get(name);
    if (!v) m.set(name, (v = { flag: null, note: "", returned: null }));
    return v;
  };
  const flags = db.$client
    .prepare(
      `select ${I.instanceId} as id, ${U.name} as name, ${F.flag} as flag, ${F.note} as note from ${F.$} join ${I.$} on ${I.id} = ${F.instanceRef}
       join ${U.$} on ${U.id} = ${F.userId} where ${I.projectId} = ? and ${I.instanceId} in (${marks}) and ${FLAGGED}`,
    )
    .all(p.id, ...ids) as { id: string; name: string; flag: FlagKind | null; note: string }[];
  for (const f of flags) Object.assign(at(f.id, f.name), { flag: f.flag, note: f.note });
  const returns = db.$client
    .prepare(
      `select ${I.instanceId} as id, ${U.name} as name, ${T.comment} as comment from ${T.$} join ${I.$} on ${I.id} = ${T.instanceRef}
       join ${U.$} on ${U.id} = ${T.userId} where ${I.projectId} = ? and ${I.instanceId} in (${marks}) and ${T.resolvedAt} is null order by ${T.id}`,
    )
    .all(p.id, ...ids) as { id: string; name: string; comment: string }[];
  for (const r of returns) at(r.id, r.name).returned = r.comment;
  return out;
}

/** The flags and notes of the project's instances by instance ref and user id, for the responses TSV export (coordinator; O(flags)). */
export function flagsByResponse(db: Db, actor: Actor, projectId: number): Map<string, FlagNote> {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const rows = db.$client
    .prepare(
      `select ${U.name} as name, ${I.instanceId} as id, ${F.flag} as flag, ${F.note} as note from ${F.$} join ${I.$} on ${I.id} = ${F.instanceRef}
       join ${U.$} on ${U.id} = ${F.userId} where ${F.projectId} = ? and ${FLAGGED}`,
    )
    .all(p.id) as { name: string; id: string; flag: FlagKind | null; note: string }[];
  return new Map(rows.map((r) => [`${r.name}\t${r.id}`, { flag: r.flag, note: r.note }]));
}

const FLAG_TSV_COLUMNS = ["annotator", "lexelt", "instance", "flag", "note", "answer", "updated"] as const;

/** A TSV cell: one line, no tabs, safe in a spreadsheet. */
function tsvCell(s: string): string {
  return neutraliseCell(s.replace(/[\t\r\n]+/g, " "));
}

/** Every flag and note of the project as TSV, in corpus order then by annotator (coordinator). */
export function flagsTsv(db: Db, actor: Actor, projectId: number): string {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const rows = (
    db.$client.prepare(`${FLAG_SELECT} ${FLAG_FROM} where ${F.projectId} = ? and ${FLAGGED} order by ${L.position}, ${I.position}, ${I.id}, ${U.name}`).all(p.id) as RawFlag[]
  ).map(asFlagRow);
  const lines = [FLAG_TSV_COLUMNS.join("\t")];
  for (const r of rows) {
    lines.push(
      [r.annotator, r.lexelt, r.instanceId, r.flag ?? "", r.note.replace(/\n/g, " "), r.answer ?? "", r.updatedAt.toISOString()].map(tsvCell).join("\t"),
    );
  }
  return lines.join("\n") + "\n";
}

const returnSchema = z.object({
  instanceId: z.string({ message: "Name the instance." }).trim().min(1, "Name the instance."),
  annotator: z.string({ message: "Name the annotator." }).trim().min(1, "Choose the annotator."),
  comment: z
    .string({ message: "The comment must be text." })
    .transform((s) => s.replace(/\r\n?/g, "\n").trim())
    .refine((s) => s.length > 0, "Write a comment: what should the annotator look at again?")
    .refine((s) => s.length <= MAX_COMMENT_LENGTH, `The comment is at most ${MAX_COMMENT_LENGTH} characters.`),
});

/**
 * Withdraw an open return (the coordinator's undo): the item leaves the
 * annotator's "returned" list, their answer stays as it is, and the review log
 * says so. Refused when nothing is open for that instance and annotator.
 */
export function withdrawReturn(db: Db, actor: Actor, projectId: number, input: { instanceId?: unknown; annotator?: unknown }): { instanceId: string; annotator: string } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const instanceId = String(input.instanceId ?? "").trim();
  const annotator = String(input.annotator ?? "").trim();
  const open = get<{ id: number; comment: string }>(
    db,
    `select ${R_RETURNED_ITEMS.id} as id, ${R_RETURNED_ITEMS.comment} as comment from ${R_RETURNED_ITEMS.$}
       join ${I.$} on ${I.id} = ${R_RETURNED_ITEMS.instanceRef} join ${U.$} on ${U.id} = ${R_RETURNED_ITEMS.userId}
      where ${R_RETURNED_ITEMS.projectId} = ? and ${I.instanceId} = ? and ${U.name} = ? and ${R_RETURNED_ITEMS.resolvedAt} is null`,
    p.id,
    instanceId,
    annotator,
  );
  if (!open) throw new NotFoundError(`No open return of "${instanceId.slice(0, 60)}" to "${annotator.slice(0, 60)}" in this project.`);
  const by = actorUserId(requireSignedIn(actor));
  db.transaction(
    () => {
      const now = Date.now();
      run(db, `update ${RETURNED_ITEMS.$} set ${RETURNED_ITEMS.resolvedAt} = ? where ${RETURNED_ITEMS.id} = ? and ${RETURNED_ITEMS.resolvedAt} is null`, now, open.id);
      run(
        db,
        `insert into ${GOLD_REVIEW_LOG.$} (${GOLD_REVIEW_LOG.projectId}, ${GOLD_REVIEW_LOG.kind}, ${GOLD_REVIEW_LOG.target}, ${GOLD_REVIEW_LOG.value}, ${GOLD_REVIEW_LOG.userId}, ${GOLD_REVIEW_LOG.at}) values (?, 'return', ?, ?, ?, ?)`,
        p.id,
        instanceId,
        JSON.stringify({ annotator, comment: open.comment, withdrawn: true }),
        by,
        now,
      );
    },
    { behavior: "immediate" },
  );
  return { instanceId, annotator };
}

/**
 * The project's coordinator returns one annotator's response to an instance with a
 * comment: it comes first in that annotator's workspace, with the comment shown,
 * until they save it again. Returning it again while open replaces nothing: the
 * newest comment is shown, every return stays recorded.
 */
export function returnInstance(db: Db, actor: Actor, projectId: number, input: unknown): { instanceId: string; annotator: string } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const r = returnSchema.safeParse(input ?? {});
  if (!r.success) {
    const i = r.error.issues[0];
    throw new InputError(`Not returned: ${i.message}`, { [String(i.path[0] ?? "comment")]: i.message });
  }
  const { instanceId, annotator, comment } = r.data;
  const inst = get<{ ref: number; inQueue: number }>(
    db,
    `select ${INSTANCES.id} as ref, ${INSTANCES.inQueue} as inQueue from ${INSTANCES.$} where ${INSTANCES.projectId} = ? and ${INSTANCES.instanceId} = ?`,
    p.id,
    instanceId,
  );
  if (!inst) throw new NotFoundError(`No instance "${instanceId}" in this project.`);
  if (inst.inQueue !== 1) throw new InputError(`${instanceId} is a training item left out of the queue: it cannot be answered again there.`, { instanceId: "A training item." });
  const user = get<{ id: number }>(
    db,
    `select ${U.id} as id from ${U.$} join ${M.$} on ${M.userId} = ${U.id} and ${M.projectId} = ? where ${U.name} = ?`,
    p.id,
    annotator,
  );
  if (!user) throw new NotFoundError(`No annotator "${annotator}" in this project.`);
  const hasResponse = get(db, `select 1 as x from ${RESPONSES.$} where ${RESPONSES.instanceRef} = ? and ${RESPONSES.userId} = ?`, inst.ref, user.id);
  if (!hasResponse) throw new InputError(`${annotator} has not answered ${instanceId}: there is nothing to return.`, { annotator: "No answer to return." });
  const by = actorUserId(requireSignedIn(actor));
  db.transaction(
    () => {
      const now = Date.now();
      // An open return of the same instance is superseded (closed without a revision): one open return per instance.
      run(db, `update ${RETURNED_ITEMS.$} set ${RETURNED_ITEMS.resolvedAt} = ? where ${RETURNED_ITEMS.instanceRef} = ? and ${RETURNED_ITEMS.userId} = ? and ${RETURNED_ITEMS.resolvedAt} is null`, now, inst.ref, user.id);
      run(
        db,
        `insert into ${RETURNED_ITEMS.$} (${RETURNED_ITEMS.projectId}, ${RETURNED_ITEMS.instanceRef}, ${RETURNED_ITEMS.userId}, ${RETURNED_ITEMS.comment}, ${RETURNED_ITEMS.returnedBy}, ${RETURNED_ITEMS.returnedAt}) values (?, ?, ?, ?, ?, ?)`,
        p.id,
        inst.ref,
        user.id,
        comment,
        by,
        now,
      );
      // The coordinator's decision goes in the review log too, beside the adjudications.
      run(
        db,
        `insert into ${GOLD_REVIEW_LOG.$} (${GOLD_REVIEW_LOG.projectId}, ${GOLD_REVIEW_LOG.kind}, ${GOLD_REVIEW_LOG.target}, ${GOLD_REVIEW_LOG.value}, ${GOLD_REVIEW_LOG.userId}, ${GOLD_REVIEW_LOG.at}) values (?, 'return', ?, ?, ?, ?)`,
        p.id,
        instanceId,
        JSON.stringify({ annotator, comment }),
        by,
        now,
      );
    },
    { behavior: "immediate" },
  );
  return { instanceId, annotator };
}

export interface ReturnLogEntry {
  /** The lexelt item as loaded (bright.a). */
  lexelt: string;
  instanceId: string;
  annotator: string;
  comment: string;
  by: string | null;
  returnedAt: Date;
  /** When the annotator saved it again (resolvedRevision set), or when a newer return superseded it (resolvedRevision null). */
  resolvedAt: Date | null;
  resolvedRevision: number | null;
}

/** Every return of the project, newest first (coordinator): who returned what to whom, and when it was answered again. */
export function returnLog(db: Db, actor: Actor, projectId: number, limit = 200): ReturnLogEntry[] {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const rows = db.$client
    .prepare(
      `select ${L.item} as lexelt, ${I.instanceId} as instanceId, ${U.name} as annotator, ${T.comment} as comment, ${B.name} as by, ${T.returnedAt} as returnedAt,
        ${T.resolvedAt} as resolvedAt, ${T.resolvedRevision} as resolvedRevision
       from ${T.$} join ${I.$} on ${I.id} = ${T.instanceRef} join ${L.$} on ${L.id} = ${I.lexeltId} join ${U.$} on ${U.id} = ${T.userId} left join ${B.$} on ${B.id} = ${T.returnedBy}
       where ${T.projectId} = ? order by ${T.id} desc limit ?`,
    )
    .all(p.id, Math.max(1, Math.min(1000, Math.floor(limit) || 200))) as (Omit<ReturnLogEntry, "returnedAt" | "resolvedAt"> & {
    returnedAt: number;
    resolvedAt: number | null;
  })[];
  return rows.map((r) => ({ ...r, returnedAt: new Date(r.returnedAt), resolvedAt: r.resolvedAt === null ? null : new Date(r.resolvedAt) }));
}
