/**
 * An annotator's queue without reading it: every question the workspace asks
 * (where is this instance, what comes before and after it, the next unanswered
 * one, how many are done) is one or a few indexed lookups, or a counter kept in
 * the transaction that adds a response.
 *
 * The queue of an annotator in a project: the instances of the lexelts assigned
 * to them, lexelts in corpus order (lexelts.position), instances in corpus order
 * (instances.position, then id), minus the instances that already have
 * requiredAnnotators responses from others while the annotator has none ("closed"),
 * minus the instances out of the queue (instances.in_queue = 0: the training items,
 * unless the project keeps them in; syncTrainingQueue below).
 *
 * Costs, n = instances in the project:
 * - a step (previous / next entry, a lexelt's counts, the default progress and
 *   position): O(log n) plus the size of one lexelt;
 * - the next unanswered entry: O(log n) per lexelt it passes that is complete
 *   for the annotator (those are skipped on the counters, not read);
 * - an annotator restricted to some lexelts: also O(their lexelts) for totals and
 *   positions (sums over the assignment rows);
 * - a project with requiredAnnotators: totals and positions subtract the closed
 *   instances, counted over the project's responses (O(responses)): the people's, never a model's
 *   (lib/server/kernel/model-users.ts).
 *
 * No checks here: callers (lib/server/annotate/responses.ts) check who asks first.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { setInstancesBefore } from "../corpus/lexelt-import";
import { all, get, prepared } from "../kernel/statements";
import { MODEL_USERS_SQL } from "../kernel/model-users";
import { annotatorCounts, assignments, instances, knownAnswers, lexelts, projects, queueCounts, responses, returnedItems } from "../../../db/schema";
import { named } from "../../../db/sql-names";

// Tables and columns for the SQL texts below (aliases as the statements use them).
const [A, I, I2, L, Q, R] = [named(assignments, "a"), named(instances, "i"), named(instances, "i2"), named(lexelts, "l"), named(queueCounts, "q"), named(responses, "r")];
const [AS, AC, LX, QC] = [named(assignments), named(annotatorCounts), named(lexelts), named(queueCounts)];
const LXQ = named(lexelts, "lexelts");
const [IN, K, P, QCQ, RI] = [named(instances), named(knownAnswers, "k"), named(projects), named(queueCounts, "queue_counts"), named(returnedItems)];

export interface QueueScope {
  projectId: number;
  userId: number;
  /** projects.requiredAnnotators: instances with that many responses from others leave the queues of those who have none. */
  required: number | null;
  /** Whether the annotator has assignment rows (else every lexelt is theirs). */
  restricted: boolean;
}

/** One queue entry, with what ordering needs. */
export interface Entry {
  ref: number;
  lexeltId: number;
  lexeltPosition: number;
  position: number;
}

export interface LexeltRow {
  id: number;
  position: number;
  lemma: string;
  instanceCount: number;
  instancesBefore: number;
}

type Filter = "open" | "unanswered";

// The queue's sizes: the instances out of the queue taken off (lexelts.instance_count keeps counting the corpus).
const QUEUED = `(${L.instanceCount} - ${L.outOfQueue})`;
const LEXELT_COLUMNS = `${L.id} as id, ${L.position} as position, ${L.lemma} as lemma, ${QUEUED} as instanceCount, ${L.instancesBefore} - ${L.outOfQueueBefore} as instancesBefore`;

export function queueScope(db: Db, projectId: number, userId: number, required: number | null): QueueScope {
  const restricted = get(db, `select 1 as x from ${AS.$} where ${AS.projectId} = ? and ${AS.userId} = ? limit 1`, projectId, userId) !== undefined;
  return { projectId, userId, required, restricted };
}

/** SQL (and parameters) limiting lexelts `l` to the annotator's. */
function assignedClause(s: QueueScope): [string, unknown[]] {
  if (!s.restricted) return ["", []];
  return [` and exists (select 1 from ${A.$} where ${A.projectId} = ? and ${A.userId} = ? and ${A.lexeltId} = ${L.id})`, [s.projectId, s.userId]];
}

/** SQL (and parameters) keeping instances `i` that pass the filter (and are in the queue: a column of the row read). */
function instanceClause(s: QueueScope, filter: Filter): [string, unknown[]] {
  const mine = `exists (select 1 from ${R.$} where ${R.instanceRef} = ${I.id} and ${R.userId} = ?)`;
  // People's responses only: a model's answers (lib/server/models) never close an instance.
  const count = `(select count(*) from ${R.$} where ${R.instanceRef} = ${I.id} and ${R.userId} not in (${MODEL_USERS_SQL}))`;
  const queued = ` and ${I.inQueue} = 1`;
  if (filter === "unanswered") {
    // Unanswered by me and (with requiredAnnotators) not closed: with none of mine, all responses are others'.
    return s.required == null ? [`${queued} and not ${mine}`, [s.userId]] : [`${queued} and not ${mine} and ${count} < ?`, [s.userId, s.required]];
  }
  return s.required == null ? [queued, []] : [`${queued} and (${mine} or ${count} < ?)`, [s.userId, s.required]];
}

/** The annotator's lexelt next to position `from` (exclusive) in direction dir, skipping empty ones (and, for unanswered, complete ones). */
function lexeltAfter(db: Db, s: QueueScope, from: number, dir: 1 | -1, filter: Filter): LexeltRow | undefined {
  const [assigned, ap] = assignedClause(s);
  const complete =
    filter === "unanswered" ? ` and coalesce((select ${Q.done} from ${Q.$} where ${Q.userId} = ? and ${Q.lexeltId} = ${L.id}), 0) < ${QUEUED}` : "";
  const cp = filter === "unanswered" ? [s.userId] : [];
  return get<LexeltRow>(
    db,
    `select ${LEXELT_COLUMNS} from ${L.$} where ${L.projectId} = ? and ${L.position} ${dir > 0 ? ">" : "<"} ? and ${QUEUED} > 0${assigned}${complete}
     order by ${L.position} ${dir > 0 ? "asc" : "desc"} limit 1`,
    s.projectId,
    from,
    ...ap,
    ...cp,
  );
}

/** The entry of a lexelt next to (position, ref) in direction dir (exclusive); null bounds = from the lexelt's end. */
function entryInLexelt(db: Db, s: QueueScope, l: { id: number; position: number }, after: [number, number] | null, dir: 1 | -1, filter: Filter): Entry | undefined {
  const [where, wp] = instanceClause(s, filter);
  const bound = after ? ` and (${I.position}, ${I.id}) ${dir > 0 ? ">" : "<"} (?, ?)` : "";
  const order = dir > 0 ? "asc" : "desc";
  const row = get<{ ref: number; position: number }>(
    db,
    `select ${I.id} as ref, ${I.position} as position from ${I.$} where ${I.lexeltId} = ?${bound}${where} order by ${I.position} ${order}, ${I.id} ${order} limit 1`,
    l.id,
    ...(after ?? []),
    ...wp,
  );
  return row && { ref: row.ref, position: row.position, lexeltId: l.id, lexeltPosition: l.position };
}

/** The entry next to `from` (exclusive; null = from the queue's start or end) passing the filter. */
export function step(db: Db, s: QueueScope, from: Entry | null, dir: 1 | -1, filter: Filter = "open"): Entry | null {
  if (from) {
    const here = entryInLexelt(db, s, { id: from.lexeltId, position: from.lexeltPosition }, [from.position, from.ref], dir, filter);
    if (here) return here;
  }
  let at = from ? from.lexeltPosition : dir > 0 ? -Infinity : Infinity;
  for (;;) {
    const l = lexeltAfter(db, s, Number.isFinite(at) ? at : dir > 0 ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER, dir, filter);
    if (!l) return null;
    const e = entryInLexelt(db, s, l, null, dir, filter);
    if (e) return e;
    at = l.position;
  }
}

/** The next unanswered entry after `from`, wrapping round; never `from` itself. */
export function nextUnanswered(db: Db, s: QueueScope, from: Entry | null): Entry | null {
  const after = step(db, s, from, 1, "unanswered");
  if (after || !from) return after;
  const first = step(db, s, null, 1, "unanswered");
  return first && first.ref !== from.ref ? first : null;
}

/** The instance as a queue entry, if it is in the annotator's queue. */
export function entryOf(db: Db, s: QueueScope, ref: number): Entry | null {
  const [assigned, ap] = assignedClause(s);
  const [open, op] = instanceClause(s, "open");
  const row = get<Entry>(
    db,
    `select ${I.id} as ref, ${I.lexeltId} as lexeltId, ${L.position} as lexeltPosition, ${I.position} as position
     from ${I.$} join ${L.$} on ${L.id} = ${I.lexeltId} and ${L.projectId} = ${I.projectId} where ${I.id} = ? and ${I.projectId} = ?${assigned}${open}`,
    ref,
    s.projectId,
    ...ap,
    ...op,
  );
  return row ?? null;
}

export function lexeltRow(db: Db, lexeltId: number): LexeltRow {
  return get<LexeltRow>(db, `select ${LEXELT_COLUMNS} from ${L.$} where ${L.id} = ?`, lexeltId)!;
}

/** Closed instances (see above) of the annotator's lexelts, optionally only those in one lexelt or before an entry. */
function closedCount(db: Db, s: QueueScope, where: { lexeltId?: number; before?: Entry } = {}): number {
  if (s.required == null) return 0;
  const [assigned, ap] = assignedClause(s);
  const extra: string[] = [];
  const params: unknown[] = [];
  if (where.lexeltId !== undefined) {
    extra.push(`${I.lexeltId} = ?`);
    params.push(where.lexeltId);
  }
  if (where.before) {
    extra.push(`(${L.position}, ${I.position}, ${I.id}) < (?, ?, ?)`);
    params.push(where.before.lexeltPosition, where.before.position, where.before.ref);
  }
  const source =
    where.lexeltId !== undefined
      ? // One lexelt: count its instances' responses through the instance index.
        `(select ${R.instanceRef} as ref from ${I2.$} join ${R.$} on ${R.instanceRef} = ${I2.id} where ${I2.lexeltId} = ${Number(where.lexeltId)} and ${R.userId} not in (${MODEL_USERS_SQL})
          group by ${R.instanceRef} having count(*) >= ? and sum(${R.userId} = ?) = 0)`
      : `(select ${R.instanceRef} as ref from ${R.$} where ${R.projectId} = ${Number(s.projectId)} and ${R.userId} not in (${MODEL_USERS_SQL})
          group by ${R.instanceRef} having count(*) >= ? and sum(${R.userId} = ?) = 0)`;
  const row = get<{ n: number }>(
    db,
    `select count(*) as n from ${source} c join ${I.$} on ${I.id} = c.ref join ${L.$} on ${L.id} = ${I.lexeltId}
     where ${I.inQueue} = 1${assigned}${extra.map((e) => ` and ${e}`).join("")}`,
    s.required,
    s.userId,
    ...ap,
    ...params,
  );
  return row?.n ?? 0;
}

/** 1-based place of an entry in the queue. */
export function positionOf(db: Db, s: QueueScope, e: Entry): number {
  let before: number;
  if (!s.restricted) {
    before = get<{ n: number }>(db, `select ${LX.instancesBefore} - ${LX.outOfQueueBefore} as n from ${LX.$} where ${LX.id} = ?`, e.lexeltId)!.n;
  } else {
    before = get<{ n: number }>(
      db,
      `select coalesce(sum(${QUEUED}), 0) as n from ${A.$} join ${L.$} on ${L.id} = ${A.lexeltId}
       where ${A.projectId} = ? and ${A.userId} = ? and ${L.position} < ?`,
      s.projectId,
      s.userId,
      e.lexeltPosition,
    )!.n;
  }
  const inLexelt = get<{ n: number }>(db, `select count(*) as n from ${I.$} where ${I.lexeltId} = ? and (${I.position}, ${I.id}) < (?, ?) and ${I.inQueue} = 1`, e.lexeltId, e.position, e.ref)!.n;
  return before + inLexelt - closedCount(db, s, { before: e }) + 1;
}

/** done / total over the annotator's queue. */
export function totals(db: Db, s: QueueScope): { done: number; total: number } {
  let done: number;
  let total: number;
  if (!s.restricted) {
    // One statement for both (every save's answer asks): the counter, and the last lexelt's running sum.
    const r = get<{ done: number | null; total: number | null }>(
      db,
      `select (select ${AC.done} from ${AC.$} where ${AC.projectId} = ? and ${AC.userId} = ?) as done,
         (select ${LX.instancesBefore} + ${LX.instanceCount} - ${LX.outOfQueueBefore} - ${LX.outOfQueue} from ${LX.$} where ${LX.projectId} = ? order by ${LX.position} desc limit 1) as total`,
      s.projectId,
      s.userId,
      s.projectId,
    )!;
    done = r.done ?? 0;
    total = r.total ?? 0;
  } else {
    const r = get<{ done: number; total: number }>(
      db,
      `select coalesce(sum(coalesce(${Q.done}, 0)), 0) as done, coalesce(sum(${QUEUED}), 0) as total
       from ${A.$} join ${L.$} on ${L.id} = ${A.lexeltId} left join ${Q.$} on ${Q.userId} = ${A.userId} and ${Q.lexeltId} = ${A.lexeltId}
       where ${A.projectId} = ? and ${A.userId} = ?`,
      s.projectId,
      s.userId,
    )!;
    done = r.done;
    total = r.total;
  }
  return { done, total: total - closedCount(db, s) };
}

/** done / total of one lexelt of the annotator's. */
export function lexeltTotals(db: Db, s: QueueScope, l: LexeltRow): { done: number; total: number } {
  const done = get<{ n: number }>(db, `select ${QC.done} as n from ${QC.$} where ${QC.userId} = ? and ${QC.lexeltId} = ?`, s.userId, l.id)?.n ?? 0;
  return { done, total: l.instanceCount - closedCount(db, s, { lexeltId: l.id }) };
}

/** Where to jump for a lexelt: its first unanswered entry, else its first. */
export function jumpEntry(db: Db, s: QueueScope, l: { id: number; position: number }): Entry | null {
  return entryInLexelt(db, s, l, null, 1, "unanswered") ?? entryInLexelt(db, s, l, null, 1, "open") ?? null;
}

/** The annotator's lexelts in corpus order (O(lexelts): for the list of targets, not for a step). */
export function assignedLexelts(db: Db, s: QueueScope): LexeltRow[] {
  const [assigned, ap] = assignedClause(s);
  return all<LexeltRow>(db, `select ${LEXELT_COLUMNS} from ${L.$} where ${L.projectId} = ?${assigned} order by ${L.position}`, s.projectId, ...ap);
}

/** done per lexelt of the annotator (O(lexelts they answered in)). */
export function doneByLexelt(db: Db, s: QueueScope): Map<number, number> {
  return new Map(
    all<{ id: number; n: number }>(db, `select ${QC.lexeltId} as id, ${QC.done} as n from ${QC.$} where ${QC.projectId} = ? and ${QC.userId} = ?`, s.projectId, s.userId).map(
      (r) => [r.id, r.n],
    ),
  );
}

/** Closed instances per lexelt (requiredAnnotators only; O(responses)). */
export function closedByLexelt(db: Db, s: QueueScope): Map<number, number> {
  if (s.required == null) return new Map();
  return new Map(
    all<{ id: number; n: number }>(
      db,
      `select ${I.lexeltId} as id, count(*) as n from (select ${R.instanceRef} as ref from ${R.$} where ${R.projectId} = ? and ${R.userId} not in (${MODEL_USERS_SQL})
        group by ${R.instanceRef} having count(*) >= ? and sum(${R.userId} = ?) = 0) c join ${I.$} on ${I.id} = c.ref where ${I.inQueue} = 1 group by ${I.lexeltId}`,
      s.projectId,
      s.required,
      s.userId,
    ).map((r) => [r.id, r.n]),
  );
}

const COUNT_LEXELT = `insert into ${QC.$} (${QC.projectId}, ${QC.userId}, ${QC.lexeltId}, ${QC.done}) values (?, ?, ?, 1) on conflict (${QC.userId}, ${QC.lexeltId}) do update set ${QC.done} = ${QC.done} + 1`;
const COUNT_ANNOTATOR = `insert into ${AC.$} (${AC.projectId}, ${AC.userId}, ${AC.done}) values (?, ?, 1) on conflict (${AC.projectId}, ${AC.userId}) do update set ${AC.done} = ${AC.done} + 1`;

/** In the transaction that adds a response (not one that revises it): count it. */
export function countNewResponse(db: Pick<Db, "$client">, projectId: number, userId: number, lexeltId: number): void {
  prepared(db, COUNT_LEXELT).run(
    projectId,
    userId,
    lexeltId,
  );
  prepared(db, COUNT_ANNOTATOR).run(
    projectId,
    userId,
  );
}

/** In the import's transaction: the lexelts' instance counts and running sums for the whole project (O(n), as the import). */
export function recountLexelts(db: Pick<Db, "$client">, projectId: number): void {
  db.$client
    .prepare(`update ${LX.$} set ${LX.instanceCount} = (select count(*) from ${I.$} where ${I.lexeltId} = ${LXQ.id}) where ${LX.projectId} = ?`)
    .run(projectId);
  setInstancesBefore(db.$client, projectId);
}

/** The lexelt's name for annotators: its lemma, numbered when several of their lexelts share it (they never see the PoS). */
export function lexeltLabel(db: Db, s: QueueScope, l: LexeltRow): string {
  const [assigned, ap] = assignedClause(s);
  const r = get<{ n: number; k: number }>(
    db,
    `select count(*) as n, coalesce(sum(${L.position} <= ?), 0) as k from ${L.$} where ${L.projectId} = ? and ${L.lemma} = ?${assigned}`,
    l.position,
    s.projectId,
    l.lemma,
    ...ap,
  )!;
  return r.n > 1 ? `${l.lemma} (${r.k})` : l.lemma;
}

/** How many lexelts the annotator has, counted no further than `cap` (O(log n + cap)). */
export function lexeltCountUpTo(db: Db, s: QueueScope, cap: number): number {
  const [assigned, ap] = assignedClause(s);
  return get<{ n: number }>(
    db,
    `select count(*) as n from (select 1 from ${L.$} where ${L.projectId} = ? and ${QUEUED} > 0${assigned} limit ?)`,
    s.projectId,
    ...ap,
    cap,
  )!.n;
}

/**
 * In the transaction of every change to the project's training items or to its "training items stay
 * in the queue" setting (lib/server/quality/training.ts): puts each instance in or out of the queue
 * (out: a training item while the setting is off) and recounts what the queue's reads take from
 * that, for the lexelts holding an instance that moved: their out_of_queue, every lexelt's
 * out_of_queue_before (O(lexelts), as setInstancesBefore), and the done counters of everyone who
 * answered in them (queue_counts, then annotator_counts: responses to instances out of the queue are
 * not counted). A coordinator's action: it costs the training items, the instances it moves and the
 * lexelts they sit in, never a save. Returns how many instances moved.
 */
export function syncTrainingQueue(db: Pick<Db, "$client">, projectId: number): number {
  const c = db.$client;
  const keepIn = (c.prepare(`select ${P.trainingInQueue} as k from ${P.$} where ${P.id} = ?`).get(projectId) as { k: number } | undefined)?.k === 1;
  // Out but to go back (no longer a training item, or the setting keeps them): the partial index instances_out_of_queue.
  const back = c
    .prepare(
      `select ${I.id} as ref, ${I.lexeltId} as lexeltId from ${I.$} where ${I.projectId} = ? and ${I.inQueue} = 0
         and (? or not exists (select 1 from ${K.$} where ${K.instanceRef} = ${I.id} and ${K.role} = 'training'))`,
    )
    .all(projectId, keepIn ? 1 : 0) as { ref: number; lexeltId: number }[];
  const out = keepIn
    ? []
    : (c
        .prepare(
          `select ${I.id} as ref, ${I.lexeltId} as lexeltId from ${K.$} join ${I.$} on ${I.id} = ${K.instanceRef}
            where ${K.projectId} = ? and ${K.role} = 'training' and ${I.inQueue} = 1`,
        )
        .all(projectId) as { ref: number; lexeltId: number }[]);
  if (back.length === 0 && out.length === 0) return 0;
  const flip = c.prepare(`update ${IN.$} set ${IN.inQueue} = ? where ${IN.id} in (select value from json_each(?))`);
  flip.run(1, JSON.stringify(back.map((r) => r.ref)));
  flip.run(0, JSON.stringify(out.map((r) => r.ref)));
  // Open returns of those instances close (as a superseded return: no revision); they cannot be answered in the queue.
  if (out.length > 0) {
    c.prepare(`update ${RI.$} set ${RI.resolvedAt} = ? where ${RI.instanceRef} in (select value from json_each(?)) and ${RI.resolvedAt} is null`).run(
      Date.now(),
      JSON.stringify(out.map((r) => r.ref)),
    );
  }
  const moved = JSON.stringify([...new Set([...back, ...out].map((r) => r.lexeltId))]);
  c.prepare(
    `update ${LX.$} set ${LX.outOfQueue} = (select count(*) from ${I.$} where ${I.lexeltId} = ${LXQ.id} and ${I.inQueue} = 0)
      where ${LX.id} in (select value from json_each(?))`,
  ).run(moved);
  c.prepare(
    `update ${LX.$} set ${LX.outOfQueueBefore} = w.before from (
       select ${LX.id}, coalesce(sum(${LX.outOfQueue}) over (order by ${LX.position} rows between unbounded preceding and 1 preceding), 0) as before
       from ${LX.$} where ${LX.projectId} = ?) w
     where ${LXQ.id} = w.id`,
  ).run(projectId);
  // The counters of those lexelts, recounted: a row for everyone who answered there, then its count of answers to queued instances.
  c.prepare(
    `insert into ${QC.$} (${QC.projectId}, ${QC.userId}, ${QC.lexeltId}, ${QC.done})
     select distinct ?, ${R.userId}, ${I.lexeltId}, 0 from ${I.$} join ${R.$} on ${R.instanceRef} = ${I.id} where ${I.lexeltId} in (select value from json_each(?))
     on conflict (${QC.userId}, ${QC.lexeltId}) do nothing`,
  ).run(projectId, moved);
  c.prepare(
    `update ${QC.$} set ${QC.done} = (select count(*) from ${I.$} join ${R.$} on ${R.instanceRef} = ${I.id}
        where ${I.lexeltId} = ${QCQ.lexeltId} and ${R.userId} = ${QCQ.userId} and ${I.inQueue} = 1)
      where ${QC.lexeltId} in (select value from json_each(?))`,
  ).run(moved);
  c.prepare(
    `insert into ${AC.$} (${AC.projectId}, ${AC.userId}, ${AC.done})
     select ${QC.projectId}, ${QC.userId}, sum(${QC.done}) from ${QC.$}
      where ${QC.projectId} = ? and ${QC.userId} in (select ${QC.userId} from ${QC.$} where ${QC.lexeltId} in (select value from json_each(?)))
      group by ${QC.userId}
     on conflict (${AC.projectId}, ${AC.userId}) do update set ${AC.done} = excluded.${AC.done}`,
  ).run(projectId, moved);
  return back.length + out.length;
}
