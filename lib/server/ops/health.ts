/**
 * The health check (GET /api/health, the container image's HEALTHCHECK): the server answers and
 * its database connection reads. One `select 1` on the app's connection: no table, nothing of
 * anybody's data, so it needs no actor and says nothing a stranger may not know.
 */
import "server-only";
import type { Db } from "../../../db/client";

/** True when the database answers a trivial query. */
export function databaseAnswers(db: Db): boolean {
  return (db.$client.prepare("select 1 as one").get() as { one: number } | undefined)?.one === 1;
}
