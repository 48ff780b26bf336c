/**
 * The queue as responses.ts asks it, for everyone: an annotator's is queue.ts (never read
 * whole, costs as it says there); a study participant's (users.role "participant", issue #32)
 * is their batch — their batch_items rows not released, in `position` order — read whole once
 * per request (a batch is a few dozen rows) and answered from memory.
 *
 * Every function has queue.ts's signature: for a scope without `batch` it is queue.ts's own,
 * so an ordinary annotator pays one property test and no query more. The participant's checks
 * (their state, the study's, a released place) and their time on task are participant.ts.
 *
 * No checks of who asks here: responses.ts checks first.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { batchItems, instances, lexelts, participants, responses, studies } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import type { UserActor } from "../kernel/actor";
import { all, get } from "../kernel/statements";
import * as q from "./queue";
import type { Entry, LexeltRow, QueueScope as AnnotatorScope } from "./queue";

export { countNewResponse, lexeltRow } from "./queue";
export type { Entry } from "./queue";

const [B, I, L, R, PA, ST] = [named(batchItems, "b"), named(instances, "i"), named(lexelts, "l"), named(responses, "r"), named(participants, "pa"), named(studies, "st")];

export type ParticipantState = (typeof participants.$inferSelect)["state"];
export type StudyState = (typeof studies.$inferSelect)["state"];

interface BatchItem extends Entry {
  lemma: string;
  answered: boolean;
}

/** A participant's batch as read at the start of the request. */
export interface Batch {
  participantId: number;
  studyId: number;
  state: ParticipantState;
  studyState: StudyState;
  /** The items still theirs, in batch order. */
  items: BatchItem[];
  /** Index in `items` by instance ref. */
  index: Map<number, number>;
  /** Refs of the items released (their places went to others). */
  released: Set<number>;
  /** Set by the save that answered the batch's last item (participant.ts). */
  finishedNow?: boolean;
}

export type QueueScope = AnnotatorScope & { batch?: Batch };

interface BatchRow {
  ref: number;
  lexeltId: number;
  lexeltPosition: number;
  position: number;
  lemma: string;
  answered: number;
  released: number;
}

/** The participant's row and their batch: two indexed reads (participants.user_id, the batch_items key). */
function loadBatch(db: Db, userId: number): Batch {
  const p = get<{ id: number; studyId: number; state: ParticipantState; studyState: StudyState }>(
    db,
    `select ${PA.id} as id, ${PA.studyId} as studyId, ${PA.state} as state, ${ST.state} as studyState from ${PA.$} join ${ST.$} on ${ST.id} = ${PA.studyId} where ${PA.userId} = ?`,
    userId,
  );
  // A participant account without its participants row (never made so, or the study deleted): an empty batch.
  if (!p) return { participantId: 0, studyId: 0, state: "active", studyState: "closed", items: [], index: new Map(), released: new Set() };
  const rows = all<BatchRow>(
    db,
    `select ${B.instanceRef} as ref, ${I.lexeltId} as lexeltId, ${L.position} as lexeltPosition, ${I.position} as position, ${L.lemma} as lemma,
       exists (select 1 from ${R.$} where ${R.instanceRef} = ${B.instanceRef} and ${R.userId} = ?) as answered, ${B.releasedAt} is not null as released
     from ${B.$} join ${I.$} on ${I.id} = ${B.instanceRef} join ${L.$} on ${L.id} = ${I.lexeltId}
     where ${B.participantId} = ? order by ${B.position}, ${B.instanceRef}`,
    userId,
    p.id,
  );
  const items: BatchItem[] = [];
  const released = new Set<number>();
  for (const r of rows) {
    if (r.released) released.add(r.ref);
    else items.push({ ref: r.ref, lexeltId: r.lexeltId, lexeltPosition: r.lexeltPosition, position: r.position, lemma: r.lemma, answered: r.answered === 1 });
  }
  return { participantId: p.id, studyId: p.studyId, state: p.state, studyState: p.studyState, items, index: new Map(items.map((it, i) => [it.ref, i])), released };
}

/** The caller's queue scope: their batch for a participant, else queue.ts's (one lookup, as before). */
export function queueScope(db: Db, projectId: number, a: UserActor, required: number | null): QueueScope {
  if (a.role !== "participant") return q.queueScope(db, projectId, a.userId, required);
  // A batch is theirs whole: no lexelt restriction, no "closed" instances (the overlap is the study's).
  return { projectId, userId: a.userId, required: null, restricted: false, batch: loadBatch(db, a.userId) };
}

const entry = (it: BatchItem): Entry => ({ ref: it.ref, lexeltId: it.lexeltId, lexeltPosition: it.lexeltPosition, position: it.position });

export function step(db: Db, s: QueueScope, from: Entry | null, dir: 1 | -1, filter: "open" | "unanswered" = "open"): Entry | null {
  const b = s.batch;
  if (!b) return q.step(db, s, from, dir, filter);
  let i = from ? (b.index.get(from.ref) ?? (dir > 0 ? b.items.length : -1)) : dir > 0 ? -1 : b.items.length;
  for (i += dir; i >= 0 && i < b.items.length; i += dir) {
    if (filter === "open" || !b.items[i].answered) return entry(b.items[i]);
  }
  return null;
}

export function nextUnanswered(db: Db, s: QueueScope, from: Entry | null): Entry | null {
  if (!s.batch) return q.nextUnanswered(db, s, from);
  const after = step(db, s, from, 1, "unanswered");
  if (after || !from) return after;
  const first = step(db, s, null, 1, "unanswered");
  return first && first.ref !== from.ref ? first : null;
}

export function entryOf(db: Db, s: QueueScope, ref: number): Entry | null {
  const b = s.batch;
  if (!b) return q.entryOf(db, s, ref);
  const i = b.index.get(ref);
  return i === undefined ? null : entry(b.items[i]);
}

export function positionOf(db: Db, s: QueueScope, e: Entry): number {
  const b = s.batch;
  if (!b) return q.positionOf(db, s, e);
  return (b.index.get(e.ref) ?? 0) + 1;
}

export function totals(db: Db, s: QueueScope): { done: number; total: number } {
  const b = s.batch;
  if (!b) return q.totals(db, s);
  return { done: b.items.filter((it) => it.answered).length, total: b.items.length };
}

export function lexeltTotals(db: Db, s: QueueScope, l: LexeltRow): { done: number; total: number } {
  const b = s.batch;
  if (!b) return q.lexeltTotals(db, s, l);
  const mine = b.items.filter((it) => it.lexeltId === l.id);
  return { done: mine.filter((it) => it.answered).length, total: mine.length };
}

export function jumpEntry(db: Db, s: QueueScope, l: { id: number; position: number }): Entry | null {
  const b = s.batch;
  if (!b) return q.jumpEntry(db, s, l);
  const mine = b.items.filter((it) => it.lexeltId === l.id);
  const it = mine.find((x) => !x.answered) ?? mine[0];
  return it ? entry(it) : null;
}

/** The batch's lexelts in corpus order, each with the batch's items of it as its instance count. */
export function assignedLexelts(db: Db, s: QueueScope): LexeltRow[] {
  const b = s.batch;
  if (!b) return q.assignedLexelts(db, s);
  const count = new Map<number, number>();
  for (const it of b.items) count.set(it.lexeltId, (count.get(it.lexeltId) ?? 0) + 1);
  return [...count]
    .map(([id, n]) => ({ ...q.lexeltRow(db, id), instanceCount: n }))
    .sort((x, y) => x.position - y.position);
}

export function doneByLexelt(db: Db, s: QueueScope): Map<number, number> {
  const b = s.batch;
  if (!b) return q.doneByLexelt(db, s);
  const m = new Map<number, number>();
  for (const it of b.items) if (it.answered) m.set(it.lexeltId, (m.get(it.lexeltId) ?? 0) + 1);
  return m;
}

export function closedByLexelt(db: Db, s: QueueScope): Map<number, number> {
  return s.batch ? new Map() : q.closedByLexelt(db, s);
}

/** The lemma, numbered when several lexelts of the batch share it (as queue.ts numbers an annotator's). */
export function lexeltLabel(db: Db, s: QueueScope, l: LexeltRow): string {
  const b = s.batch;
  if (!b) return q.lexeltLabel(db, s, l);
  const same = new Map<number, number>();
  for (const it of b.items) if (it.lemma === l.lemma) same.set(it.lexeltId, it.lexeltPosition);
  if (same.size <= 1) return l.lemma;
  return `${l.lemma} (${[...same.values()].filter((p) => p <= l.position).length})`;
}

export function lexeltCountUpTo(db: Db, s: QueueScope, cap: number): number {
  const b = s.batch;
  if (!b) return q.lexeltCountUpTo(db, s, cap);
  return Math.min(new Set(b.items.map((it) => it.lexeltId)).size, cap);
}
