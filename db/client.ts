/**
 * The only place that opens SQLite. WAL, foreign keys, a busy timeout, and
 * the committed migrations in drizzle/ applied on every open.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** The project root: LEXGOLD_ROOT (set by bin/lexgold) or the working directory. */
export function projectRoot(): string {
  return process.env.LEXGOLD_ROOT ?? process.cwd();
}

/** `--db PATH` beats `LEXGOLD_DB`, which beats data/lexgold.db under the project root. */
export function resolveDbPath(explicit?: string): string {
  if (explicit) return path.resolve(explicit);
  if (process.env.LEXGOLD_DB) return path.resolve(process.env.LEXGOLD_DB);
  return path.join(projectRoot(), "data", "lexgold.db");
}

export function openDb(file: string): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: path.join(projectRoot(), "drizzle") });
  return db;
}

const globalForDb = globalThis as unknown as { lexgoldDb?: { file: string; db: Db } };

/** The process-wide database for the app (one connection, reused across requests). */
export function getDb(): Db {
  const file = resolveDbPath();
  if (!globalForDb.lexgoldDb || globalForDb.lexgoldDb.file !== file) {
    globalForDb.lexgoldDb = { file, db: openDb(file) };
  }
  return globalForDb.lexgoldDb.db;
}
