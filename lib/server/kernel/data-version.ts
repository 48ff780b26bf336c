/**
 * A project's data version (db/schema.ts dataVersions): raised by triggers
 * (drizzle/0009, 0011) in the transaction of every response, corpus change and
 * review decision, so a result derived at version v is current while the
 * version reads v. 0 before the project's first change.
 */
import "server-only";
import type { Db } from "../../../db/client";

export function dataVersion(db: Pick<Db, "$client">, projectId: number): number {
  const row = db.$client.prepare("select version from data_versions where project_id = ?").get(projectId) as { version: number } | undefined;
  return row?.version ?? 0;
}
