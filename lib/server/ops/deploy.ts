/**
 * Running lexgold for a study: `lexgold init` (an empty database, the first
 * coordinator, the session secret), the checks `lexgold start` makes before it
 * serves, and `lexgold doctor`. Like backup.ts this module works on files for
 * the operator who holds them, so only the SYSTEM actor may call it.
 */
import "server-only";
import fs from "node:fs";
import path from "node:path";
import bcrypt from "bcryptjs";
import Database from "better-sqlite3";
import { knownMigrations, migrationState, openDb, projectRoot } from "../../../db/client";
import { distWorkerDir, WORKER_NAMES } from "../runtime/worker-files";
import { MIN_SECRET_LENGTH, secretState, writeSecretFile } from "../kernel/secret";
import { type Actor, requireSignedIn, SYSTEM } from "../kernel/actor";
import { backupBaseName, listTimestampedBackups } from "./backup";
import { DEMO_PASSWORD, DEMO_USERS } from "./demo";
import { AuthError, InputError } from "../kernel/errors";
import { createUser, newUserSchema, type PublicUser } from "../people/users";
import { parseOrThrow } from "../kernel/validate";
import { environment, setting } from "../../config";
import { projects, users } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { getTableName } from "drizzle-orm";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const PROJECTS = named(projects);
const USERS = named(users);

function requireSystem(actor: Actor): void {
  const a = requireSignedIn(actor);
  if (a.kind !== "system") throw new AuthError("Only the command line (whoever holds the database file) can do that.");
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** Accounts in an existing database file, read without migrating or creating anything; null when it has no users table. */
function countAccounts(file: string): number | null {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    const has = db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(getTableName(users));
    return has ? (db.prepare(`select count(*) as n from ${USERS.$}`).get() as { n: number }).n : null;
  } finally {
    db.close();
  }
}

export interface InitReport {
  dbFile: string;
  user: PublicUser;
  secret: { source: "env" } | { source: "file"; file: string; created: boolean };
}

/**
 * `lexgold init`: create (or migrate) the database at `dbFile`, make the first
 * coordinator, and write the session secret (0600) unless NEXTAUTH_SECRET is
 * set. Refuses a database that already has accounts, and bad names or
 * passwords, before writing anything.
 */
export function initStudy(actor: Actor, input: { dbFile: string; name: string; password: string }): InitReport {
  requireSystem(actor);
  const dbFile = path.resolve(input.dbFile);
  const refuse = (n: number) =>
    new InputError(`${dbFile} already has ${plural(n, "account")}; init only starts an empty database (use \`lexgold user add\` for more accounts); nothing was written.`);
  if (fs.existsSync(dbFile)) {
    let n: number | null;
    try {
      n = countAccounts(dbFile);
    } catch (e) {
      throw new InputError(`${dbFile}: SQLite cannot open it (${(e as Error).message}); nothing was written.`);
    }
    if (n && n > 0) throw refuse(n);
  }
  const data = parseOrThrow(newUserSchema, { name: input.name, role: "coordinator", password: input.password }, "Cannot create the coordinator");

  // The secret before the account: if it cannot be written, init can simply be run again.
  const secret: InitReport["secret"] = setting("NEXTAUTH_SECRET") ? { source: "env" } : { source: "file", ...writeSecretFile() };
  const db = openDb(dbFile);
  try {
    const sqlite = db.$client;
    // Counted and created under one write lock: two inits at once make one coordinator.
    sqlite.exec("BEGIN IMMEDIATE");
    try {
      const n = (sqlite.prepare(`select count(*) as n from ${USERS.$}`).get() as { n: number }).n;
      if (n > 0) throw refuse(n);
      const user = createUser(db, SYSTEM, data);
      // The study's own coordinator: a coordinator of every project, however it is made (corpus/projects.ts).
      sqlite.prepare(`update ${USERS.$} set ${USERS.administersProjects} = 1 where ${USERS.id} = ?`).run(user.id);
      sqlite.exec("COMMIT");
      return { dbFile, user, secret };
    } catch (e) {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      throw e;
    }
  } finally {
    db.$client.close();
  }
}

/** Loopback bind addresses: only this machine can connect. */
function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h) || h === "::ffff:127.0.0.1";
}

/** The public URL from NEXTAUTH_URL or LEXGOLD_PUBLIC_URL; a problem when they disagree or are not an http(s) URL. */
function publicUrl(env: NodeJS.ProcessEnv): { url: string | null; problem: string | null } {
  const a = env.NEXTAUTH_URL?.trim() || null;
  const b = env.LEXGOLD_PUBLIC_URL?.trim() || null;
  if (a && b && a.replace(/\/$/, "") !== b.replace(/\/$/, "")) {
    return { url: null, problem: `NEXTAUTH_URL (${a}) and LEXGOLD_PUBLIC_URL (${b}) differ: set one of them, the address people open.` };
  }
  const url = a ?? b;
  if (!url) return { url: null, problem: null };
  const name = a ? "NEXTAUTH_URL" : "LEXGOLD_PUBLIC_URL";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url: null, problem: `${name} is not a URL: "${url}" (e.g. https://lexgold.example.org).` };
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return { url: null, problem: `${name} must start with https:// (or http://), not "${url}".` };
  if (parsed.pathname !== "/" || parsed.search || parsed.hash) {
    return { url: null, problem: `${name} must be the site's root (lexgold cannot be served under a path), not "${url}".` };
  }
  return { url: parsed.origin, problem: null };
}

/** The directory of the production build (NEXT_DIST_DIR or .next, under the project root). */
function buildDir(env: NodeJS.ProcessEnv = environment()): string {
  return path.resolve(projectRoot(), env.NEXT_DIST_DIR || ".next");
}

export interface StartPlan {
  /** Why the server must not start; empty when it may. */
  problems: string[];
  /** Worth saying, but no reason to refuse. */
  warnings: string[];
  dbFile: string;
  /** The address people open (NEXTAUTH_URL for the server). */
  url: string;
  host: string;
  port: number;
  accounts: number;
  projects: number;
  /** The secret file the server will read, or null when NEXTAUTH_SECRET is set. */
  secretFile: string | null;
}

/**
 * What `lexgold start` checks before serving: a built app, a database with an
 * account (and none of the quick start's demo accounts with the published
 * password), a session secret, and the public URL when the server listens
 * beyond this machine. The database is opened (so pending migrations run now,
 * not on the first request) but never created.
 */
export function planStart(actor: Actor, input: { dbFile: string; host: string; port: number; env?: NodeJS.ProcessEnv }): StartPlan {
  requireSystem(actor);
  const env = input.env ?? environment();
  const dbFile = path.resolve(input.dbFile);
  const problems: string[] = [];
  const warnings: string[] = [];
  let accounts = 0;
  let projects = 0;

  if (!fs.existsSync(dbFile)) {
    problems.push(`no database at ${dbFile}: create it with \`lexgold init NAME\` (NAME: the first coordinator) or LEXGOLD_INIT_USER with LEXGOLD_INIT_PASSWORD_FILE, or set LEXGOLD_DB / --db to yours.`);
  } else {
    try {
      const db = openDb(dbFile);
      try {
        const count = (t: { $: string }) => (db.$client.prepare(`select count(*) as n from ${t.$}`).get() as { n: number }).n;
        accounts = count(USERS);
        projects = count(PROJECTS);
        if (accounts === 0) problems.push(`no account in ${dbFile}: create the first coordinator with \`lexgold init NAME\` (or LEXGOLD_INIT_USER with LEXGOLD_INIT_PASSWORD_FILE).`);
        const demo = DEMO_USERS.map((u) => db.$client.prepare(`select ${USERS.name}, ${USERS.passwordHash} as hash from ${USERS.$} where ${USERS.name} = ?`).get(u.name) as { name: string; hash: string } | undefined)
          .filter((u): u is { name: string; hash: string } => !!u && bcrypt.compareSync(DEMO_PASSWORD, u.hash))
          .map((u) => u.name);
        if (demo.length > 0) {
          problems.push(
            `${dbFile} holds the quick start's demo account${demo.length > 1 ? "s" : ""} (${demo.join(", ")}) with the published password: ` +
              "that is the quick start's database (`npm run quickstart` serves it); for a study, `lexgold init` a new one.",
          );
        }
      } finally {
        db.$client.close();
      }
    } catch (e) {
      problems.push((e as Error).message.split("\n")[0]);
    }
  }

  const secret = secretState();
  if (secret.source === "env") {
    if (secret.length < MIN_SECRET_LENGTH) problems.push(`NEXTAUTH_SECRET is shorter than ${MIN_SECRET_LENGTH} characters.`);
  } else if (!secret.exists) {
    problems.push(`no session secret at ${secret.file} (and NEXTAUTH_SECRET is unset): \`lexgold init\` writes one.`);
  } else if (secret.length < MIN_SECRET_LENGTH) {
    problems.push(`the session secret in ${secret.file} is shorter than ${MIN_SECRET_LENGTH} characters: remove the file and run \`lexgold init\` again.`);
  } else if (secret.mode & 0o077) {
    warnings.push(`${secret.file} is readable by others (mode ${secret.mode.toString(8)}): chmod 600 ${secret.file}`);
  }

  const pub = publicUrl(env);
  if (pub.problem) problems.push(pub.problem);
  const loopback = isLoopback(input.host);
  if (!pub.url && !pub.problem && !loopback) {
    problems.push(
      `the public URL is unset, and ${input.host} is not a loopback address: set NEXTAUTH_URL (or LEXGOLD_PUBLIC_URL) to the address people open, e.g. https://lexgold.example.org.`,
    );
  }
  if (pub.url?.startsWith("http://") && !loopback) {
    warnings.push(`${pub.url} is plain http: passwords and session cookies cross the network unencrypted; put lexgold behind HTTPS (see the README).`);
  }
  const hostInUrl = input.host.includes(":") ? `[${input.host}]` : input.host;
  const url = pub.url ?? `http://${hostInUrl}:${input.port}`;

  const build = buildDir(env);
  if (!fs.existsSync(path.join(build, "BUILD_ID"))) problems.push(`no production build in ${build}: run \`npm run build\` first.`);
  // The workers (derivations, jobs, bcrypt) are built with the app; the server never builds them.
  const workers = distWorkerDir(projectRoot());
  const missing = WORKER_NAMES.filter((w) => !fs.existsSync(path.join(workers, `${w}.mjs`)));
  if (missing.length > 0) problems.push(`no worker bundles (${missing.join(", ")}) in ${workers}: run \`npm run build\` (or \`npm run build:workers\`) first.`);

  return {
    problems,
    warnings,
    dbFile,
    url,
    host: input.host,
    port: input.port,
    accounts,
    projects,
    secretFile: secret.source === "file" ? secret.file : null,
  };
}

/** ok; warn: a problem to fix (doctor exits 2); fail: lexgold cannot run safely (exit 1); info: not checked. */
type CheckStatus = "ok" | "warn" | "fail" | "info";

export interface Check {
  check: string;
  status: CheckStatus;
  message: string;
}

/** A mode shown as ls would: 0600 → "600". */
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, "0");

function privateFile(file: string, what: string): Check {
  const mode = fs.statSync(file).mode & 0o777;
  return mode & 0o077
    ? { check: "permissions", status: "warn", message: `${what} ${file} is readable by group or others (mode ${octal(mode)}): chmod 600 ${file}` }
    : { check: "permissions", status: "ok", message: `${what} ${file} is private (mode ${octal(mode)})` };
}

/** Free space under `dir` in bytes (statfs), or null when the platform cannot say. */
function freeBytes(dir: string): number | null {
  try {
    const s = fs.statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

function bytesText(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024).toFixed(1)} KB`;
}

/** Free space below which doctor warns, whatever the database's size. */
const LOW_DISK_BYTES = 1024 ** 3;

/**
 * `lexgold doctor`: integrity, migrations (pending, or a newer lexgold's),
 * accounts, file permissions (database, -wal, -shm, secret, backups), the
 * secret, free disk space and the age of the newest backup. Opens the database
 * read-only: it never migrates or changes anything.
 */
/** Largest database doctor reads into memory to check (above it, it reads the file in place). */
const MAX_INSPECT_IMAGE_BYTES = 2 ** 31 - 1;
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

/**
 * The database opened to be read, creating nothing beside it. A read-only
 * connection to a WAL database creates -wal and -shm files when they are
 * missing (and cannot remove them): so when the write-ahead log is missing or
 * empty (nothing in it to checkpoint) the file alone is the whole database, and
 * doctor reads an image of it in memory, marked as a rollback journal database
 * in that image only. When the log holds pages (a server has the database open,
 * or one stopped without checkpointing), a read-only connection joins the files
 * that are there.
 */
function openForInspection(dbFile: string): Database.Database {
  const wal = dbFile + "-wal";
  const logged = fs.existsSync(wal) && fs.statSync(wal).size > 0;
  if (logged || fs.statSync(dbFile).size > MAX_INSPECT_IMAGE_BYTES) return new Database(dbFile, { readonly: true, fileMustExist: true, timeout: 5000 });
  const image = fs.readFileSync(dbFile);
  // Bytes 18 and 19 of the header: 2 = WAL. An in-memory database cannot be WAL; the copy is read as rollback.
  if (image.length >= 100 && image.subarray(0, 16).equals(SQLITE_HEADER) && image[18] === 2 && image[19] === 2) image[18] = image[19] = 1;
  return new Database(image, { readonly: true });
}

/**
 * `backupDir`: where timed backups of `dbFile` are looked for; null or absent
 * leaves the backups unchecked, saying why (`backupsUnchecked`, or "no
 * directory named").
 */
/** The database files in a backup directory, by name (none when it cannot be read). */
function otherDatabaseFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((f) => /\.(db|sqlite3?)$/i.test(f))
      .sort();
  } catch {
    return [];
  }
}

export function doctor(actor: Actor, input: { dbFile: string; backupDir?: string | null; backupsUnchecked?: string; now?: Date }): Check[] {
  requireSystem(actor);
  const dbFile = path.resolve(input.dbFile);
  const out: Check[] = [];
  let dbBytes = 0;

  if (!fs.existsSync(dbFile)) {
    out.push({ check: "database", status: "fail", message: `no database at ${dbFile}: \`lexgold init NAME\` creates one (or set LEXGOLD_DB / --db)` });
  } else {
    let sqlite: Database.Database | null = null;
    try {
      sqlite = openForInspection(dbFile);
      const problems = (sqlite.pragma("integrity_check(20)") as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
      out.push(
        problems.length === 1 && problems[0] === "ok"
          ? { check: "integrity", status: "ok", message: `${dbFile}: integrity_check ok` }
          : { check: "integrity", status: "fail", message: `${dbFile}: integrity_check: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}; restore the newest backup` },
      );
      const state = migrationState(sqlite, knownMigrations());
      if (state.unknown.length > 0) {
        out.push({
          check: "migrations",
          status: "fail",
          message: `${dbFile} was written by a newer lexgold (${plural(state.unknown.length, "migration")} this lexgold does not know): upgrade lexgold`,
        });
      } else if (state.pending.length > 0) {
        out.push({
          check: "migrations",
          status: "warn",
          message: `${plural(state.pending.length, "migration")} pending (${state.pending.map((m) => m.tag).join(", ")}): they run when lexgold next opens the database; back up first`,
        });
      } else {
        out.push({ check: "migrations", status: "ok", message: `all ${state.recorded.length} migrations applied` });
      }
      const hasUsers = sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(getTableName(users));
      const accounts = hasUsers ? (sqlite.prepare(`select count(*) as n from ${USERS.$}`).get() as { n: number }).n : 0;
      out.push(
        accounts > 0
          ? { check: "accounts", status: "ok", message: plural(accounts, "account") }
          : { check: "accounts", status: "fail", message: "no account: `lexgold init NAME` creates the first coordinator" },
      );
    } catch (e) {
      out.push({ check: "integrity", status: "fail", message: `${dbFile}: SQLite cannot read it (${(e as Error).message})` });
    } finally {
      sqlite?.close();
    }
    for (const [suffix, what] of [
      ["", "database"],
      ["-wal", "write-ahead log"],
      ["-shm", "shared-memory index"],
    ] as const) {
      const f = dbFile + suffix;
      if (fs.existsSync(f)) {
        out.push(privateFile(f, what));
        dbBytes += fs.statSync(f).size;
      }
    }
  }

  const secret = secretState();
  if (secret.source === "env") {
    out.push(
      secret.length >= MIN_SECRET_LENGTH
        ? { check: "secret", status: "ok", message: "session secret from NEXTAUTH_SECRET" }
        : { check: "secret", status: "fail", message: `NEXTAUTH_SECRET is shorter than ${MIN_SECRET_LENGTH} characters` },
    );
  } else if (!secret.exists) {
    out.push({ check: "secret", status: "fail", message: `no session secret at ${secret.file}: \`lexgold init\` writes one` });
  } else {
    out.push(
      secret.length >= MIN_SECRET_LENGTH
        ? { check: "secret", status: "ok", message: `session secret in ${secret.file}` }
        : { check: "secret", status: "fail", message: `the session secret in ${secret.file} is shorter than ${MIN_SECRET_LENGTH} characters` },
    );
    out.push(privateFile(secret.file, "session secret"));
  }

  const backupDir = input.backupDir ? path.resolve(input.backupDir) : null;
  if (!backupDir) {
    out.push({ check: "backups", status: "info", message: input.backupsUnchecked ?? "no backup directory named (--backups DIR or LEXGOLD_BACKUP_DIR): backups not checked" });
  } else {
    const backups = listTimestampedBackups(backupDir, backupBaseName(dbFile));
    if (backups.length === 0) {
      // A copy named by hand (`lexgold backup backups/monday.db`) is not one of the timed backups counted here: say so, or it looks lost.
      const others = otherDatabaseFiles(backupDir);
      const counted = `only the copies \`backup --dir\` names ${backupBaseName(dbFile)}-<time>.db count`;
      const byHand =
        others.length === 0 ? "" : others.length === 1 ? ` (${others[0]} there is not counted: ${counted})` : ` (${others.length} other files there, e.g. ${others[0]}, are not counted: ${counted})`;
      out.push({ check: "backups", status: "warn", message: `no backups of ${path.basename(dbFile)} in ${backupDir}${byHand}: \`lexgold backup --dir ${backupDir} --keep N\`` });
    } else {
      const newest = backups[backups.length - 1];
      const hours = ((input.now ?? new Date()).getTime() - fs.statSync(newest).mtimeMs) / 3_600_000;
      out.push(
        hours <= 48
          ? { check: "backups", status: "ok", message: `${plural(backups.length, "backup")} in ${backupDir}, the newest ${Math.max(0, Math.round(hours))} h old` }
          : { check: "backups", status: "warn", message: `the newest backup in ${backupDir} is ${Math.round(hours)} h old: is the timer running?` },
      );
      const open = backups.filter((f) => fs.statSync(f).mode & 0o077);
      out.push(
        open.length > 0
          ? { check: "permissions", status: "warn", message: `${plural(open.length, "backup")} in ${backupDir} readable by group or others: chmod 600 ${backupDir}/*.db` }
          : { check: "permissions", status: "ok", message: `the backups in ${backupDir} are private` },
      );
    }
  }

  const where = fs.existsSync(path.dirname(dbFile)) ? path.dirname(dbFile) : projectRoot();
  const free = freeBytes(where);
  if (free === null) {
    out.push({ check: "disk", status: "warn", message: `cannot tell the free space under ${where}` });
  } else if (free < 2 * dbBytes) {
    out.push({ check: "disk", status: "fail", message: `${bytesText(free)} free under ${where}: less than twice the database (${bytesText(dbBytes)}), so a backup or migration may not fit` });
  } else if (free < LOW_DISK_BYTES) {
    out.push({ check: "disk", status: "warn", message: `only ${bytesText(free)} free under ${where}` });
  } else {
    out.push({ check: "disk", status: "ok", message: `${bytesText(free)} free under ${where}` });
  }
  return out;
}
