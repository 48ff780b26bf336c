/**
 * Backup and restore of the whole database (the CLI's `lexgold backup` and
 * `lexgold restore`). Unlike the rest of lib/server this module works on files
 * too: it is for the operator who holds the database file, so only the SYSTEM
 * actor may call it.
 *
 * Backup uses SQLite's online backup API (better-sqlite3's `db.backup()`) on a
 * read-only connection of its own, so the server keeps serving while it runs.
 * The copy is taken in one backup step, that is inside one read transaction:
 * in WAL mode that never blocks writers, and it yields one consistent snapshot
 * (a copy made in many small steps restarts whenever another process writes,
 * and may never finish under load). The copy is written to a temporary file
 * beside the destination, switched out of WAL mode so it is one self-contained
 * file, checked with `PRAGMA integrity_check`, fsync'd and renamed into place.
 *
 * Restore refuses anything that is not a lexgold database passing
 * integrity_check, refuses to replace an existing database unless forced and
 * refuses one that another process (a running server) has open; it copies the
 * backup beside the target, checks the copy, fsyncs it, removes the old
 * database's -wal and -shm files and renames the copy over the target, so the
 * switch is atomic. Migrations the backup lacks are applied on the next open.
 */
import "server-only";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Db } from "../../../db/client";
import { projectRoot } from "../../../db/client";
import { type Actor, requireSignedIn } from "../kernel/actor";
import { AuthError, InputError } from "../kernel/errors";

/** Tables every lexgold database has (from the first migration on). */
const LEXGOLD_TABLES = ["users", "projects", "lexelts", "instances", "responses", "response_history"] as const;
const MIGRATIONS_TABLE = "__drizzle_migrations";
const SQLITE_MAGIC = "SQLite format 3\u0000";
/** One backup step copies at most this many pages: in practice, all of them. */
const ALL_PAGES = 0x7fffffff;

export interface TableRows {
  table: string;
  rows: number;
}

export interface DatabaseSummary {
  /** File size in bytes. */
  bytes: number;
  pages: number;
  pageSize: number;
  /** Every table but SQLite's and drizzle's own, by name, with its row count. */
  tables: TableRows[];
  /** Migrations recorded in the database. */
  migrations: number;
}

export interface BackupReport extends DatabaseSummary {
  source: string;
  file: string;
  /** Milliseconds the copy (the one backup step) took. */
  copyMs: number;
  /** Milliseconds for everything: copy, check, fsync, rename. */
  totalMs: number;
}

export interface RestoreReport extends DatabaseSummary {
  source: string;
  target: string;
  /** True when an existing database was replaced. */
  replaced: boolean;
  /** Migrations this lexgold has that the backup lacks (applied on the next open). */
  pendingMigrations: number;
}

function requireSystem(actor: Actor): void {
  const a = requireSignedIn(actor);
  if (a.kind !== "system") throw new AuthError("Only the command line (whoever holds the database file) can back up or restore the database.");
}

function sizeText(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${n} bytes`;
}

/** Why `file` is not an SQLite database file, or null when its header says it is one. */
function notSqlite(file: string): string | null {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a directory" : `cannot be read (${(e as Error).message})`;
  }
  try {
    if (fs.fstatSync(fd).isDirectory()) return "it is a directory";
    const head = Buffer.alloc(100);
    const n = fs.readSync(fd, head, 0, 100, 0);
    if (n === 0) return "the file is empty";
    if (n < 100 || head.toString("latin1", 0, 16) !== SQLITE_MAGIC) return "not an SQLite database (no SQLite header)";
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

function integrity(db: Database.Database): string[] {
  const rows = db.pragma("integrity_check(20)") as Array<{ integrity_check: string }>;
  const problems = rows.map((r) => r.integrity_check);
  return problems.length === 1 && problems[0] === "ok" ? [] : problems;
}

/** Tables of a lexgold database that are missing from `db`. */
function missingTables(db: Database.Database): string[] {
  const have = new Set(
    (db.prepare("select name from sqlite_master where type = 'table'").all() as Array<{ name: string }>).map((r) => r.name),
  );
  return [MIGRATIONS_TABLE, ...LEXGOLD_TABLES].filter((t) => !have.has(t));
}

function summarise(db: Database.Database, file: string): DatabaseSummary {
  const names = (
    db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name <> ? order by name")
      .all(MIGRATIONS_TABLE) as Array<{ name: string }>
  ).map((r) => r.name);
  const tables = names.map((table) => ({
    table,
    rows: (db.prepare(`select count(*) as n from "${table.replace(/"/g, '""')}"`).get() as { n: number }).n,
  }));
  const migrations = (db.prepare(`select count(*) as n from ${MIGRATIONS_TABLE}`).get() as { n: number }).n;
  return {
    bytes: fs.statSync(file).size,
    pages: db.pragma("page_count", { simple: true }) as number,
    pageSize: db.pragma("page_size", { simple: true }) as number,
    tables,
    migrations,
  };
}

/** The creation times of the migrations this lexgold ships (drizzle/meta/_journal.json). */
function knownMigrations(): number[] {
  try {
    const journal = JSON.parse(fs.readFileSync(path.join(projectRoot(), "drizzle", "meta", "_journal.json"), "utf8")) as {
      entries: Array<{ when: number }>;
    };
    return journal.entries.map((e) => e.when);
  } catch {
    return [];
  }
}

/** Check an open database is lexgold's and sound; the message names `label`. */
function checkLexgold(db: Database.Database, label: string): void {
  const missing = missingTables(db);
  // integrity_check first: a damaged file may also hide its tables.
  let problems: string[];
  try {
    problems = integrity(db);
  } catch (e) {
    throw new InputError(`${label}: fails integrity_check (${(e as Error).message}); nothing was written.`);
  }
  if (problems.length > 0) {
    throw new InputError(`${label}: fails integrity_check: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more problems)` : ""}; nothing was written.`, {}, problems);
  }
  if (missing.length > 0) {
    throw new InputError(`${label}: an SQLite database, but not a lexgold one (no ${missing.map((t) => `"${t}"`).join(", ")} table${missing.length > 1 ? "s" : ""}); nothing was written.`);
  }
}

/** Open a file read-only, with a clear error when SQLite cannot. */
function openReadOnly(file: string, label: string): Database.Database {
  const why = notSqlite(file);
  if (why) throw new InputError(`${label}: ${why}; nothing was written.`);
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
    db.pragma("schema_version"); // touches the header: fails now on a damaged file
    return db;
  } catch (e) {
    throw new InputError(`${label}: SQLite cannot open it (${(e as Error).message}); nothing was written.`);
  }
}

function tempBeside(target: string, what: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${what}-${process.pid}-${Date.now()}`);
}

function removeQuietly(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) fs.rmSync(f, { force: true });
}

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, "r+");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Some file systems cannot fsync a directory; the rename is still atomic.
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** Check the destination's directory exists and the name is free (or may be replaced). */
function checkDestination(target: string, force: boolean, what: string, missingDirOk = false): boolean {
  const dir = path.dirname(target);
  let st: fs.Stats | null = null;
  if (missingDirOk && !fs.existsSync(dir)) return false;
  try {
    if (!fs.statSync(dir).isDirectory()) throw new InputError(`${target}: ${dir} is not a directory; nothing was written.`);
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${target}: the directory ${dir} does not exist; nothing was written.`);
  }
  try {
    st = fs.statSync(target);
  } catch {
    st = null;
  }
  if (st?.isDirectory()) throw new InputError(`${target} is a directory; nothing was written.`);
  if (st && !force) throw new InputError(`${target} already exists; ${what}; nothing was written.`);
  return st !== null;
}

/**
 * Copy `from` (an open connection) into the file `temp` in one backup step,
 * switch the copy out of WAL mode, and check it is sound and lexgold's.
 */
async function copyAndCheck(from: Database.Database, temp: string, label: string): Promise<{ copyMs: number; summary: DatabaseSummary }> {
  const t0 = performance.now();
  await from.backup(temp, { progress: () => ALL_PAGES });
  const copyMs = performance.now() - t0;
  const copy = new Database(temp, { fileMustExist: true });
  try {
    copy.pragma("journal_mode = DELETE");
    checkLexgold(copy, label);
    return { copyMs, summary: summarise(copy, temp) };
  } finally {
    copy.close();
  }
}

/**
 * Open the database file at `file` read-only for `backupDatabase`, without
 * migrating it (a backup copies the database as it is). Clear errors for a
 * missing file, one that is not SQLite, and one that is not lexgold's.
 */
export function openForBackup(file: string): Pick<Db, "$client"> {
  const source = path.resolve(file);
  const reader = openReadOnly(source, source);
  const missing = missingTables(reader);
  if (missing.length > 0) {
    reader.close();
    throw new InputError(`${source}: not a lexgold database (no ${missing.map((t) => `"${t}"`).join(", ")} table); nothing was written.`);
  }
  return { $client: reader };
}

/**
 * Make a consistent copy of the live database behind `db` into `file` (any
 * connection will do; the CLI uses `openForBackup`, a read-only one, while the
 * server keeps its own). Refuses an existing `file` unless `force`, writes
 * nothing on failure, and returns what was copied, counted in the copy.
 */
export async function backupDatabase(
  db: Pick<Db, "$client">,
  actor: Actor,
  file: string,
  options: { force?: boolean } = {},
): Promise<BackupReport> {
  requireSystem(actor);
  const started = performance.now();
  const sqlite = db.$client;
  if (sqlite.memory || !sqlite.name || sqlite.name === ":memory:") throw new InputError("backup: the database is in memory; there is no file to back up.");
  const source = path.resolve(sqlite.name);
  const target = path.resolve(file);
  if (target === source) throw new InputError(`${target} is the database itself; choose another file for the backup.`);
  checkDestination(target, options.force ?? false, "give another name, or --force to replace it");
  const missing = missingTables(sqlite);
  if (missing.length > 0) throw new InputError(`${source}: not a lexgold database (no ${missing.map((t) => `"${t}"`).join(", ")} table); nothing was written.`);

  const temp = tempBeside(target, "backup");
  try {
    // Created 0600 before SQLite writes into it: a backup holds password hashes.
    fs.closeSync(fs.openSync(temp, "wx", 0o600));
    const { copyMs, summary } = await copyAndCheck(sqlite, temp, `the copy of ${source}`);
    fsyncFile(temp);
    fs.renameSync(temp, target);
    fsyncDir(path.dirname(target));
    return { ...summary, bytes: fs.statSync(target).size, source, file: target, copyMs, totalMs: performance.now() - started };
  } catch (e) {
    removeQuietly(temp);
    throw e;
  }
}

/**
 * Refuse when another process has the database at `target` open (a running
 * server): SQLite grants an exclusive lock only when no other connection holds
 * one. Closing the probe checkpoints and removes its WAL.
 */
function refuseIfInUse(target: string): void {
  if (notSqlite(target)) return; // not a database: nobody can be using it as one
  let probe: Database.Database;
  try {
    probe = new Database(target, { fileMustExist: true, timeout: 0 });
  } catch {
    return;
  }
  try {
    probe.pragma("locking_mode = EXCLUSIVE");
    probe.exec("BEGIN EXCLUSIVE");
    probe.exec("COMMIT");
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
      throw new InputError(`${target} is in use by another process (is the server running?); stop it first; nothing was written.`);
    }
    // A damaged database is simply replaced.
  } finally {
    probe.close();
  }
}

/**
 * Restore the backup `file` as the database at `target`. Refuses a file that is
 * not a sound lexgold database, an existing target unless `force`, and a target
 * another process has open. The switch is one rename.
 */
export async function restoreDatabase(actor: Actor, file: string, target: string, options: { force?: boolean } = {}): Promise<RestoreReport> {
  requireSystem(actor);
  const source = path.resolve(file);
  const dest = path.resolve(target);
  if (source === dest) throw new InputError(`${source} is the database itself; nothing to restore.`);
  const why = notSqlite(source);
  if (why) throw new InputError(`${source}: ${why}; nothing was written.`);
  // The database's directory may not exist yet (a fresh install): it is made, and removed again on refusal.
  const existed = checkDestination(dest, options.force ?? false, "--force replaces that database (stop the server first)", true);
  let madeDir: string | undefined;
  try {
    madeDir = fs.mkdirSync(path.dirname(dest), { recursive: true });
  } catch (e) {
    throw new InputError(`${dest}: cannot make its directory (${(e as Error).message}); nothing was written.`);
  }

  // The backup is copied byte for byte (with its WAL, if it has one) and only the
  // copy is opened: SQLite never touches the backup file itself.
  const temp = tempBeside(dest, "restore");
  try {
    fs.copyFileSync(source, temp);
    fs.chmodSync(temp, 0o600); // private, whatever the backup's own mode
    if (fs.existsSync(`${source}-wal`)) {
      fs.copyFileSync(`${source}-wal`, `${temp}-wal`);
      fs.chmodSync(`${temp}-wal`, 0o600);
    }
    let copy: Database.Database;
    try {
      copy = new Database(temp, { fileMustExist: true });
      copy.pragma("schema_version");
    } catch (e) {
      throw new InputError(`${source}: SQLite cannot open it (${(e as Error).message}); nothing was written.`);
    }
    let summary: DatabaseSummary;
    let pendingMigrations: number;
    try {
      checkLexgold(copy, source);
      const known = knownMigrations();
      const recorded = copy.prepare(`select created_at as at from ${MIGRATIONS_TABLE}`).all() as Array<{ at: number | string }>;
      const newest = known.length > 0 ? Math.max(...known) : Infinity;
      const unknown = recorded.filter((r) => Number(r.at) > newest);
      if (unknown.length > 0) {
        throw new InputError(
          `${source}: made by a newer lexgold (${unknown.length} migration${unknown.length > 1 ? "s" : ""} this one does not know); upgrade lexgold first; nothing was written.`,
        );
      }
      const recordedAt = new Set(recorded.map((r) => Number(r.at)));
      pendingMigrations = known.filter((w) => !recordedAt.has(w)).length;
      copy.pragma("journal_mode = DELETE");
      summary = summarise(copy, temp);
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw new InputError(`${source}: cannot be read (${(e as Error).message}); nothing was written.`);
    } finally {
      copy.close();
    }
    fsyncFile(temp);

    if (existed) refuseIfInUse(dest);
    // A stale WAL beside the new file would be replayed into it: remove it first.
    for (const f of [`${dest}-wal`, `${dest}-shm`, `${dest}-journal`]) fs.rmSync(f, { force: true });
    fs.renameSync(temp, dest);
    fsyncDir(path.dirname(dest));
    return { ...summary, bytes: fs.statSync(dest).size, source, target: dest, replaced: existed, pendingMigrations };
  } catch (e) {
    removeQuietly(temp);
    if (madeDir) fs.rmSync(madeDir, { recursive: true, force: true });
    throw e;
  }
}

/** `2026-11-23T19-02-10-123Z`: sorts as it reads, safe in every file system. */
function stamp(at: Date): string {
  return at.toISOString().replace(/:/g, "-").replace(".", "-");
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The name of the database file without its extension: backups of
 * data/lexgold.db are lexgold-<time>.db, so two databases can share a directory.
 */
export function backupBaseName(dbFile: string): string {
  const base = path.basename(dbFile);
  return base.replace(/\.(db|sqlite3?)$/i, "") || base;
}

/** A timestamped backup of `base` made by `backupToDirectory`, and nothing else: `<base>-YYYY-MM-DDTHH-MM-SS-mmmZ.db`. */
function isTimestampedBackup(fileName: string, base: string): boolean {
  return new RegExp(`^${escapeRegExp(base)}-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z\\.db$`).test(fileName);
}

/** The timestamped backups of `base` in `dir`, oldest first (regular files only). */
export function listTimestampedBackups(dir: string, base: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => isTimestampedBackup(n, base))
    .filter((n) => fs.lstatSync(path.join(dir, n)).isFile())
    .sort()
    .map((n) => path.join(dir, n));
}

export interface DirectoryBackupReport extends BackupReport {
  /** Timestamped backups left in the directory, oldest first (the new one last). */
  kept: string[];
  /** Older timestamped backups removed to keep `keep`. */
  removed: string[];
}

/**
 * `lexgold backup --dir DIR --keep N`: a checked backup named by the time into
 * DIR (made 0700 when missing), then the oldest timestamped backups of the same
 * database beyond `keep` are removed — only files named as this function names
 * them; anything else in DIR is left alone. Nothing is removed unless the new
 * backup was written and checked.
 */
export async function backupToDirectory(
  db: Pick<Db, "$client">,
  actor: Actor,
  dir: string,
  options: { keep?: number; now?: Date } = {},
): Promise<DirectoryBackupReport> {
  requireSystem(actor);
  const keep = options.keep;
  if (keep !== undefined && (!Number.isInteger(keep) || keep < 1)) throw new InputError(`--keep must be a whole number of at least 1, not ${keep}; nothing was written.`);
  const target = path.resolve(dir);
  try {
    fs.mkdirSync(target, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new InputError(`${target}: cannot make the backup directory (${(e as Error).message}); nothing was written.`);
  }
  if (!fs.statSync(target).isDirectory()) throw new InputError(`${target} is not a directory; nothing was written.`);
  const sqlite = db.$client;
  const base = backupBaseName(sqlite.name);
  const file = path.join(target, `${base}-${stamp(options.now ?? new Date())}.db`);
  const report = await backupDatabase(db, actor, file);
  const all = listTimestampedBackups(target, base);
  const removed = keep === undefined ? [] : all.filter((f) => f !== report.file).slice(0, Math.max(0, all.length - keep));
  for (const f of removed) fs.rmSync(f, { force: true });
  if (removed.length > 0) fsyncDir(target);
  return { ...report, kept: all.filter((f) => !removed.includes(f)), removed };
}

/** The counts the CLI prints, e.g. "projects 2, instances 2,000, responses 9,871". */
export function describeTables(tables: readonly TableRows[], names: readonly string[] = ["projects", "instances", "responses"]): string {
  return names
    .map((n) => {
      const t = tables.find((x) => x.table === n);
      return t ? `${n} ${t.rows.toLocaleString("en-US")}` : null;
    })
    .filter((s): s is string => s !== null)
    .join(", ");
}

export { sizeText as formatBytes };
