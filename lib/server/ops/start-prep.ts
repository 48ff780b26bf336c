/**
 * What `lexgold start` does before it checks and serves (deploy.ts planStart), so that one command
 * starts a study in a container as on a server:
 *
 * 1. `writableProblems`: every folder the server writes in (the database's, the secret's when the
 *    secret is still to be written, the backups', the temp folder) is tried with a real write, as
 *    the user the server runs as; a folder it cannot write is named with its owner and mode and
 *    what to do. A container whose /data volume belongs to someone else stops here, clearly,
 *    instead of failing later inside SQLite.
 * 2. `initFromEnvironment`: on a database that does not exist or has no account, LEXGOLD_INIT_USER
 *    with LEXGOLD_INIT_PASSWORD_FILE (a mounted secret) or LEXGOLD_INIT_PASSWORD does what
 *    `lexgold init` does. There is no default password: without them, start refuses as before.
 * 3. `backupBeforeMigration`: when the database lacks migrations this lexgold ships (an upgrade),
 *    a checked timed backup is taken first (LEXGOLD_BACKUP_DIR, else backups/ beside the database),
 *    so the migration that runs next can always be undone by restoring it.
 *
 * Like deploy.ts these work on the operator's files, so only the SYSTEM actor may call them.
 */
import "server-only";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { knownMigrations, migrationState } from "../../../db/client";
import { type Actor, requireSignedIn } from "../kernel/actor";
import { AuthError, InputError } from "../kernel/errors";
import { secretState } from "../kernel/secret";
import { setting } from "../../config";
import { users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { getTableName } from "drizzle-orm";
import { backupToDirectory, type DirectoryBackupReport, openForBackup } from "./backup";
import { type InitReport, initStudy } from "./deploy";

// Tables for the SQL texts below (db/sql-names.ts).
const USERS = named(users);

function requireSystem(actor: Actor): void {
  const a = requireSignedIn(actor);
  if (a.kind !== "system") throw new AuthError("Only the command line (whoever holds the database file) can do that.");
}

/** Where `start` backs up before a migration: LEXGOLD_BACKUP_DIR, else backups/ beside the database. */
function preMigrationBackupDir(dbFile: string): string {
  return path.resolve(setting("LEXGOLD_BACKUP_DIR") ?? path.join(path.dirname(path.resolve(dbFile)), "backups"));
}

/** The nearest folder of `p` that exists (p itself when it does). */
function existingFolder(p: string): string {
  let dir = path.resolve(p);
  while (!fs.existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const uid = () => (typeof process.getuid === "function" ? process.getuid() : -1);
const gid = () => (typeof process.getgid === "function" ? process.getgid() : -1);

/** Why this process cannot write in `dir` (tried with a real folder made and removed), or null. */
function cannotWrite(dir: string): string | null {
  try {
    fs.rmdirSync(fs.mkdtempSync(path.join(dir, ".lexgold-write-check-")));
    return null;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
  }
}

function ownerText(p: string): string {
  try {
    const st = fs.statSync(p);
    return `owned by uid ${st.uid} (gid ${st.gid}) with mode ${(st.mode & 0o777).toString(8).padStart(3, "0")}`;
  } catch {
    return "unreadable";
  }
}

/**
 * The folders the server will write in that this process cannot write, each named with what it is
 * for, its owner and mode and the fix; empty when all are writable. Folders that do not exist yet
 * are judged by the nearest one that does (the server makes them).
 */
export function writableProblems(actor: Actor, input: { dbFile: string }): string[] {
  requireSystem(actor);
  const dbFile = path.resolve(input.dbFile);
  const folders: Array<{ dir: string; what: string }> = [{ dir: path.dirname(dbFile), what: "the database's folder" }];
  const secret = secretState();
  if (secret.source === "file" && !secret.exists) folders.push({ dir: path.dirname(secret.file), what: "the session secret's folder" });
  folders.push({ dir: preMigrationBackupDir(dbFile), what: "the backups' folder" }, { dir: os.tmpdir(), what: "the temp folder (TMPDIR)" });
  const problems: string[] = [];
  const seen = new Set<string>();
  const who = `uid ${uid()} (gid ${gid()})`;
  for (const f of folders) {
    const dir = existingFolder(f.dir);
    if (seen.has(dir)) continue;
    seen.add(dir);
    if (!fs.statSync(dir).isDirectory()) {
      problems.push(`${dir} (${f.what}) is not a folder: move it away, or point the setting elsewhere. Nothing was started.`);
      continue;
    }
    const why = cannotWrite(dir);
    if (why) {
      problems.push(
        `cannot write in ${dir} (${f.what}${dir === f.dir ? "" : `, to make ${f.dir}`}) as ${who}: ${why}; it is ${ownerText(dir)}. ` +
          `Give this user the folder (chown ${uid()} ${dir}; in a container, mount a named volume or a folder this uid owns), or run as its owner. Nothing was started.`,
      );
    }
  }
  for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`]) {
    if (fs.existsSync(f) && cannotWriteFile(f)) problems.push(`cannot write ${f} as ${who}: it is ${ownerText(f)}. Give it to this user (chown ${uid()} ${f}). Nothing was started.`);
  }
  return problems;
}

function cannotWriteFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.R_OK | fs.constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/** Accounts in the database file, read without migrating or creating anything; 0 when it has no users table or does not exist. */
function accountsIn(dbFile: string): number {
  if (!fs.existsSync(dbFile)) return 0;
  const db = new Database(dbFile, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    const has = db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(getTableName(users));
    return has ? (db.prepare(`select count(*) as n from ${USERS.$}`).get() as { n: number }).n : 0;
  } finally {
    db.close();
  }
}

/** The first line of a password file, without its line ending. */
function passwordFromFile(file: string): string {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new InputError(`LEXGOLD_INIT_PASSWORD_FILE: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was written.`);
  }
  return text.split(/\r?\n/)[0];
}

export type InitFromEnvironment = { done: "created"; report: InitReport } | { done: "kept"; accounts: number } | { done: "nothing" };

/**
 * `lexgold start`'s first account: when LEXGOLD_INIT_USER is set and the database does not exist or
 * holds no account, create it as `lexgold init` does, with the password from
 * LEXGOLD_INIT_PASSWORD_FILE's first line or LEXGOLD_INIT_PASSWORD (one of them, never a default).
 * A database with accounts is kept as it is (the variables are then not needed).
 */
export function initFromEnvironment(actor: Actor, input: { dbFile: string }): InitFromEnvironment {
  requireSystem(actor);
  const name = setting("LEXGOLD_INIT_USER");
  if (!name) return { done: "nothing" };
  const dbFile = path.resolve(input.dbFile);
  const accounts = accountsIn(dbFile);
  if (accounts > 0) return { done: "kept", accounts };
  const file = setting("LEXGOLD_INIT_PASSWORD_FILE");
  const inline = setting("LEXGOLD_INIT_PASSWORD");
  if (file && inline) throw new InputError("LEXGOLD_INIT_PASSWORD_FILE and LEXGOLD_INIT_PASSWORD are both set: set one (the file is better); nothing was written.");
  if (!file && !inline) {
    throw new InputError(
      `LEXGOLD_INIT_USER is ${name}, but no password is given: set LEXGOLD_INIT_PASSWORD_FILE to a file holding it (a mounted secret) or LEXGOLD_INIT_PASSWORD; there is no default password. Nothing was written.`,
    );
  }
  const password = file ? passwordFromFile(file) : inline!;
  return { done: "created", report: initStudy(actor, { dbFile, name, password }) };
}

/**
 * Before `start` opens (and so migrates) an existing database that lacks migrations this lexgold
 * ships: a timed, checked backup into `preMigrationBackupDir`. Null when there is nothing to
 * migrate (or no database yet, or one that never had a migration).
 */
export async function backupBeforeMigration(actor: Actor, input: { dbFile: string }): Promise<(DirectoryBackupReport & { pending: string[] }) | null> {
  requireSystem(actor);
  const dbFile = path.resolve(input.dbFile);
  if (!fs.existsSync(dbFile)) return null;
  let pending: string[];
  let recorded: number;
  const reader = new Database(dbFile, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    const state = migrationState(reader, knownMigrations());
    pending = state.pending.map((m) => m.tag);
    recorded = state.recorded.length;
  } finally {
    reader.close();
  }
  if (pending.length === 0 || recorded === 0) return null;
  const db = openForBackup(dbFile);
  try {
    return { ...(await backupToDirectory(db, actor, preMigrationBackupDir(dbFile))), pending };
  } finally {
    db.$client.close();
  }
}
