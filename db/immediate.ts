/**
 * The database's transactions begin IMMEDIATE unless one asks otherwise: in WAL mode a deferred
 * transaction that reads and then writes is refused SQLITE_BUSY at once ("database is locked", no
 * busy timeout) when another process committed after its read — which the applier of the kept
 * figures (lib/server/derived) does slice after slice behind a large import. Taking the write lock
 * first makes such a transaction wait its turn instead. Every writable drizzle instance goes through
 * this (db/client.ts, the jobs and derivation workers); reads that want a snapshot of their own use
 * `$client.transaction(...)()`, which stays deferred.
 */
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";

export function immediateByDefault<T extends BetterSQLite3Database<Record<string, unknown>>>(db: T): T {
  const begin = db.transaction.bind(db);
  db.transaction = ((body, config) => begin(body, { behavior: "immediate", ...config })) as T["transaction"];
  return db;
}

/** For a transaction that only reads: deferred, so it takes a snapshot and never the write lock. */
export const READ = { behavior: "deferred" } as const;
