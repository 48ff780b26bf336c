/**
 * A project's data version (db/schema.ts dataVersions): raised by triggers
 * (drizzle/0009, 0011) in the transaction of every response, corpus change and
 * review decision, so a result derived at version v is current while the
 * version reads v. 0 before the project's first change.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { dataVersions } from "../../../db/schema";
import { named } from "../../../db/sql-names";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const DATA_VERSIONS = named(dataVersions);

export function dataVersion(db: Pick<Db, "$client">, projectId: number): number {
  const row = db.$client.prepare(`select ${DATA_VERSIONS.version} from ${DATA_VERSIONS.$} where ${DATA_VERSIONS.projectId} = ?`).get(projectId) as { version: number } | undefined;
  return row?.version ?? 0;
}
