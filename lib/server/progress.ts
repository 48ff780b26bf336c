/**
 * The coordinator's view of how the annotation is going: per annotator done /
 * assigned, last activity and median time per item; per lexelt × annotator done /
 * total; and how many instances have collected the responses they need.
 * Coordinators of the project only.
 */
import "server-only";
import { and, asc, count, eq, inArray, isNotNull, max } from "drizzle-orm";
import type { Db } from "../../db/client";
import { instances, lexelts, memberships, responses, users } from "../../db/schema";
import { type Actor, requireProject } from "./actor";
import { assignedLexeltIds } from "./assignments";

/** The median of a list of numbers (mean of the middle two for an even count), null when empty. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export interface AnnotatorProgress {
  userId: number;
  name: string;
  /** Whether the user is an annotator member (others appear only because they have responses). */
  member: boolean;
  /** Instances in the lexelts the annotator is assigned. */
  assigned: number;
  /** Responses to instances in those lexelts. */
  done: number;
  /** Responses to instances outside the assigned lexelts (given before an assignment changed). */
  outside: number;
  /** Whether the annotator is restricted to some lexelts (false = every lexelt). */
  restricted: boolean;
  lastActivity: Date | null;
  /** Median of the seconds spent per item, over responses saved with a time (imports have none). */
  medianSeconds: number | null;
  /** How many responses carry a time. */
  timed: number;
}

export interface LexeltCell {
  userId: number;
  /** Whether this annotator is assigned the lexelt. */
  assigned: boolean;
  done: number;
}

export interface LexeltProgress {
  id: number;
  item: string;
  instances: number;
  /** Instances of this lexelt with at least the required number of responses. */
  complete: number;
  /** Annotator members assigned this lexelt. */
  assignedAnnotators: number;
  cells: LexeltCell[];
}

export interface ProjectProgress {
  project: { id: number; name: string; requiredAnnotators: number | null };
  instances: number;
  responses: number;
  /** Instances with at least the required number of responses. */
  complete: number;
  annotators: AnnotatorProgress[];
  lexelts: LexeltProgress[];
}

export function projectProgress(db: Db, actor: Actor, projectId: number): ProjectProgress {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const lx = db
    .select({ id: lexelts.id, item: lexelts.item, instances: count(instances.id) })
    .from(lexelts)
    .leftJoin(instances, eq(instances.lexeltId, lexelts.id))
    .where(eq(lexelts.projectId, projectId))
    .groupBy(lexelts.id)
    .orderBy(asc(lexelts.position))
    .all();
  const allLexeltIds = lx.map((l) => l.id);

  // Annotator members, plus anyone else who has responses here (a coordinator who annotated, a former member).
  const annotatorMembers = db
    .select({ userId: users.id, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectId, projectId), eq(users.role, "annotator")))
    .all();
  const perLexelt = db
    .select({ userId: responses.userId, lexeltId: instances.lexeltId, n: count(), last: max(responses.updatedAt) })
    .from(responses)
    .innerJoin(instances, eq(instances.id, responses.instanceRef))
    .where(eq(responses.projectId, projectId))
    .groupBy(responses.userId, instances.lexeltId)
    .all();
  const memberIds = new Set(annotatorMembers.map((m) => m.userId));
  const othersIds = [...new Set(perLexelt.map((r) => r.userId))].filter((id) => !memberIds.has(id));
  const others =
    othersIds.length > 0
      ? db.select({ userId: users.id, name: users.name }).from(users).where(inArray(users.id, othersIds)).all()
      : [];
  const people = [
    ...annotatorMembers.map((m) => ({ ...m, member: true })),
    ...others.map((o) => ({ ...o, member: false })),
  ].sort((a, b) => a.name.localeCompare(b.name));

  const times = new Map<number, number[]>();
  for (const r of db
    .select({ userId: responses.userId, ms: responses.activeMs })
    .from(responses)
    .where(and(eq(responses.projectId, projectId), isNotNull(responses.activeMs)))
    .all()) {
    const list = times.get(r.userId) ?? [];
    list.push(r.ms!);
    times.set(r.userId, list);
  }

  const doneIn = new Map(perLexelt.map((r) => [`${r.userId}:${r.lexeltId}`, r.n]));
  const instancesOf = new Map(lx.map((l) => [l.id, l.instances]));
  const assignedTo = new Map<number, Set<number>>();
  const annotators: AnnotatorProgress[] = people.map((person) => {
    const mine = person.member ? assignedLexeltIds(db, projectId, person.userId) : [];
    const set = new Set(mine);
    assignedTo.set(person.userId, set);
    let done = 0;
    let outside = 0;
    let last: Date | null = null;
    for (const r of perLexelt) {
      if (r.userId !== person.userId) continue;
      if (set.has(r.lexeltId)) done += r.n;
      else outside += r.n;
      const at = r.last instanceof Date ? r.last : r.last === null ? null : new Date(r.last as unknown as number);
      if (at && (!last || at > last)) last = at;
    }
    const ms = times.get(person.userId) ?? [];
    const med = median(ms);
    return {
      userId: person.userId,
      name: person.name,
      member: person.member,
      assigned: mine.reduce((s, id) => s + (instancesOf.get(id) ?? 0), 0),
      done,
      outside,
      restricted: person.member && mine.length < allLexeltIds.length,
      lastActivity: last,
      medianSeconds: med === null ? null : med / 1000,
      timed: ms.length,
    };
  });

  // How many responses each instance has, and how many it needs.
  const perInstance = db
    .select({ lexeltId: instances.lexeltId, n: count(responses.id) })
    .from(instances)
    .innerJoin(lexelts, and(eq(lexelts.id, instances.lexeltId), eq(lexelts.projectId, projectId)))
    .leftJoin(responses, eq(responses.instanceRef, instances.id))
    .where(eq(instances.projectId, projectId))
    .groupBy(instances.id)
    .all();
  const assignedCount = (lexeltId: number) => annotators.filter((a) => a.member && assignedTo.get(a.userId)!.has(lexeltId)).length;
  const needed = (lexeltId: number) => p.requiredAnnotators ?? assignedCount(lexeltId);
  const completeIn = new Map<number, number>();
  let totalResponses = 0;
  for (const i of perInstance) {
    totalResponses += i.n;
    const need = needed(i.lexeltId);
    if (need > 0 && i.n >= need) completeIn.set(i.lexeltId, (completeIn.get(i.lexeltId) ?? 0) + 1);
  }

  const lexeltRows: LexeltProgress[] = lx.map((l) => ({
    id: l.id,
    item: l.item,
    instances: l.instances,
    complete: completeIn.get(l.id) ?? 0,
    assignedAnnotators: assignedCount(l.id),
    cells: annotators.map((a) => ({
      userId: a.userId,
      assigned: assignedTo.get(a.userId)!.has(l.id),
      done: doneIn.get(`${a.userId}:${l.id}`) ?? 0,
    })),
  }));

  return {
    project: { id: p.id, name: p.name, requiredAnnotators: p.requiredAnnotators },
    instances: lx.reduce((s, l) => s + l.instances, 0),
    responses: totalResponses,
    complete: lexeltRows.reduce((s, l) => s + l.complete, 0),
    annotators,
    lexelts: lexeltRows,
  };
}

/** One page of a list: the rows, the 1-based page number (clamped to the pages there are) and the page count. */
export interface Paged<T> {
  rows: T[];
  page: number;
  pages: number;
  total: number;
}

/** The rows on 1-based page `page` of `size` rows each; a page out of range gives the nearest page. */
export function pageOf<T>(items: readonly T[], page: number, size: number): Paged<T> {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const at = Number.isInteger(page) ? Math.min(Math.max(page, 1), pages) : 1;
  return { rows: items.slice((at - 1) * size, at * size), page: at, pages, total: items.length };
}
