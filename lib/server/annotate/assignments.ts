/**
 * Who annotates what. By default (no assignment rows for an annotator) an
 * annotator annotates every lexelt of the project, as in the original task;
 * a coordinator can restrict an annotator to chosen lexelts.
 */
import "server-only";
import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { splitEvenly } from "../../lexsub/split";
import { assignments, instances, lexelts, memberships, users } from "../../../db/schema";
import { type Actor, requireProject } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";

/** The lexelt ids (db ids, in corpus order) a user annotates in a project. No checks: callers check. */
export function assignedLexeltIds(db: Db, projectId: number, userId: number): number[] {
  const rows = db
    .select({ lexeltId: assignments.lexeltId })
    .from(assignments)
    .innerJoin(lexelts, eq(lexelts.id, assignments.lexeltId))
    .where(and(eq(assignments.projectId, projectId), eq(assignments.userId, userId)))
    .orderBy(asc(lexelts.position))
    .all();
  if (rows.length > 0) return rows.map((r) => r.lexeltId);
  return db
    .select({ id: lexelts.id })
    .from(lexelts)
    .where(eq(lexelts.projectId, projectId))
    .orderBy(asc(lexelts.position))
    .all()
    .map((r) => r.id);
}

export interface AssignmentView {
  userId: number;
  name: string;
  /** null = every lexelt (the default). */
  lexeltIds: number[] | null;
}

/** Every annotator member of the project (not its judges or coordinators) and what they annotate (coordinators only). */
export function listAssignments(db: Db, actor: Actor, projectId: number): AssignmentView[] {
  requireProject(db, actor, projectId, { coordinator: true });
  const members = db
    .select({ userId: users.id, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectId, projectId), eq(memberships.role, "annotator")))
    .orderBy(asc(users.name))
    .all();
  const rows = db.select().from(assignments).where(eq(assignments.projectId, projectId)).all();
  return members.map((m) => {
    const mine = rows.filter((r) => r.userId === m.userId).map((r) => r.lexeltId).sort((a, b) => a - b);
    return { ...m, lexeltIds: mine.length > 0 ? mine : null };
  });
}

/**
 * For a change of one annotator's assignment: the coordinator check, the
 * membership check, and the project's lexelt ids (to validate the ids asked for).
 */
function memberLexeltIds(db: Db, actor: Actor, projectId: number, userId: number): number[] {
  requireProject(db, actor, projectId, { coordinator: true });
  const member = db
    .select({ userId: memberships.userId, role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.projectId, projectId), eq(memberships.userId, userId)))
    .get();
  if (!member) throw new NotFoundError("That user is not a member of this project.");
  if (member.role !== "annotator") throw new InputError(`A ${member.role} of the project annotates nothing: only annotators are given lexelts.`, { lexelts: "Not an annotator." });
  return db.select({ id: lexelts.id }).from(lexelts).where(eq(lexelts.projectId, projectId)).all().map((r) => r.id);
}

/**
 * Restrict an annotator to the given lexelts (null or all of them = everything).
 * One transaction; lexelts must belong to the project, the user must be a member.
 */
export function setAssignments(db: Db, actor: Actor, projectId: number, userId: number, lexeltIds: number[] | null): void {
  const all = memberLexeltIds(db, actor, projectId, userId);
  const valid = new Set(all);
  const wanted = lexeltIds === null ? [] : [...new Set(lexeltIds)];
  for (const id of wanted) if (!valid.has(id)) throw new InputError(`Lexelt ${id} is not in this project.`, { lexelts: "Unknown lexelt." });
  const everything = wanted.length === 0 || wanted.length === all.length;
  db.transaction((tx) => {
    tx.delete(assignments).where(and(eq(assignments.projectId, projectId), eq(assignments.userId, userId))).run();
    if (!everything) for (const lexeltId of wanted) tx.insert(assignments).values({ projectId, userId, lexeltId }).run();
  });
}

/**
 * Change an annotator's assignment for the lexelts shown (a page of the editor, or
 * every lexelt matching a search): those in `checkedIds` are assigned, the other
 * shown ones are not; lexelts not shown keep what they had. Refused when nothing
 * would be left. One transaction. Returns how many lexelts the annotator now has.
 */
export function changeAssignments(db: Db, actor: Actor, projectId: number, userId: number, shownIds: number[], checkedIds: number[]): number {
  const all = memberLexeltIds(db, actor, projectId, userId);
  const valid = new Set(all);
  for (const id of [...shownIds, ...checkedIds]) if (!valid.has(id)) throw new InputError(`Lexelt ${id} is not in this project.`, { lexelts: "Unknown lexelt." });
  const shown = new Set(shownIds);
  const checked = new Set(checkedIds);
  for (const id of checked) if (!shown.has(id)) throw new InputError(`Lexelt ${id} was ticked but not shown.`, { lexelts: "Unknown lexelt." });
  const current = new Set(assignedLexeltIds(db, projectId, userId));
  const next = all.filter((id) => (shown.has(id) ? checked.has(id) : current.has(id)));
  if (next.length === 0) throw new InputError("Choose at least one lexelt, or choose All lexelts.", { lexelts: "Choose at least one lexelt." });
  db.transaction((tx) => {
    tx.delete(assignments).where(and(eq(assignments.projectId, projectId), eq(assignments.userId, userId))).run();
    if (next.length < all.length) for (const lexeltId of next) tx.insert(assignments).values({ projectId, userId, lexeltId }).run();
  });
  return next.length;
}

export interface SplitPlan {
  k: number;
  lexelts: number;
  instances: number;
  annotators: Array<{ userId: number; name: string; lexelts: number; instances: number }>;
}

function planSplit(db: Db, projectId: number, userIds: number[], k: number): { plan: SplitPlan; shares: Map<number, number[]> } {
  if (!Number.isInteger(k) || k < 1) throw new InputError("Give a whole number of annotators per instance, 1 or more.", { k: "A whole number, 1 or more." });
  const ids = [...new Set(userIds)];
  if (ids.length === 0) throw new InputError("Choose at least one annotator to split the lexelts over.", { annotators: "Choose at least one annotator." });
  if (k > ids.length) throw new InputError(`${k} per instance needs at least ${k} annotators; ${ids.length} chosen.`, { k: `At most ${ids.length}.` });
  const members = db
    .select({ userId: users.id, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectId, projectId), eq(memberships.role, "annotator"), inArray(users.id, ids)))
    .orderBy(asc(users.name))
    .all();
  if (members.length !== ids.length) throw new NotFoundError("One of the chosen users is not an annotator of this project.");
  const lx = db
    .select({ id: lexelts.id, instances: count(instances.id) })
    .from(lexelts)
    .leftJoin(instances, eq(instances.lexeltId, lexelts.id))
    .where(eq(lexelts.projectId, projectId))
    .groupBy(lexelts.id)
    .orderBy(asc(lexelts.position))
    .all();
  if (lx.length === 0) throw new InputError("Load lexelt XML on the Corpus tab first.");
  const shares = splitEvenly(lx, members.map((m) => m.userId), k);
  if ([...shares.values()].some((ids) => ids.length === 0)) {
    // No assignment rows would mean every lexelt: refuse rather than give someone everything.
    throw new InputError(`${lx.length} lexelt${lx.length === 1 ? "" : "s"} at ${k} per instance leave some of the ${ids.length} annotators with nothing: choose fewer annotators or a larger number.`, { k: "Too few lexelts to go round." });
  }
  const size = new Map(lx.map((l) => [l.id, l.instances]));
  return {
    shares,
    plan: {
      k,
      lexelts: lx.length,
      instances: lx.reduce((s, l) => s + l.instances, 0),
      annotators: members.map((m) => {
        const mine = shares.get(m.userId)!;
        return { userId: m.userId, name: m.name, lexelts: mine.length, instances: mine.reduce((s, id) => s + size.get(id)!, 0) };
      }),
    },
  };
}

/** What "split the lexelts evenly over these annotators with k per instance" would do (nothing written). */
export function previewSplit(db: Db, actor: Actor, projectId: number, userIds: number[], k: number): SplitPlan {
  requireProject(db, actor, projectId, { coordinator: true });
  return planSplit(db, projectId, userIds, k).plan;
}

/**
 * Split the lexelts evenly over the chosen annotators, k per lexelt (splitEvenly):
 * each chosen annotator is assigned exactly their share; others keep theirs.
 * One transaction. Returns the plan applied.
 */
export function applySplit(db: Db, actor: Actor, projectId: number, userIds: number[], k: number): SplitPlan {
  requireProject(db, actor, projectId, { coordinator: true });
  const { plan, shares } = planSplit(db, projectId, userIds, k);
  db.transaction((tx) => {
    for (const [userId, ids] of shares) {
      tx.delete(assignments).where(and(eq(assignments.projectId, projectId), eq(assignments.userId, userId))).run();
      if (ids.length < plan.lexelts) for (const lexeltId of ids) tx.insert(assignments).values({ projectId, userId, lexeltId }).run();
    }
  });
  return plan;
}
