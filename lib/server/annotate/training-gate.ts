/**
 * The training gate of the workspace (issue #15): until an annotator has passed
 * the training of a project that requires it, saves and the workspace refuse
 * real instances. The training itself (items, attempts, checks) is
 * lib/server/quality/training.ts.
 */
import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { knownAnswers, projects, trainingAttempts } from "../../../db/schema";
import type { ProjectRow, UserActor } from "../kernel/actor";
import { AuthError } from "../kernel/errors";

/** Whether this user must still pass the training before real instances (annotators only; coordinators never). */
export function trainingPending(db: Db, projectId: number, a: UserActor): boolean {
  if (a.role !== "annotator") return false;
  const s = db.select({ required: projects.trainingRequired }).from(projects).where(eq(projects.id, projectId)).get();
  if (!s?.required) return false;
  const hasItems = db.select({ x: knownAnswers.instanceRef }).from(knownAnswers).where(and(eq(knownAnswers.projectId, projectId), eq(knownAnswers.role, "training"))).limit(1).get();
  if (!hasItems) return false;
  const passed = db
    .select({ x: trainingAttempts.attempt })
    .from(trainingAttempts)
    .where(and(eq(trainingAttempts.projectId, projectId), eq(trainingAttempts.userId, a.userId), eq(trainingAttempts.passed, true)))
    .limit(1)
    .get();
  return !passed;
}

const TRAINING_FIRST = "Pass the training first: real instances are released after it.";

/** For responses.ts: refuse real instances to an annotator who has not passed the training. */
export function requireTrainingPassed(db: Db, p: ProjectRow, a: UserActor): void {
  if (trainingPending(db, p.id, a)) throw new AuthError(TRAINING_FIRST);
}
