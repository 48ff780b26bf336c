/**
 * Transactions on the app's database begin IMMEDIATE (db/immediate.ts): a transaction that reads
 * and then writes holds the write lock from its start, so another process's commit between its read
 * and its write (the kept figures' applier commits slice after slice behind a large import) waits
 * for it instead of making its write fail at once with SQLITE_BUSY ("database is locked") — which a
 * deferred transaction in WAL mode gets whatever the busy timeout.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../../db/client";
import { immediateByDefault, READ } from "../../../db/immediate";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-immediate-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The app's connection to a new database, and a second connection to it (another process's), which does not wait. */
function twoConnections(name: string) {
  const file = path.join(dir, name);
  const db = openDb(file);
  db.$client.exec("create table t (n integer)");
  const other = new Database(file);
  other.pragma("busy_timeout = 0");
  return { db, other };
}

describe("transactions begin IMMEDIATE", () => {
  it("a read-then-write transaction holds the write lock from its start: the other connection's write is the one refused, and ours commits", () => {
    const { db, other } = twoConnections("app.db");
    let otherRefused: unknown = null;
    db.transaction(() => {
      db.$client.prepare("select count(*) from t").get();
      try {
        other.prepare("insert into t values (1)").run();
      } catch (e) {
        otherRefused = e;
      }
      db.$client.prepare("insert into t values (2)").run();
    });
    expect((otherRefused as { code?: string } | null)?.code).toMatch(/^SQLITE_BUSY/);
    expect(db.$client.prepare("select n from t").all()).toEqual([{ n: 2 }]);
    other.close();
  });

  it("without it (a deferred transaction), the other connection's commit between the read and the write makes the write fail at once", () => {
    const { db, other } = twoConnections("deferred.db");
    expect(() =>
      db.transaction(
        () => {
          db.$client.prepare("select count(*) from t").get();
          other.prepare("insert into t values (1)").run();
          db.$client.prepare("insert into t values (2)").run();
        },
        { behavior: "deferred" },
      ),
    ).toThrow(/database is locked|busy/i);
    expect(db.$client.prepare("select n from t").all()).toEqual([{ n: 1 }]);
    other.close();
  });

  it("a transaction that only reads asks for READ and takes no write lock: the other connection writes meanwhile", () => {
    const { db, other } = twoConnections("read.db");
    db.transaction(() => {
      db.$client.prepare("select count(*) from t").get();
      other.prepare("insert into t values (1)").run();
    }, READ);
    expect(db.$client.prepare("select n from t").all()).toEqual([{ n: 1 }]);
    other.close();
  });

  it("the workers' own connections get the same default", () => {
    const file = path.join(dir, "worker.db");
    openDb(file).$client.exec("create table t (n integer)");
    const sqlite = new Database(file);
    const db = immediateByDefault(drizzle(sqlite));
    const other = new Database(file);
    other.pragma("busy_timeout = 0");
    let otherRefused = false;
    db.transaction(() => {
      sqlite.prepare("select count(*) from t").get();
      try {
        other.prepare("insert into t values (1)").run();
      } catch {
        otherRefused = true;
      }
    });
    expect(otherRefused).toBe(true);
    other.close();
    sqlite.close();
  });
});
