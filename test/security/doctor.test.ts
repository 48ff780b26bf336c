/**
 * Issue #27, finding 12: `lexgold doctor` says it changes nothing, but its
 * read-only open of the (WAL) database created -wal and -shm files beside it.
 * It reads the database without creating anything, whether or not a server has
 * it open, and still finds what is wrong.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../db/client";
import { SYSTEM } from "../../lib/server/kernel/actor";
import { doctor } from "../../lib/server/ops/deploy";
import { createUser } from "../../lib/server/people/users";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A closed WAL database with one account, alone in its directory. */
function database(): { dir: string; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-doctor-"));
  dirs.push(dir);
  const file = path.join(dir, "lexgold.db");
  const db = openDb(file);
  createUser(db, SYSTEM, { name: "boss", role: "coordinator", password: "river-otter-lamp" });
  db.$client.close();
  return { dir, file };
}

const check = (checks: ReturnType<typeof doctor>, name: string) => checks.filter((c) => c.check === name);

describe("finding 12: doctor creates no -wal or -shm", () => {
  it("a database no server has open: checked, and the directory is as it was", () => {
    const { dir, file } = database();
    const before = fs.readdirSync(dir).sort();
    expect(before).toEqual(["lexgold.db"]);
    const bytes = fs.readFileSync(file);
    const checks = doctor(SYSTEM, { dbFile: file });
    expect(check(checks, "integrity")).toEqual([{ check: "integrity", status: "ok", message: `${file}: integrity_check ok` }]);
    expect(check(checks, "accounts")).toEqual([{ check: "accounts", status: "ok", message: "1 account" }]);
    expect(fs.readdirSync(dir).sort()).toEqual(before);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it("a database a server has open: read beside it, nothing added, the server's writes seen", () => {
    const { dir, file } = database();
    const server = new Database(file);
    try {
      server.prepare("insert into users (name, role, password_hash) values ('late', 'annotator', 'x')").run();
      const before = fs.readdirSync(dir).sort();
      expect(before).toEqual(["lexgold.db", "lexgold.db-shm", "lexgold.db-wal"]);
      const checks = doctor(SYSTEM, { dbFile: file });
      expect(check(checks, "accounts")).toEqual([{ check: "accounts", status: "ok", message: "2 accounts" }]);
      expect(fs.readdirSync(dir).sort()).toEqual(before);
    } finally {
      server.close();
    }
  });

  it("still reports a database SQLite cannot read", () => {
    const { dir, file } = database();
    fs.writeFileSync(file, "not a database at all, but long enough to have a header".repeat(4));
    expect(check(doctor(SYSTEM, { dbFile: file }), "integrity")[0]).toMatchObject({ status: "fail", message: expect.stringMatching(/SQLite cannot read it/) });
    expect(fs.readdirSync(dir)).toEqual(["lexgold.db"]);
  });
});
