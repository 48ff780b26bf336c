/**
 * Upgrades keep every response: a database written by an earlier lexgold
 * (test/fixtures/lexgold-0001.db, made by scripts/make-upgrade-fixture.ts with
 * the migrations up to 0001_gold_review) opens with the current code, is
 * migrated, and still holds every response and every history row. A database
 * recording a migration this code does not know is refused, untouched.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { knownMigrations, MIGRATIONS_TABLE, migrationsFolder, NewerDatabaseError, openDb } from "../../../db/client";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { doctor } from "../../../lib/server/ops/deploy";
import { exportResponses } from "../../../lib/server/annotate/response-import";
import { signInWithPassword } from "../../../lib/server/people/signin";

const FIXTURE = path.resolve(import.meta.dirname, "../../fixtures/lexgold-0001.db");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-upgrade-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let copies = 0;
function copyOfFixture(): string {
  const file = path.join(dir, `copy-${++copies}.db`);
  fs.copyFileSync(FIXTURE, file);
  return file;
}

/** Every row of responses and response_history, in id order, read without lexgold's code. */
function rows(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return {
      responses: db.prepare("select * from responses order by id").all(),
      history: db.prepare("select * from response_history order by id").all(),
      migrations: (db.prepare(`select created_at as at from ${MIGRATIONS_TABLE} order by created_at`).all() as { at: number }[]).map((r) => Number(r.at)),
    };
  } finally {
    db.close();
  }
}

/** Rows cut to the columns the rows of `like` have. */
function onColumnsOf(rows: unknown[], like: unknown[]): unknown[] {
  const keys = Object.keys((like[0] ?? {}) as object);
  return rows.map((r) => Object.fromEntries(keys.map((k) => [k, (r as Record<string, unknown>)[k]])));
}

const sha = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

describe("a database from an earlier lexgold", () => {
  it("holds responses and a longer history (the fixture is what the test claims)", () => {
    const before = rows(FIXTURE);
    expect(before.responses.length).toBeGreaterThanOrEqual(10);
    expect(before.history.length).toBeGreaterThan(before.responses.length);
    expect(before.migrations.length).toBeGreaterThan(0);
  });

  it("opens with the current code, is migrated, and keeps every response and its history", async () => {
    const file = copyOfFixture();
    const before = rows(file);
    const db = openDb(file);
    try {
      // Migrated: every shipped migration is recorded now.
      expect(rows(file).migrations).toEqual(knownMigrations().map((m) => m.when));
      const after = rows(file);
      expect(after.responses).toHaveLength(before.responses.length);
      expect(after.history).toHaveLength(before.history.length);
      // Every stored value of the old columns is unchanged.
      for (const [i, r] of before.responses.entries()) expect(after.responses[i]).toMatchObject(r as object);
      for (const [i, h] of before.history.entries()) expect(after.history[i]).toMatchObject(h as object);
      // And the current code reads them: the export lists one line per response, the accounts still sign in.
      const project = db.$client.prepare("select id from projects").get() as { id: number };
      expect(exportResponses(db, SYSTEM, project.id).trim().split("\n")).toHaveLength(1 + before.responses.length);
      expect(await signInWithPassword(db, { name: "ann2", password: "fixture-password", client: null, deviceCookie: null, secret: "s".repeat(40) })).toMatchObject({ ok: true });
    } finally {
      db.$client.close();
    }
  });

  it("keeps every response through a migration that rebuilds the users table (foreign keys off while migrating)", () => {
    // A migration the way drizzle-kit writes a table rebuild: new table, copy, DROP the old one, rename.
    // With foreign keys on, the DROP would cascade to every response and history-bearing row of every user.
    const folder = path.join(dir, "drizzle-rebuild");
    fs.cpSync(migrationsFolder(), folder, { recursive: true });
    const fixture = new Database(FIXTURE, { readonly: true });
    const ddl = (fixture.prepare("select sql from sqlite_master where type = 'table' and name = 'users'").get() as { sql: string }).sql;
    const indexes = (fixture.prepare("select sql from sqlite_master where type = 'index' and tbl_name = 'users' and sql is not null").all() as { sql: string }[]).map(
      (r) => r.sql,
    );
    const cols = (fixture.prepare("select name from pragma_table_info('users')").all() as { name: string }[]).map((c) => `\`${c.name}\``).join(", ");
    fixture.close();
    const sql = [
      "PRAGMA foreign_keys=OFF;",
      ddl.replace(/^CREATE TABLE [`"]?users[`"]?/, "CREATE TABLE `__new_users`") + ";",
      `INSERT INTO \`__new_users\`(${cols}) SELECT ${cols} FROM \`users\`;`,
      "DROP TABLE `users`;",
      "ALTER TABLE `__new_users` RENAME TO `users`;",
      "PRAGMA foreign_keys=ON;",
      ...indexes.map((i) => i + ";"),
    ].join("--> statement-breakpoint\n");
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: Array<{ idx: number; when: number; tag: string }> };
    const last = journal.entries[journal.entries.length - 1];
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: "9999_rebuild_users" });
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    fs.writeFileSync(path.join(folder, "9999_rebuild_users.sql"), sql);

    const file = copyOfFixture();
    const before = rows(file);
    const db = openDb(file, { migrationsFolder: folder });
    db.$client.close();
    const after = rows(file);
    expect(after.migrations).toContain(last.when + 1000);
    // Compared on the fixture's columns: later migrations add columns (responses.suggestions, drizzle/0028) with nulls.
    expect(onColumnsOf(after.responses, before.responses)).toEqual(before.responses);
    expect(onColumnsOf(after.history, before.history)).toEqual(before.history);
  });
});

describe("a database from a newer lexgold", () => {
  it("is refused with a message naming the file, and left byte for byte as it was", () => {
    const file = copyOfFixture();
    const future = Math.max(...knownMigrations().map((m) => m.when)) + 86_400_000;
    const raw = new Database(file);
    raw.prepare(`insert into ${MIGRATIONS_TABLE} (hash, created_at) values ('from-a-newer-lexgold', ?)`).run(future);
    raw.close();
    const digest = sha(file);
    let error: unknown;
    try {
      openDb(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NewerDatabaseError);
    expect((error as Error).message).toBe(
      `${file} was written by a newer lexgold: it records 1 migration this lexgold does not know (made ${new Date(future).toISOString()}). ` +
        "It was not opened and nothing was changed: upgrade lexgold to the version that wrote it, or restore a backup made by this version.",
    );
    expect(sha(file)).toBe(digest);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });
});

describe("files are private", () => {
  it("creates a new database and its -wal and -shm files with mode 0600", () => {
    const file = path.join(dir, "fresh", "new.db");
    const db = openDb(file);
    db.$client.prepare("insert into projects (name, created_at) values ('x', 0)").run();
    try {
      for (const f of [file, `${file}-wal`, `${file}-shm`]) expect((fs.statSync(f).mode & 0o777).toString(8), f).toBe("600");
    } finally {
      db.$client.close();
    }
  });
});

describe("lexgold doctor on an older database", () => {
  it("names the pending migrations (a warning) and changes nothing", () => {
    const file = copyOfFixture();
    const known = knownMigrations();
    openDb(file).$client.close(); // brought up to date first
    const raw = new Database(file);
    // As the database was before the last migration was recorded (its tables are a superset; only the record matters here).
    raw.prepare(`delete from ${MIGRATIONS_TABLE} where created_at = ?`).run(known[known.length - 1].when);
    raw.close();
    const digest = sha(file);
    const checks = doctor(SYSTEM, { dbFile: file });
    expect(checks.find((c) => c.check === "migrations")).toEqual({
      check: "migrations",
      status: "warn",
      message: `1 migration pending (${known[known.length - 1].tag}): they run when lexgold next opens the database; back up first`,
    });
    expect(checks.find((c) => c.check === "integrity")?.status).toBe("ok");
    expect(sha(file)).toBe(digest);
  });
});

describe("migration 0016 (system_runs.bytes)", () => {
  it("fills in the size of runs stored before it, in UTF-8 bytes", () => {
    const db = new Database(":memory:");
    const files = fs.readdirSync(migrationsFolder()).filter((f) => /^\d{4}_.*\.sql$/.test(f)).sort();
    const apply = (f: string) => {
      for (const stmt of fs.readFileSync(path.join(migrationsFolder(), f), "utf8").split("--> statement-breakpoint")) if (stmt.trim()) db.exec(stmt);
    };
    const at = files.findIndex((f) => f.startsWith("0016_"));
    expect(at).toBeGreaterThan(0);
    db.pragma("foreign_keys = off");
    for (const f of files.slice(0, at)) apply(f);
    db.prepare("insert into projects (name) values ('p')").run();
    const content = "café.n 1 :: naïve\n";
    db.prepare("insert into system_runs (project_id, name, type, file_name, content) values (1, 'r', 'best', 'r.best', ?)").run(content);
    apply(files[at]);
    expect(db.prepare("select bytes from system_runs").get()).toEqual({ bytes: Buffer.byteLength(content) });
    expect(Buffer.byteLength(content)).toBeGreaterThan(content.length);
    db.close();
  });
});

describe("migration 0024 (training items out of the queue)", () => {
  it("takes existing training items out of the queue and recounts what the queue reads", () => {
    const db = new Database(":memory:");
    const files = fs.readdirSync(migrationsFolder()).filter((f) => /^\d{4}_.*\.sql$/.test(f)).sort();
    const apply = (f: string) => {
      for (const stmt of fs.readFileSync(path.join(migrationsFolder(), f), "utf8").split("--> statement-breakpoint")) if (stmt.trim()) db.exec(stmt);
    };
    const at = files.findIndex((f) => f.startsWith("0024_"));
    expect(at).toBeGreaterThan(0);
    db.pragma("foreign_keys = off");
    for (const f of files.slice(0, at)) apply(f);
    // Two projects: one with training items (i2 answered by user 1, i3 by users 1 and 2), one without.
    db.exec(`
      insert into projects (id, name) values (1, 'p'), (2, 'q');
      insert into lexelts (id, project_id, item, lemma, pos, position, instance_count, instances_before) values
        (1, 1, 'a.n', 'a', 'n', 1, 2, 0), (2, 1, 'b.n', 'b', 'n', 2, 2, 2), (3, 1, 'c.n', 'c', 'n', 3, 1, 4), (4, 2, 'd.n', 'd', 'n', 1, 1, 0);
      insert into instances (id, project_id, lexelt_id, instance_id, before, head, after, position) values
        (1, 1, 1, 'i1', '', 'a', '', 1), (2, 1, 1, 'i2', '', 'a', '', 2), (3, 1, 2, 'i3', '', 'b', '', 3), (4, 1, 2, 'i4', '', 'b', '', 4),
        (5, 1, 3, 'i5', '', 'c', '', 5), (6, 2, 4, 'j1', '', 'd', '', 1);
      insert into known_answers (instance_ref, project_id, role, accepted, set_at) values (2, 1, 'training', '["x"]', 0), (3, 1, 'training', '["x"]', 0), (5, 1, 'check', '["x"]', 0);
      insert into responses (project_id, instance_ref, user_id, kind, substitutes, revision, updated_at) values
        (1, 1, 1, 'substitutes', '["x"]', 1, 0), (1, 2, 1, 'substitutes', '["x"]', 1, 0), (1, 3, 1, 'substitutes', '["x"]', 1, 0),
        (1, 3, 2, 'substitutes', '["x"]', 1, 0), (1, 5, 2, 'substitutes', '["x"]', 1, 0), (2, 6, 1, 'substitutes', '["x"]', 1, 0);
      insert into queue_counts (project_id, user_id, lexelt_id, done) values (1, 1, 1, 2), (1, 1, 2, 1), (1, 2, 2, 1), (1, 2, 3, 1), (2, 1, 4, 1);
      insert into annotator_counts (project_id, user_id, done) values (1, 1, 3), (1, 2, 2), (2, 1, 1);
    `);
    apply(files[at]);
    const all = (sql: string) => db.prepare(sql).all();
    expect(all("select id, in_queue from instances where in_queue = 0")).toEqual([
      { id: 2, in_queue: 0 },
      { id: 3, in_queue: 0 },
    ]);
    expect(all("select id, out_of_queue, out_of_queue_before from lexelts order by id")).toEqual([
      { id: 1, out_of_queue: 1, out_of_queue_before: 0 },
      { id: 2, out_of_queue: 1, out_of_queue_before: 1 },
      { id: 3, out_of_queue: 0, out_of_queue_before: 2 },
      { id: 4, out_of_queue: 0, out_of_queue_before: 0 },
    ]);
    expect(all("select project_id, user_id, lexelt_id, done from queue_counts order by 1, 2, 3")).toEqual([
      { project_id: 1, user_id: 1, lexelt_id: 1, done: 1 },
      { project_id: 1, user_id: 1, lexelt_id: 2, done: 0 },
      { project_id: 1, user_id: 2, lexelt_id: 2, done: 0 },
      { project_id: 1, user_id: 2, lexelt_id: 3, done: 1 },
      { project_id: 2, user_id: 1, lexelt_id: 4, done: 1 },
    ]);
    expect(all("select project_id, user_id, done from annotator_counts order by 1, 2")).toEqual([
      { project_id: 1, user_id: 1, done: 1 },
      { project_id: 1, user_id: 2, done: 1 },
      { project_id: 2, user_id: 1, done: 1 },
    ]);
    expect(all("select training_in_queue as k from projects")).toEqual([{ k: 0 }, { k: 0 }]);
    db.close();
  });
});

describe("migration 0027 (the study's own coordinator)", () => {
  it("makes the first coordinator account the study's, a coordinator of every project, keeping other roles", () => {
    const db = new Database(":memory:");
    const files = fs.readdirSync(migrationsFolder()).filter((f) => /^\d{4}_.*\.sql$/.test(f)).sort();
    const apply = (f: string) => {
      for (const stmt of fs.readFileSync(path.join(migrationsFolder(), f), "utf8").split("--> statement-breakpoint")) if (stmt.trim()) db.exec(stmt);
    };
    const at = files.findIndex((f) => f.includes("_study_coordinator"));
    expect(at).toBeGreaterThan(0);
    db.pragma("foreign_keys = off");
    for (const f of files.slice(0, at)) apply(f);
    // Users 1 (an annotator), 2 (the first coordinator: init's), 3 (another coordinator);
    // projects 1 (a CLI project, no member), 2 (2 judges in it), and a holding project 3.
    db.exec(`
      insert into users (id, name, password_hash, role) values (1, 'ann', 'x', 'annotator'), (2, 'boss', 'x', 'coordinator'), (3, 'cora', 'x', 'coordinator');
      insert into projects (id, name) values (1, 'cli'), (2, 'web');
      insert into projects (id, name, staging_for) values (3, 'holding', 2);
      insert into memberships (project_id, user_id, role) values (2, 3, 'coordinator'), (2, 2, 'judge');
    `);
    apply(files[at]);
    const all = (sql: string) => db.prepare(sql).all();
    expect(all("select id, administers_projects as a from users order by id")).toEqual([
      { id: 1, a: 0 },
      { id: 2, a: 1 },
      { id: 3, a: 0 },
    ]);
    expect(all("select project_id, user_id, role from memberships order by 1, 2")).toEqual([
      { project_id: 1, user_id: 2, role: "coordinator" },
      { project_id: 2, user_id: 2, role: "judge" },
      { project_id: 2, user_id: 3, role: "coordinator" },
    ]);
    db.close();
  });
});
