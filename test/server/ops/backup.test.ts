/**
 * Backup and restore (lib/server/ops/backup.ts): a backup taken while another
 * process keeps saving responses through saveResponse is consistent and holds
 * every save acknowledged before it started; restore round-trips; every
 * refusal writes nothing.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../../db/client";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { backupDatabase, openForBackup, restoreDatabase } from "../../../lib/server/ops/backup";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError } from "../../../lib/server/kernel/errors";
import { createProject } from "../../../lib/server/corpus/projects";
import { addMember } from "../../../lib/server/people/users";
import { actorFor } from "../../support/db";

const root = path.resolve(__dirname, "../../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-backup-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
const fresh = (name: string) => path.join(dir, `${++n}-${name}`);

/** A lexelt file of `lexelts` × `per` instances, ids i1, i2, … */
function corpusXml(lexelts: number, per: number): string {
  const out = ['<?xml version="1.0"?>', '<corpus lang="english">'];
  let id = 0;
  for (let l = 0; l < lexelts; l++) {
    out.push(`<lexelt item="word${l}.n">`);
    for (let k = 0; k < per; k++) {
      id++;
      out.push(`<instance id="i${id}"><context>Sentence number ${id} has the <head>word${l}</head> in it, and some more text to fill a page.</context></instance>`);
    }
    out.push("</lexelt>");
  }
  out.push("</corpus>", "");
  return out.join("\n");
}

/** A database file with a project, an annotator member and `lexelts × per` instances. */
function seed(file: string, lexelts = 20, per = 100) {
  const db = openDb(file);
  const coord = actorFor(db, "coord", "coordinator");
  actorFor(db, "ann", "annotator");
  const project = createProject(db, coord, { name: "p" });
  addMember(db, coord, project.id, "ann");
  importLexeltXml(db, coord, project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(corpusXml(lexelts, per)) });
  db.$client.close();
  return { projectId: project.id };
}

function sha(file: string): string {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

function rows<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

function integrity(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma("integrity_check", { simple: true }) as string;
  } finally {
    db.close();
  }
}

/** The files in `dir` (to check a refusal left no temporary file behind). */
const listing = () => fs.readdirSync(dir).sort();

// The writer: its own process and connection, saving through saveResponse and
// printing "ack REF REVISION" once each save has committed.
const WRITER = `
import { openDb } from ${JSON.stringify(path.join(root, "db/client.ts"))};
import { saveResponse } from ${JSON.stringify(path.join(root, "lib/server/annotate/responses.ts"))};
const [file, projectId] = [process.argv[2], Number(process.argv[3])];
const db = openDb(file);
const u = db.$client.prepare("select id, name, role from users where name = 'ann'").get();
const actor = { kind: "user", userId: u.id, name: u.name, role: u.role };
const refs = db.$client.prepare("select id from instances where project_id = ? order by id").all(projectId).map((r) => r.id);
const revision = new Map();
let k = 0;
let stop = false;
process.on("SIGTERM", () => { stop = true; });
function batch() {
  for (let j = 0; j < 10 && !stop; j++, k++) {
    // Mostly new instances, with every fourth save revising an earlier one.
    const ref = k % 4 === 3 ? refs[(k * 7) % Math.min(k + 1, refs.length)] : refs[k % refs.length];
    const expected = revision.get(ref) ?? 0;
    const r = saveResponse(db, actor, projectId, ref, { kind: "substitutes", substitutes: ["alpha" + k, "beta" + k], multiword: false }, { expectedRevision: expected });
    revision.set(ref, r.revision);
    process.stdout.write("ack " + ref + " " + r.revision + "\\n");
  }
  if (stop) { db.$client.close(); process.exit(0); }
  setImmediate(batch);
}
batch();
`;

class Writer {
  readonly child: ChildProcess;
  /** Highest acknowledged revision per instance ref, in the order acks arrived. */
  readonly acked = new Map<number, number>();
  count = 0;
  stderr = "";
  private buffer = "";
  private exited: Promise<number | null>;

  constructor(file: string, projectId: number) {
    const script = path.join(dir, `writer-${++n}.ts`);
    fs.writeFileSync(script, WRITER);
    this.child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", `file://${root}/node_modules/tsx/dist/loader.mjs`, script, file, String(projectId)],
      { env: { ...process.env, LEXGOLD_ROOT: root }, stdio: ["ignore", "pipe", "pipe"] },
    );
    this.child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf("\n")) >= 0) {
        const [, ref, rev] = this.buffer.slice(0, nl).split(" ");
        this.buffer = this.buffer.slice(nl + 1);
        this.acked.set(Number(ref), Math.max(this.acked.get(Number(ref)) ?? 0, Number(rev)));
        this.count++;
      }
    });
    this.child.stderr!.setEncoding("utf8").on("data", (c: string) => (this.stderr += c));
    this.exited = new Promise((resolve) => this.child.on("exit", (code) => resolve(code)));
  }

  async until(acks: number, timeoutMs = 300_000): Promise<void> {
    const t0 = Date.now();
    while (this.count < acks) {
      if (this.child.exitCode !== null) throw new Error(`writer exited (${this.child.exitCode}): ${this.stderr}`);
      if (Date.now() - t0 > timeoutMs) throw new Error(`writer made only ${this.count} saves: ${this.stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async stop(): Promise<number | null> {
    this.child.kill("SIGTERM");
    return this.exited;
  }
}

describe("backup under load", () => {
  it("copies a consistent snapshot holding every save acknowledged before it started, while another process keeps saving", async () => {
    const live = fresh("live.db");
    const { projectId } = seed(live);
    const writer = new Writer(live, projectId);
    const backups: Array<{ file: string; ackedBefore: Map<number, number>; countBefore: number }> = [];
    try {
      for (let b = 0; b < 3; b++) {
        await writer.until(writer.count + 150);
        const ackedBefore = new Map(writer.acked);
        const countBefore = writer.count;
        const file = fresh(`backup${b}.db`);
        const db = openForBackup(live);
        try {
          const report = await backupDatabase(db, SYSTEM, file);
          const counted = Object.fromEntries(report.tables.map((t) => [t.table, t.rows]));
          expect(counted.response_history).toBeGreaterThanOrEqual(countBefore);
          expect(counted.instances).toBe(2000);
        } finally {
          db.$client.close();
        }
        backups.push({ file, ackedBefore, countBefore });
      }
      // The writer kept saving after the last backup: the backups did not stop it.
      const after = writer.count;
      await writer.until(after + 50);
    } finally {
      expect(await writer.stop()).toBe(0);
    }
    expect(writer.stderr).toBe("");

    type Resp = { id: number; instance_ref: number; revision: number; substitutes: string };
    type Hist = { id: number; response_id: number; instance_ref: number; revision: number; substitutes: string };
    const liveHistory = rows<Hist>(live, "select id, response_id, instance_ref, revision, substitutes from response_history order by id");
    const liveResponses = new Map(rows<Resp>(live, "select id, instance_ref, revision, substitutes from responses").map((r) => [r.instance_ref, r]));
    expect(liveHistory.length).toBe(writer.count);

    for (const { file, ackedBefore, countBefore } of backups) {
      expect(integrity(file)).toBe("ok");
      expect(fs.existsSync(`${file}-wal`)).toBe(false);
      const copyResponses = new Map(rows<Resp>(file, "select id, instance_ref, revision, substitutes from responses").map((r) => [r.instance_ref, r]));
      const copyHistory = rows<Hist>(file, "select id, response_id, instance_ref, revision, substitutes from response_history order by id");
      // Every save acknowledged before the backup started is in the copy.
      for (const [ref, rev] of ackedBefore) {
        expect(copyResponses.get(ref)?.revision ?? 0, `instance ${ref}`).toBeGreaterThanOrEqual(rev);
        expect(copyHistory.some((h) => h.instance_ref === ref && h.revision === rev), `history of ${ref} r${rev}`).toBe(true);
      }
      expect(copyHistory.length).toBeGreaterThanOrEqual(countBefore);
      // A snapshot: the copy's history is exactly a prefix of the live history...
      expect(copyHistory).toEqual(liveHistory.slice(0, copyHistory.length));
      // ...and each response is the one its last history row in that prefix says.
      const last = new Map<number, Hist>();
      for (const h of copyHistory) last.set(h.instance_ref, h);
      expect(copyResponses.size).toBe(last.size);
      for (const [ref, r] of copyResponses) {
        expect(last.get(ref)).toMatchObject({ response_id: r.id, revision: r.revision, substitutes: r.substitutes });
        expect(r.revision).toBeLessThanOrEqual(liveResponses.get(ref)!.revision);
      }
    }

    // Restore round-trips: the restored database reads back as the backup.
    const { file } = backups[backups.length - 1];
    const restored = path.join(fresh("fresh-install"), "data", "restored.db");
    const report = await restoreDatabase(SYSTEM, file, restored);
    expect(report).toMatchObject({ replaced: false, pendingMigrations: 0 });
    const db = openDb(restored);
    try {
      expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
      for (const t of ["users", "projects", "instances", "responses", "response_history"]) {
        const q = `select * from ${t} order by rowid`;
        expect(db.$client.prepare(q).all(), t).toEqual(rows(file, q));
      }
    } finally {
      db.$client.close();
    }
  }, 600_000);
});

describe("restore", () => {
  it("replaces an existing database only with force, and the switch leaves no stale WAL", async () => {
    const a = fresh("a.db");
    const b = fresh("b.db");
    seed(a, 2, 3);
    seed(b, 3, 4);
    const bak = fresh("a.bak");
    const src = openForBackup(a);
    await backupDatabase(src, SYSTEM, bak);
    src.$client.close();

    // b has a WAL with frames in it: a stale WAL beside the restored file would corrupt it.
    const holder = openDb(b);
    holder.$client.pragma("wal_autocheckpoint = 0");
    holder.$client.prepare("update projects set guidelines = 'from b'").run();
    holder.$client.close();

    const before = sha(b);
    await expect(restoreDatabase(SYSTEM, bak, b)).rejects.toThrow(/b\.db already exists; --force replaces that database/);
    expect(sha(b)).toBe(before);

    const r = await restoreDatabase(SYSTEM, bak, b, { force: true });
    expect(r.replaced).toBe(true);
    expect(fs.existsSync(`${b}-wal`)).toBe(false);
    expect(integrity(b)).toBe("ok");
    expect(rows<{ n: number }>(b, "select count(*) as n from instances")[0].n).toBe(6);
    expect(rows<{ g: string }>(b, "select guidelines as g from projects")[0].g).toBe("");
    expect(listing().filter((f) => f.includes(".restore-") || f.includes(".backup-"))).toEqual([]);
  });

  it("refuses to replace a database another connection has open (a running server), writing nothing", async () => {
    const a = fresh("a.db");
    const live = fresh("live.db");
    seed(a, 1, 2);
    seed(live, 2, 2);
    const bak = fresh("a.bak");
    const src = openForBackup(a);
    await backupDatabase(src, SYSTEM, bak);
    src.$client.close();
    const server = openDb(live);
    try {
      const before = sha(live);
      const files = listing();
      await expect(restoreDatabase(SYSTEM, bak, live, { force: true })).rejects.toThrow(/live\.db is in use by another process \(is the server running\?\)/);
      expect(sha(live)).toBe(before);
      expect(listing()).toEqual(files);
      expect(server.$client.prepare("select count(*) as n from instances").get()).toEqual({ n: 4 });
    } finally {
      server.$client.close();
    }
  });

  it("applies the migrations an older backup lacks on the next open", async () => {
    const journal = JSON.parse(fs.readFileSync(path.join(root, "drizzle/meta/_journal.json"), "utf8")) as { entries: Array<{ tag: string }> };
    // An "old" lexgold: only the first migration.
    const oldMigrations = fresh("drizzle-old");
    fs.mkdirSync(path.join(oldMigrations, "meta"), { recursive: true });
    const first = journal.entries[0];
    fs.copyFileSync(path.join(root, "drizzle", `${first.tag}.sql`), path.join(oldMigrations, `${first.tag}.sql`));
    fs.writeFileSync(path.join(oldMigrations, "meta/_journal.json"), JSON.stringify({ ...journal, entries: [first] }));
    const old = fresh("old.db");
    const sqlite = new Database(old);
    migrate(drizzle(sqlite), { migrationsFolder: oldMigrations });
    sqlite.close();

    const target = fresh("upgraded.db");
    const r = await restoreDatabase(SYSTEM, old, target);
    expect(r.pendingMigrations).toBe(journal.entries.length - 1);
    const db = openDb(target);
    try {
      expect(db.$client.prepare("select count(*) as n from __drizzle_migrations").get()).toEqual({ n: journal.entries.length });
    } finally {
      db.$client.close();
    }
  });

  const notLexgold = async (file: string) => {
    const db = new Database(file);
    db.exec("create table notes (t text); insert into notes values ('hello')");
    db.close();
  };
  const corrupt = async (file: string) => {
    seed(file, 5, 50);
    const db = new Database(file, { readonly: true });
    const root = (db.prepare("select rootpage from sqlite_master where name = 'instances'").get() as { rootpage: number }).rootpage;
    const pageSize = db.pragma("page_size", { simple: true }) as number;
    db.close();
    const fd = fs.openSync(file, "r+");
    fs.writeSync(fd, Buffer.alloc(64, 0xee), 0, 64, (root - 1) * pageSize + 8);
    fs.closeSync(fd);
  };
  const newer = async (file: string) => {
    seed(file, 1, 1);
    const db = new Database(file);
    db.prepare("insert into __drizzle_migrations (hash, created_at) values ('future', ?)").run(Date.now() + 10 * 365 * 86400_000);
    db.close();
  };
  const cases: Array<[string, (file: string) => Promise<void> | void, RegExp]> = [
    ["a missing file", () => {}, /no such file; nothing was written/],
    ["an empty file", (f) => fs.writeFileSync(f, ""), /the file is empty; nothing was written/],
    ["a text file", (f) => fs.writeFileSync(f, "annotator\tlexelt\tinstance\tanswer\n".repeat(20)), /not an SQLite database \(no SQLite header\)/],
    ["a truncated SQLite header", (f) => fs.writeFileSync(f, "SQLite format 3\u0000"), /not an SQLite database/],
    ["an SQLite database that is not lexgold's", notLexgold, /an SQLite database, but not a lexgold one \(no "__drizzle_migrations", "users"/],
    ["a damaged lexgold database", corrupt, /fails integrity_check/],
    ["a backup from a newer lexgold", newer, /made by a newer lexgold \(1 migration this one does not know\)/],
  ];
  it.each(cases)("refuses %s, naming it, and writes nothing", async (_name, make, message) => {
    const file = fresh("input.db");
    await make(file);
    const target = fresh("target.db");
    seed(target, 1, 1);
    const before = sha(target);
    const files = listing();
    await expect(restoreDatabase(SYSTEM, file, target, { force: true })).rejects.toThrow(message);
    await expect(restoreDatabase(SYSTEM, file, target, { force: true })).rejects.toThrow(new RegExp(path.basename(file)));
    expect(sha(target)).toBe(before);
    expect(listing()).toEqual(files);
    // Into a fresh path (in a directory yet to be made) nothing is created either.
    const nothing = path.join(fresh("new-dir"), "data", "nothing.db");
    await expect(restoreDatabase(SYSTEM, file, nothing)).rejects.toThrow(message);
    expect(fs.existsSync(path.dirname(path.dirname(nothing)))).toBe(false);
  });
});

describe("backup refusals", () => {
  it("refuses an existing file unless forced, an in-memory database, and anyone but the command line", async () => {
    const live = fresh("live.db");
    seed(live, 1, 3);
    const existing = fresh("existing.bak");
    fs.writeFileSync(existing, "keep me");
    const db = openForBackup(live);
    try {
      const files = listing();
      await expect(backupDatabase(db, SYSTEM, existing)).rejects.toThrow(/existing\.bak already exists; give another name, or --force to replace it/);
      expect(fs.readFileSync(existing, "utf8")).toBe("keep me");
      await expect(backupDatabase(db, SYSTEM, path.join(dir, "no-such-dir", "x.bak"))).rejects.toThrow(/the directory .*no-such-dir does not exist/);
      await expect(backupDatabase(db, SYSTEM, live)).rejects.toThrow(/is the database itself/);
      const annotator = { kind: "user" as const, userId: 2, name: "ann", role: "annotator" as const };
      const coordinator = { ...annotator, role: "coordinator" as const };
      await expect(backupDatabase(db, annotator, fresh("x.bak"))).rejects.toThrow(AuthError);
      await expect(backupDatabase(db, coordinator, fresh("x.bak"))).rejects.toThrow(AuthError);
      await expect(backupDatabase(db, null, fresh("x.bak"))).rejects.toThrow(/Sign in/);
      await expect(restoreDatabase(coordinator, live, fresh("x.db"))).rejects.toThrow(AuthError);
      expect(listing()).toEqual(files);

      const r = await backupDatabase(db, SYSTEM, existing, { force: true });
      expect(r.tables.find((t) => t.table === "instances")?.rows).toBe(3);
      expect(integrity(existing)).toBe("ok");
    } finally {
      db.$client.close();
    }
    const memory = openDb(":memory:");
    await expect(backupDatabase(memory, SYSTEM, fresh("m.bak"))).rejects.toThrow(/in memory/);
    expect(() => openForBackup(fresh("absent.db"))).toThrow(/absent\.db: no such file/);
  });
});
