/**
 * lib/server/kernel/write-lock.ts: a write waits for SQLite's write lock without stopping the event
 * loop, is acknowledged only once committed, undoes only itself when it throws, and is refused with
 * BusyError (nothing written) when the lock stays taken. Two connections to one WAL file stand for
 * the two server processes: the second holds the lock with a BEGIN IMMEDIATE of its own.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { BusyError } from "../../../lib/server/kernel/errors";
import { deferToBatchEnd, writeTransaction } from "../../../lib/server/kernel/write-lock";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function twoConnections() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-write-lock-"));
  dirs.push(dir);
  const file = path.join(dir, "t.db");
  const open = () => {
    const c = new Database(file);
    c.pragma("journal_mode = WAL");
    c.pragma("busy_timeout = 5000");
    return c;
  };
  const ours = open();
  ours.exec("create table t (id integer primary key, v text not null unique)");
  const other = open();
  return { ours, other, db: { $client: ours }, rows: () => (other.prepare("select v from t order by id").all() as Array<{ v: string }>).map((r) => r.v) };
}

const insert = (c: Database.Database, v: string) => () => Number(c.prepare("insert into t (v) values (?)").run(v).lastInsertRowid);

/** Resolves on the event loop's next turns: proof that it is not stopped. */
const turn = () => new Promise<void>((r) => setImmediate(r));

describe("writeTransaction", () => {
  it("commits at once when the lock is free, and keeps the connection's busy timeout", async () => {
    const { ours, db, rows } = twoConnections();
    await expect(writeTransaction(db, insert(ours, "a"))).resolves.toBe(1);
    expect(rows()).toEqual(["a"]);
    expect(ours.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(ours.inTransaction).toBe(false);
  });

  it("while the other connection holds the lock, waits with the event loop running, then commits and answers", async () => {
    const { ours, other, db, rows } = twoConnections();
    other.exec("BEGIN IMMEDIATE");
    let settled = false;
    const saving = writeTransaction(db, insert(ours, "b")).finally(() => (settled = true));
    // The event loop turns (a blocked busy handler would not let these run) and the write waits.
    for (let i = 0; i < 20; i++) await turn();
    expect(settled).toBe(false);
    expect(rows()).toEqual([]);
    other.exec("COMMIT");
    await expect(saving).resolves.toBe(1);
    expect(rows()).toEqual(["b"]);
  });

  it("the writes queued meanwhile commit together; one that throws undoes only its own writes", async () => {
    const { ours, other, db, rows } = twoConnections();
    other.exec("BEGIN IMMEDIATE");
    const first = writeTransaction(db, insert(ours, "x"));
    const failing = writeTransaction(db, () => {
      insert(ours, "half")();
      insert(ours, "x")(); // unique: throws
    });
    const third = writeTransaction(db, insert(ours, "y"));
    await turn();
    other.exec("COMMIT");
    await expect(first).resolves.toBeGreaterThan(0);
    await expect(failing).rejects.toThrow(/UNIQUE/);
    await expect(third).resolves.toBeGreaterThan(0);
    expect(rows()).toEqual(["x", "y"]);
  });

  it("refuses with BusyError, having written nothing, when the lock stays taken", async () => {
    const { ours, other, db, rows } = twoConnections();
    other.exec("BEGIN IMMEDIATE");
    let ran = false;
    const saving = writeTransaction(
      db,
      () => {
        ran = true;
        return insert(ours, "never")();
      },
      { waitMs: 30 },
    );
    await expect(saving).rejects.toBeInstanceOf(BusyError);
    other.exec("COMMIT");
    expect(ran).toBe(false);
    expect(rows()).toEqual([]);
    // The connection still writes afterwards.
    await expect(writeTransaction(db, insert(ours, "later"))).resolves.toBeGreaterThan(0);
    expect(rows()).toEqual(["later"]);
  });

  it("a low-priority write (a crowd join) waits for the others queued with it and commits apart: their answers never wait for it", async () => {
    const { ours, other, db, rows } = twoConnections();
    other.exec("BEGIN IMMEDIATE");
    const answered: string[] = [];
    const join = writeTransaction(
      db,
      () => {
        // The saves queued with it are committed and answered before it runs.
        answered.push(`join ran after ${answered.join(",")}`);
        return insert(ours, "join")();
      },
      { lowPriority: true },
    );
    const saves = ["s1", "s2"].map((v) => writeTransaction(db, insert(ours, v)).then(() => answered.push(v)));
    await turn();
    other.exec("COMMIT");
    await Promise.all([join, ...saves]);
    expect(rows()).toEqual(["s1", "s2", "join"]);
    expect(answered).toEqual(["s1", "s2", "join ran after s1,s2"]);
  });

  it("low-priority writes go one at a time, each in its own transaction; one that throws undoes only itself", async () => {
    const { ours, other, db, rows } = twoConnections();
    other.exec("BEGIN IMMEDIATE");
    const a = writeTransaction(db, insert(ours, "a"), { lowPriority: true });
    const bad = writeTransaction(db, () => insert(ours, "a")(), { lowPriority: true });
    const c = writeTransaction(db, insert(ours, "c"), { lowPriority: true });
    await turn();
    other.exec("COMMIT");
    await expect(a).resolves.toBeGreaterThan(0);
    await expect(bad).rejects.toThrow(/UNIQUE/);
    await expect(c).resolves.toBeGreaterThan(0);
    expect(rows()).toEqual(["a", "c"]);
    expect(ours.inTransaction).toBe(false);
  });
});

/**
 * Work a write leaves to the end of its batch (the saves' upkeep of the derived figures, #39): once
 * per key with every write's items, in the batch's transaction before its COMMIT; done before a write
 * that may read it; undoing the whole batch when it fails.
 */
describe("deferToBatchEnd", () => {
  /** A write that inserts `v` and leaves `later` to the end of the batch, under the key "k". */
  const deferring = (c: Database.Database, v: string, later: string, ran: string[][]) => () => {
    insert(c, v)();
    const deferred = deferToBatchEnd({ $client: c }, "k", later, (items) => {
      ran.push(items);
      for (const item of items) insert(c, item)();
    });
    return deferred;
  };

  it("runs once for the writes queued together, with every item in order, and commits with them", async () => {
    const { ours, other, db, rows } = twoConnections();
    const ran: string[][] = [];
    other.exec("BEGIN IMMEDIATE");
    const writes = [writeTransaction(db, deferring(ours, "a", "a+", ran), { defers: true }), writeTransaction(db, deferring(ours, "b", "b+", ran), { defers: true })];
    await turn();
    expect(rows()).toEqual([]);
    other.exec("COMMIT");
    // Each write was inside a batch (deferred, not done at once).
    await expect(Promise.all(writes)).resolves.toEqual([true, true]);
    expect(ran).toEqual([["a+", "b+"]]);
    expect(rows()).toEqual(["a", "b", "a+", "b+"]);
    expect(ours.inTransaction).toBe(false);
  });

  it("outside a batch it says no, and the caller does the work itself", () => {
    const { ours } = twoConnections();
    const ran: string[][] = [];
    expect(ours.transaction(deferring(ours, "a", "a+", ran)).immediate()).toBe(false);
    expect(ran).toEqual([]);
  });

  it("is done before a write that may read it (one not marked `defers`), and again at the end for what came after", async () => {
    const { ours, other, db, rows } = twoConnections();
    const ran: string[][] = [];
    other.exec("BEGIN IMMEDIATE");
    const first = writeTransaction(db, deferring(ours, "a", "a+", ran), { defers: true });
    const reader = writeTransaction(db, () => (ours.prepare("select v from t order by id").all() as Array<{ v: string }>).map((r) => r.v));
    const last = writeTransaction(db, deferring(ours, "b", "b+", ran), { defers: true });
    await turn();
    other.exec("COMMIT");
    await Promise.all([first, last]);
    await expect(reader).resolves.toEqual(["a", "a+"]);
    expect(ran).toEqual([["a+"], ["b+"]]);
    expect(rows()).toEqual(["a", "a+", "b", "b+"]);
  });

  it("a write that throws after deferring undoes its own writes; what it deferred still runs with the rest", async () => {
    const { ours, other, db, rows } = twoConnections();
    const ran: string[][] = [];
    other.exec("BEGIN IMMEDIATE");
    const ok = writeTransaction(db, deferring(ours, "a", "a+", ran), { defers: true });
    const bad = writeTransaction(
      db,
      () => {
        deferring(ours, "b", "b+", ran)();
        insert(ours, "a")(); // unique: throws
      },
      { defers: true },
    );
    await turn();
    other.exec("COMMIT");
    await expect(ok).resolves.toBe(true);
    await expect(bad).rejects.toThrow(/UNIQUE/);
    // Deferred work must be safe to run for a write that was undone (the saves' upkeep derives an instance from what is there).
    expect(rows()).toEqual(["a", "a+", "b+"]);
  });

  it("deferred work that fails undoes the whole batch and refuses every write in it: nothing is acknowledged that is not committed", async () => {
    const { ours, other, db, rows } = twoConnections();
    other.exec("BEGIN IMMEDIATE");
    const failing = (v: string) => () => {
      insert(ours, v)();
      return deferToBatchEnd({ $client: ours }, "k", v, () => {
        throw new Error("upkeep failed");
      });
    };
    const writes = [writeTransaction(db, failing("a"), { defers: true }), writeTransaction(db, failing("b"), { defers: true })];
    await turn();
    other.exec("COMMIT");
    for (const w of writes) await expect(w).rejects.toThrow(/upkeep failed/);
    expect(rows()).toEqual([]);
    expect(ours.inTransaction).toBe(false);
    // The connection still writes, and outside a batch nothing is deferred.
    await expect(writeTransaction(db, insert(ours, "later"))).resolves.toBeGreaterThan(0);
    expect(rows()).toEqual(["later"]);
  });
});
