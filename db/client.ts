/**
 * The only place that opens SQLite. WAL, foreign keys, a busy timeout, and
 * the committed migrations in drizzle/ applied on every open.
 *
 * Files are private: a new database is created 0600 before SQLite opens it
 * (SQLite gives its -wal and -shm files the database's own mode).
 *
 * Migrations run the way SQLite's documentation prescribes for schema changes
 * (https://www.sqlite.org/lang_altertable.html, "other kinds of table schema
 * changes"): foreign keys off, every pending migration in one transaction,
 * `PRAGMA foreign_key_check` before the commit, foreign keys on again. With
 * foreign keys on, the table rebuild drizzle-kit generates for some changes
 * (create a new table, copy, DROP the old one, rename) would delete every row
 * that references the dropped table through ON DELETE CASCADE — every response
 * of every user, for a rebuild of `users` — and the migration's own
 * `PRAGMA foreign_keys=OFF` does nothing inside a transaction.
 *
 * A database that records a migration this code does not know was written by
 * a newer lexgold: it is refused (closed untouched) rather than used by code
 * that does not know its schema.
 */
import cluster from "node:cluster";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { immediateByDefault } from "./immediate";
import * as schema from "./schema";
import { setting } from "../lib/config";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

/** The project root: LEXGOLD_ROOT (set by bin/lexgold) or the working directory. */
export function projectRoot(): string {
  return setting("LEXGOLD_ROOT") ?? process.cwd();
}

/** `--db PATH` beats `LEXGOLD_DB`, which beats data/lexgold.db under the project root. */
export function resolveDbPath(explicit?: string): string {
  if (explicit) return path.resolve(explicit);
  const fromEnv = setting("LEXGOLD_DB");
  if (fromEnv) return path.resolve(fromEnv);
  return path.join(projectRoot(), "data", "lexgold.db");
}

/** The committed migrations (drizzle/ under the project root). */
export function migrationsFolder(): string {
  return path.join(projectRoot(), "drizzle");
}

export const MIGRATIONS_TABLE = "__drizzle_migrations";

export interface Migration {
  /** drizzle-kit's tag, e.g. "0001_gold_review". */
  tag: string;
  /** Creation time (ms), the key drizzle records as created_at. */
  when: number;
  hash: string;
  statements: string[];
}

/** The migrations this lexgold ships, in order (drizzle/meta/_journal.json and the .sql files). */
export function knownMigrations(folder = migrationsFolder()): Migration[] {
  const journal = JSON.parse(fs.readFileSync(/*turbopackIgnore: true*/ path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: Array<{ tag: string; when: number }>;
  };
  return journal.entries.map((e) => {
    const sql = fs.readFileSync(/*turbopackIgnore: true*/ path.join(folder, `${e.tag}.sql`), "utf8");
    return {
      tag: e.tag,
      when: e.when,
      // The same hash drizzle's migrator records.
      hash: crypto.createHash("sha256").update(sql).digest("hex"),
      statements: sql.split("--> statement-breakpoint"),
    };
  });
}

export interface MigrationState {
  /** Migrations recorded in the database (creation times). */
  recorded: number[];
  /** Shipped migrations the database lacks: they run on the next open. */
  pending: Migration[];
  /** Recorded migrations this lexgold does not ship: the database is from a newer lexgold. */
  unknown: number[];
}

/** Compare a database's recorded migrations with the shipped ones (reads only). */
export function migrationState(sqlite: Database.Database, known: readonly Migration[]): MigrationState {
  const hasTable = sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(MIGRATIONS_TABLE);
  const recorded = hasTable
    ? (sqlite.prepare(`select created_at as at from "${MIGRATIONS_TABLE}" order by created_at`).all() as Array<{ at: number | string }>).map((r) =>
        Number(r.at),
      )
    : [];
  const shipped = new Set(known.map((m) => m.when));
  const last = recorded.length > 0 ? Math.max(...recorded) : -Infinity;
  return {
    recorded,
    // drizzle's rule: everything newer than the last recorded migration.
    pending: known.filter((m) => m.when > last),
    unknown: recorded.filter((at) => !shipped.has(at)),
  };
}

/** A database this lexgold must not open: it was written by a newer version. */
export class NewerDatabaseError extends Error {
  constructor(
    public file: string,
    public unknown: number[],
  ) {
    const when = unknown.map((at) => (Number.isFinite(at) ? new Date(at).toISOString() : String(at))).join(", ");
    super(
      `${file} was written by a newer lexgold: it records ${unknown.length} migration${unknown.length > 1 ? "s" : ""} this lexgold does not know ` +
        `(made ${when}). It was not opened and nothing was changed: upgrade lexgold to the version that wrote it, ` +
        `or restore a backup made by this version.`,
    );
    this.name = "NewerDatabaseError";
  }
}

/**
 * A migration that would leave rows pointing at nothing: rolled back, nothing changed.
 * @public callers tell it apart with instanceof.
 */
export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MigrationError";
  }
}

/**
 * What must hold before a migration runs, checked inside its transaction: a
 * message naming what to fix, or null. A migration whose condition fails is not
 * run (nor any after it) and the database is left as it was.
 */
const PRECONDITIONS: Record<string, (sqlite: Database.Database, file: string) => string | null> = {
  // Names become unique whatever their case: accounts whose names differ only in case are renamed first.
  "0017_user_names_nocase": (sqlite, file) => {
    const twins = sqlite
      .prepare("select group_concat(id || ':' || name, char(31)) as names from users group by name collate nocase having count(*) > 1 order by min(id)")
      .all() as Array<{ names: string }>;
    if (twins.length === 0) return null;
    const groups = twins.map((t) => t.names.split("\u001f").map((x) => ({ id: Number(x.slice(0, x.indexOf(":"))), name: x.slice(x.indexOf(":") + 1) })).sort((x, y) => x.id - y.id));
    const lines = groups.map((g) => `  ${g.map((u) => `"${u.name}" (id ${u.id})`).join(", ")}`);
    const fix = groups.flatMap((g) => g.slice(1).map((u) => `  sqlite3 ${file} "UPDATE users SET name = '${u.name}-${u.id}' WHERE id = ${u.id}"`));
    return (
      `${file}: user names must now be unique whatever their case, and ${groups.length === 1 ? "these accounts differ" : "these groups of accounts differ"} only in case:\n` +
      `${lines.join("\n")}\n` +
      `Nothing was changed and lexgold will not open the database until each is renamed, for instance (any new names will do;\n` +
      `tell the people concerned):\n${fix.join("\n")}`
    );
  },
};

/** Apply the pending migrations in one transaction with foreign keys off, checked before commit. */
function runMigrations(sqlite: Database.Database, file: string, known: readonly Migration[]): void {
  const state = migrationState(sqlite, known);
  if (state.unknown.length > 0) throw new NewerDatabaseError(file, state.unknown);
  if (state.pending.length === 0) return;
  sqlite.pragma("foreign_keys = OFF");
  try {
    sqlite.exec("BEGIN IMMEDIATE");
    try {
      // Another process may have migrated while we waited for the write lock.
      const now = migrationState(sqlite, known);
      if (now.unknown.length > 0) throw new NewerDatabaseError(file, now.unknown);
      sqlite.exec(`CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
      const record = sqlite.prepare(`INSERT INTO "${MIGRATIONS_TABLE}" ("hash", "created_at") VALUES (?, ?)`);
      for (const m of now.pending) {
        const problem = PRECONDITIONS[m.tag]?.(sqlite, file);
        if (problem) throw new MigrationError(problem);
        for (const stmt of m.statements) if (stmt.trim()) sqlite.exec(stmt);
        record.run(m.hash, m.when);
      }
      const broken = sqlite.pragma("foreign_key_check") as Array<{ table: string; rowid: number; parent: string }>;
      if (broken.length > 0) {
        const b = broken[0];
        throw new MigrationError(
          `${file}: migration ${now.pending.map((m) => m.tag).join(", ")} would leave ${broken.length} row${broken.length > 1 ? "s" : ""} ` +
            `pointing at nothing (first: ${b.table} row ${b.rowid} → ${b.parent}); rolled back, nothing was changed.`,
        );
      }
      sqlite.exec("COMMIT");
    } catch (e) {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      throw e;
    }
  } finally {
    sqlite.pragma("foreign_keys = ON");
  }
}

/** Create `file` empty with mode 0600 unless it exists, so SQLite never creates it world-readable. */
function createPrivately(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.closeSync(fs.openSync(file, "wx", 0o600));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
}

export function openDb(file: string, options: { migrationsFolder?: string } = {}): Db {
  if (file !== ":memory:") createPrivately(file);
  const sqlite = new Database(file);
  try {
    const known = knownMigrations(options.migrationsFolder);
    // Before anything writes (even the switch to WAL): a newer database is left exactly as it was.
    const state = migrationState(sqlite, known);
    if (state.unknown.length > 0) throw new NewerDatabaseError(file, state.unknown);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("synchronous = NORMAL");
    runMigrations(sqlite, file, known);
  } catch (e) {
    sqlite.close();
    throw e;
  }
  return immediateByDefault(drizzle(sqlite, { schema }) as Db);
}

const globalForDb = globalThis as unknown as { lexgoldDb?: { file: string; db: Db } };

/**
 * A server worker's own WAL checkpoints start only past this many pages (16 MB): scripts/serve.mjs's
 * primary checkpoints every 100 ms (scripts/wal-checkpointer.mjs), so a request never waits for the
 * copy and its fsync; this is the backstop should the primary stop keeping up.
 */
const WAL_BACKSTOP_PAGES = 4000;

/** The process-wide database for the app (one connection, reused across requests). */
export function getDb(): Db {
  const file = resolveDbPath();
  if (!globalForDb.lexgoldDb || globalForDb.lexgoldDb.file !== file) {
    const db = openDb(file);
    // A worker of scripts/serve.mjs (its main thread, or its thread serving Next: scripts/next-thread.mjs): its primary checkpoints this file.
    if ((cluster.isWorker && process.send) || setting("LEXGOLD_NEXT_THREAD")) {
      db.$client.pragma(`wal_autocheckpoint = ${WAL_BACKSTOP_PAGES}`);
      process.send?.({ lexgold: "checkpoint", file });
    }
    globalForDb.lexgoldDb = { file, db };
  }
  return globalForDb.lexgoldDb.db;
}
