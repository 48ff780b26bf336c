/**
 * Who annotates what. By default (no assignment rows for an annotator) an
 * annotator annotates every lexelt of the project, as in the original task;
 * a coordinator can restrict an annotator to chosen lexelts.
 */
import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { assignments, lexelts, memberships, users } from "../../db/schema";
import { type Actor, requireProject } from "./actor";
import { InputError, NotFoundError } from "./errors";

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

/** Every annotator member of the project and what they annotate (coordinators only). */
export function listAssignments(db: Db, actor: Actor, projectId: number): AssignmentView[] {
  requireProject(db, actor, projectId, { coordinator: true });
  const members = db
    .select({ userId: users.id, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.projectId, projectId), eq(users.role, "annotator")))
    .orderBy(asc(users.name))
    .all();
  const rows = db.select().from(assignments).where(eq(assignments.projectId, projectId)).all();
  return members.map((m) => {
    const mine = rows.filter((r) => r.userId === m.userId).map((r) => r.lexeltId).sort((a, b) => a - b);
    return { ...m, lexeltIds: mine.length > 0 ? mine : null };
  });
}

/**
 * Restrict an annotator to the given lexelts (null or all of them = everything).
 * One transaction; lexelts must belong to the project, the user must be a member.
 */
export function setAssignments(db: Db, actor: Actor, projectId: number, userId: number, lexeltIds: number[] | null): void {
  requireProject(db, actor, projectId, { coordinator: true });
  const member = db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.projectId, projectId), eq(memberships.userId, userId)))
    .get();
  if (!member) throw new NotFoundError("That user is not a member of this project.");
  const all = db.select({ id: lexelts.id }).from(lexelts).where(eq(lexelts.projectId, projectId)).all().map((r) => r.id);
  const valid = new Set(all);
  const wanted = lexeltIds === null ? [] : [...new Set(lexeltIds)];
  for (const id of wanted) if (!valid.has(id)) throw new InputError(`Lexelt ${id} is not in this project.`, { lexelts: "Unknown lexelt." });
  const everything = wanted.length === 0 || wanted.length === all.length;
  db.transaction((tx) => {
    tx.delete(assignments).where(and(eq(assignments.projectId, projectId), eq(assignments.userId, userId))).run();
    if (!everything) for (const lexeltId of wanted) tx.insert(assignments).values({ projectId, userId, lexeltId }).run();
  });
}
