/**
 * A model's answers are stored as the responses of pseudo-annotators (users.role "model", one per sample:
 * model_samples; lib/server/models, issue #41). They are never people: the queue, Progress, the attention
 * checks and the people's responses export leave them out always; the gold, mwgold and agreement leave them
 * out unless the coordinator counts the model as an annotator (model_decisions, a logged and undoable
 * decision). The reads that need to know ask here: a few rows per project.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { modelDecisions, models, modelSamples, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";

const M = named(models, "m");
const MS = named(modelSamples, "ms");
const MD = named(modelDecisions, "md");
const U = named(users, "u");

/** SQL: the user ids of every model sample (any project); for `user_id not in (…)` beside a project's rows. */
export const MODEL_USERS_SQL = `select ${MS.userId} from ${MS.$}`;

/** The project's model pseudo-annotators whose model is not counted as an annotator: out of the gold, mwgold and agreement. */
export function uncountedModelUsers(db: Pick<Db, "$client">, projectId: number): Set<number> {
  const rows = db.$client
    .prepare(
      `select ${MS.userId} as id from ${MS.$} join ${M.$} on ${M.id} = ${MS.modelId}
        where ${M.projectId} = ? and not exists (select 1 from ${MD.$} where ${MD.modelId} = ${M.id} and ${MD.undoneAt} is null)`,
    )
    .all(projectId) as { id: number }[];
  return new Set(rows.map((r) => r.id));
}

/** The names of the project's model pseudo-annotators (for reads keyed by annotator name). */
export function modelUserNames(db: Pick<Db, "$client">, projectId: number): Set<string> {
  const rows = db.$client
    .prepare(`select ${U.name} as name from ${MS.$} join ${M.$} on ${M.id} = ${MS.modelId} join ${U.$} on ${U.id} = ${MS.userId} where ${M.projectId} = ?`)
    .all(projectId) as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** The project's model pseudo-annotators (user ids), before their models go (the rows that link them go with the models). */
export function modelUserIds(db: Pick<Db, "$client">, projectId: number, modelId?: number): number[] {
  const rows = db.$client
    .prepare(`select ${MS.userId} as id from ${MS.$} join ${M.$} on ${M.id} = ${MS.modelId} where ${M.projectId} = ?${modelId === undefined ? "" : ` and ${M.id} = ?`}`)
    .all(...(modelId === undefined ? [projectId] : [projectId, modelId])) as { id: number }[];
  return rows.map((r) => r.id);
}

/**
 * Delete model pseudo-annotators (their responses go with them, ON DELETE CASCADE): when their model is
 * removed or its answers discarded, and after their project is deleted. Never a person: role "model" only.
 */
export function deleteModelUsers(db: Pick<Db, "$client">, ids: readonly number[]): void {
  const U2 = named(users);
  const del = db.$client.prepare(`delete from ${U2.$} where ${U2.id} = ? and ${U2.role} = 'model'`);
  for (const id of ids) del.run(id);
}
