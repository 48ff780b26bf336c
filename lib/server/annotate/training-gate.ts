/**
 * The training gate of the workspace (issue #15): until an annotator has passed
 * the training of a project that requires it, saves and the workspace refuse
 * real instances. The training itself (items, attempts, checks) is
 * lib/server/quality/training.ts.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { knownAnswers, projects, trainingAttempts } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import type { ProjectRow, UserActor } from "../kernel/actor";
import { AuthError } from "../kernel/errors";
import { get } from "../kernel/statements";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const [P, K, T] = [named(projects), named(knownAnswers), named(trainingAttempts)];

/**
 * Whether this user must still pass the training before real instances (annotators and study
 * participants; coordinators never).
 * Statements prepared once per connection (kernel/statements.ts): every save and workspace request asks this.
 */
export function trainingPending(db: Db, projectId: number, a: UserActor): boolean {
  if (a.role !== "annotator" && a.role !== "participant") return false;
  const s = get<{ required: number }>(db, `select ${P.trainingRequired} as required from ${P.$} where ${P.id} = ?`, projectId);
  if (!s?.required) return false;
  const hasItems = get(db, `select 1 as x from ${K.$} where ${K.projectId} = ? and ${K.role} = 'training' limit 1`, projectId);
  if (!hasItems) return false;
  const passed = get(db, `select 1 as x from ${T.$} where ${T.projectId} = ? and ${T.userId} = ? and ${T.passed} = 1 limit 1`, projectId, a.userId);
  return !passed;
}

const TRAINING_FIRST = "Pass the training first: real instances are released after it.";

/** For responses.ts: refuse real instances to an annotator who has not passed the training. */
export function requireTrainingPassed(db: Db, p: ProjectRow, a: UserActor): void {
  if (trainingPending(db, p.id, a)) throw new AuthError(TRAINING_FIRST);
}
