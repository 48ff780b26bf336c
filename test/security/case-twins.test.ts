/**
 * Issue #27, finding 3: user names are one account whatever their case. A
 * coordinator could create "Coordinator" beside "coordinator": its failures then
 * slowed the other down and the throttle confused the two. Now the database
 * refuses such a twin (the users_name_nocase index), every creation path says
 * why, sign-in accepts the name in any case, and the migration that adds the
 * index names existing twins and refuses to run until they are renamed.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { knownMigrations, MIGRATIONS_TABLE, MigrationError, migrationsFolder, openDb } from "../../db/client";
import { SYSTEM } from "../../lib/server/kernel/actor";
import { InputError } from "../../lib/server/kernel/errors";
import { signInWithPassword } from "../../lib/server/people/signin";
import { createAnnotatorForProject } from "../../lib/server/people/team";
import { importUsers } from "../../lib/server/people/user-import";
import { createUser } from "../../lib/server/people/users";
import { world } from "./world";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-twins-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return `400 ${e.message}`;
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
  return "ok";
}

describe("finding 3: no two accounts whose names differ only in case", () => {
  it("a coordinator creating an annotator 'Coord' beside 'coord' is refused, saying why", async () => {
    const w = world();
    await expect(createAnnotatorForProject(w.db, w.coord, w.p.id, { name: "Coord", password: "" })).rejects.toThrow(/"coord" already exists.*more than their case/);
    await expect(createAnnotatorForProject(w.db, w.coord, w.p.id, { name: "ANN", password: "" })).rejects.toBeInstanceOf(InputError);
    expect(message(() => createUser(w.db, SYSTEM, { name: "CoordQ", role: "coordinator", password: "a-long-password-1" }))).toMatch(/^400 .*"coordq" already exists/);
    expect(message(() => importUsers(w.db, SYSTEM, { fileName: "u.tsv", text: "Ann\tannotator\tp\t\n" }))).toMatch(/^400 1 bad line/);
    expect(message(() => importUsers(w.db, SYSTEM, { fileName: "u.tsv", text: "nova\tannotator\tp\t\nNOVA\tannotator\tp\t\n" }))).toMatch(/^400 1 bad line/);
    // And below the code, the database itself.
    expect(() => w.db.$client.prepare("insert into users (name, password_hash, role) values ('COORD', 'x', 'annotator')").run()).toThrow(/UNIQUE/);
    expect(w.db.$client.prepare("select count(*) as n from users where name = 'coord' collate nocase").get()).toEqual({ n: 1 });
  });

  it("the command line's `user add` refuses a twin with the reason", () => {
    const file = path.join(dir, "cli.db");
    const db = openDb(file);
    createUser(db, SYSTEM, { name: "coordinator", role: "coordinator", password: "a-long-password-1" });
    db.$client.close();
    const bin = path.resolve(import.meta.dirname, "../../bin/lexgold");
    const r = spawnSync(bin, ["user", "add", "Coordinator", "--role", "annotator", "--db", file], { input: "a-long-password-2\n", encoding: "utf8", env: { ...process.env, LEXGOLD_BCRYPT_COST: "4" } });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/"coordinator" already exists/);
  });

  it("sign-in takes the name in any case, and failures typed in any case count for the one account", async () => {
    const w = world();
    const r = await signInWithPassword(w.db, { name: "Ann", password: "password-ann", client: "192.0.2.1", deviceCookie: null, secret: "s".repeat(40) });
    expect(r).toMatchObject({ ok: true, user: { id: w.ann.userId, name: "ann" } });
    for (const name of ["ANN", "aNn", "ann"]) await signInWithPassword(w.db, { name, password: "wrong-password-1", client: "192.0.2.1", deviceCookie: null, secret: "s".repeat(40) });
    expect(w.db.$client.prepare("select distinct key from sign_in_failures").all()).toEqual([{ key: "ann" }]);
  });
});

describe("finding 3: the migration to case-insensitive names", () => {
  /** A database migrated up to (not including) 0017, as the previous release left it. */
  function previousRelease(file: string): void {
    const folder = path.join(dir, `drizzle-${path.basename(file)}`);
    fs.cpSync(migrationsFolder(), folder, { recursive: true });
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: Array<{ tag: string }> };
    journal.entries = journal.entries.filter((e) => e.tag < "0017");
    fs.writeFileSync(journalFile, JSON.stringify(journal));
    openDb(file, { migrationsFolder: folder }).$client.close();
  }

  it("names the twins, changes nothing and refuses to open until they are renamed; then migrates", () => {
    const file = path.join(dir, "twins.db");
    previousRelease(file);
    const raw = new Database(file);
    const add = raw.prepare("insert into users (name, password_hash, role) values (?, 'x', ?)");
    add.run("coordinator", "coordinator");
    add.run("Coordinator", "annotator");
    add.run("ann", "annotator");
    raw.close();
    const recorded = () => {
      const db = new Database(file, { readonly: true });
      try {
        return (db.prepare(`select count(*) as n from ${MIGRATIONS_TABLE}`).get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    const before = recorded();
    let error: unknown;
    try {
      openDb(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toMatch(/"coordinator" \(id 1\), "Coordinator" \(id 2\)/);
    expect((error as Error).message).toMatch(/UPDATE users SET name = 'Coordinator-2' WHERE id = 2/);
    expect((error as Error).message).not.toMatch(/"ann"/);
    expect(recorded()).toBe(before);

    const fix = new Database(file);
    fix.prepare("update users set name = 'Coordinator-2' where id = 2").run();
    fix.close();
    const db = openDb(file);
    try {
      expect(recorded()).toBe(knownMigrations().length);
      expect(() => db.$client.prepare("insert into users (name, password_hash, role) values ('ANN', 'x', 'annotator')").run()).toThrow(/UNIQUE/);
    } finally {
      db.$client.close();
    }
  });
});
