/**
 * The server's WAL checkpoints in serve.mjs's primary (scripts/wal-checkpointer.mjs): a connection
 * of its own copies what writers left in the WAL back into the database file, without waiting for
 * or blocking them, and a failure is said once, not thrown.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error a plain .mjs script without types
import { startCheckpointer } from "../../../scripts/wal-checkpointer.mjs";

interface Result {
  busy: number;
  log: number;
  checkpointed: number;
}
interface Checkpointer {
  tick: () => void;
  stop: () => void;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function writer() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-ckpt-"));
  dirs.push(dir);
  const file = path.join(dir, "t.db");
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  // As a server worker: it leaves the checkpoints to the primary.
  db.pragma("wal_autocheckpoint = 0");
  db.exec("create table t (id integer primary key, v text)");
  const insert = db.prepare("insert into t (v) values (?)");
  const write = (n: number) => db.transaction(() => { for (let i = 0; i < n; i++) insert.run("x".repeat(1000)); })();
  return { file, db, write };
}

describe("the WAL checkpointer", () => {
  it("copies the writers' pages back into the database file, while a writer keeps its connection open", () => {
    const w = writer();
    w.write(500);
    const sizeBefore = fs.statSync(w.file).size;
    const results: Result[] = [];
    const c = startCheckpointer(w.file, { everyMs: 60_000, onCheckpoint: (r: Result) => results.push(r) }) as Checkpointer;
    try {
      c.tick();
      expect(results).toHaveLength(1);
      expect(results[0].log).toBeGreaterThan(100);
      expect(results[0].checkpointed).toBe(results[0].log);
      // The pages are in the database file now: 500 rows of 1,000 bytes.
      expect(fs.statSync(w.file).size).toBeGreaterThan(sizeBefore + 400_000);
      // The writer goes on; the next checkpoint takes what it added.
      w.write(10);
      c.tick();
      expect(results[1].checkpointed).toBe(results[1].log);
      expect(w.db.prepare("select count(*) as n from t").get()).toEqual({ n: 510 });
    } finally {
      c.stop();
      w.db.close();
    }
  });

  it("while a writer holds the write lock, checkpoints what was committed and returns at once", () => {
    const w = writer();
    w.write(50);
    w.db.exec("BEGIN IMMEDIATE");
    w.db.prepare("insert into t (v) values (?)").run("pending");
    const results: Result[] = [];
    const c = startCheckpointer(w.file, { everyMs: 60_000, onCheckpoint: (r: Result) => results.push(r) }) as Checkpointer;
    try {
      c.tick();
      expect(results[0].checkpointed).toBe(results[0].log);
      w.db.exec("COMMIT");
    } finally {
      c.stop();
      w.db.close();
    }
  });

  it("says once that it cannot checkpoint a file that is not there, and throws nothing", () => {
    const lines: string[] = [];
    const c = startCheckpointer(path.join(os.tmpdir(), "lexgold-no-such-dir", "none.db"), { everyMs: 60_000, log: (s: string) => lines.push(s) }) as Checkpointer;
    try {
      c.tick();
      c.tick();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/checkpointing .*none\.db failed/);
    } finally {
      c.stop();
    }
  });
});
