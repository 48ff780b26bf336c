/**
 * What one save costs inside the server, without HTTP or Next (issue #28 item 7):
 * `npm run bench:save`. Seeds a throw-away project as the load test does (bench/lib/seed.ts),
 * then has the annotators save through saveResponseAsync (the save route's function) in
 * --processes processes at once (the server runs two over one database file), each with
 * --concurrency saves in flight, a fifth of the saves revising an earlier answer. Prints the
 * SQLite statements run per save (exact, by kind), the tries for the write lock, the answer's
 * size, the WAL pages written per save (one process: each page a save dirties is written at its
 * COMMIT) and the CPU per save (process.cpuUsage over all saves, the answer's JSON included).
 *
 *   npm run bench:save -- [--instances N] [--annotators N] [--saves N per process] [--processes N] [--concurrency N] [--by-statement]
 *                         [--db FILE --project ID]
 *
 * --db FILE: save into a copy of FILE (say the database `npm run bench:pages -- --keep` leaves, with its
 * stored runs) instead of a seeded project: the project's annotators save through its queued instances,
 * revising what they answered before. It also prints how long the write lock was held per save (from
 * BEGIN IMMEDIATE to the end of COMMIT): what saves queue for at saturation, serialised across the
 * server's processes.
 *
 * --by-statement also times each prepared statement and prints the 25 that took longest per save.
 */
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { numberArg, stringArg } from "./lib/setup";
import { seedLoadDb } from "./lib/seed";

process.env.LEXGOLD_BCRYPT_COST ??= "4";

interface ChildJob {
  dbFile: string;
  byStatement: boolean;
  /** One process alone: count the WAL frames its saves write (SQLite's own checkpoints held off meanwhile). */
  countWal: boolean;
  projectId: number;
  instanceRefs: number[];
  annotators: Array<{ name: string; userId: number }>;
  saves: number;
  concurrency: number;
}
interface ChildResult {
  saves: number;
  counts: Record<string, number>;
  cpuMs: number;
  wallMs: number;
  bytes: number;
  busy: number;
  /** The WAL frames (database pages) the saves wrote, when counted, and how many were each table's or index's. */
  walFrames: number | null;
  walByTree: Record<string, number>;
  /** With --by-statement: each prepared statement's runs and the milliseconds spent in them. */
  statements: Record<string, { n: number; ms: number }>;
  /** Milliseconds from each BEGIN IMMEDIATE that took the lock to the end of its COMMIT, added up. */
  lockMs: number;
}

/**
 * The frames of a WAL file by the table or index whose page each holds (SQLite's dbstat names
 * every page of the database): which B-trees a save dirties, and how many pages of each.
 */
function framesByTree(client: import("better-sqlite3").Database, walFile: string): Record<string, number> {
  const owner = new Map<number, string>();
  for (const r of client.prepare("select name, pageno from dbstat").iterate() as Iterable<{ name: string; pageno: number }>) owner.set(r.pageno, r.name);
  const wal = fs.readFileSync(walFile);
  const pageSize = wal.readUInt32BE(8);
  const out: Record<string, number> = {};
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    const name = owner.get(wal.readUInt32BE(at)) ?? "(free or new)";
    out[name] = (out[name] ?? 0) + 1;
  }
  return out;
}

/** One process's saves: count the statements and the CPU of `job.saves` saves after a warm-up. */
async function child(job: ChildJob): Promise<ChildResult> {
  const { openDb } = await import("../db/client");
  const { saveResponseAsync } = await import("../lib/server/annotate/responses");
  const db = openDb(job.dbFile);
  const client = db.$client;
  const counts: Record<string, number> = {};
  let counting = false;
  let busy = 0;
  const bump = (k: string) => {
    if (counting) counts[k] = (counts[k] ?? 0) + 1;
  };
  const statements: Record<string, { n: number; ms: number }> = {};
  // Every statement run on the connection: prepared ones (get / run / all / iterate), exec and pragma.
  const proto = Object.getPrototypeOf(client.prepare("select 1")) as Record<string, (...a: unknown[]) => unknown>;
  for (const m of ["get", "run", "all", "iterate"]) {
    const orig = proto[m];
    proto[m] = function (this: { source: string; reader: boolean }, ...a: unknown[]) {
      bump(this.reader ? "read" : /^\s*(begin|commit|rollback|savepoint|release)/i.test(this.source) ? "transaction control" : "write");
      if (!counting || !job.byStatement) return orig.apply(this, a);
      const t = performance.now();
      try {
        return orig.apply(this, a);
      } finally {
        const e = (statements[this.source.replace(/\s+/g, " ").trim()] ??= { n: 0, ms: 0 });
        e.n++;
        e.ms += performance.now() - t;
      }
    };
  }
  const exec = client.exec.bind(client);
  let lockMs = 0;
  let began = 0;
  client.exec = ((sql: string) => {
    bump(`exec ${sql.split(/\s+/).slice(0, 2).join(" ").toUpperCase()}`);
    const t = performance.now();
    try {
      const r = exec(sql);
      if (sql === "BEGIN IMMEDIATE") began = t;
      else if (sql === "COMMIT" && counting) lockMs += performance.now() - began;
      return r;
    } catch (e) {
      if (counting && /BUSY/.test(String((e as { code?: string }).code))) busy++;
      throw e;
    }
  }) as typeof client.exec;
  const pragma = client.pragma.bind(client);
  client.pragma = ((src: string, o?: unknown) => {
    bump("pragma (prepared each time)");
    return pragma(src, o as never);
  }) as typeof client.pragma;

  const actors = job.annotators.map((a) => ({ kind: "user" as const, userId: a.userId, name: a.name, role: "annotator" as const }));
  const n = job.instanceRefs.length;
  const cursor = actors.map((_, i) => (i * 37) % n);
  // A copied database's annotators answered some instances before: their next save there revises that answer
  // (read here, before anything is counted or timed).
  const answered = client.prepare("select instance_ref as ref, revision from responses where project_id = ? and user_id = ?");
  const revisions = actors.map((a) => new Map((answered.all(job.projectId, a.userId) as Array<{ ref: number; revision: number }>).map((r) => [r.ref, r.revision])));
  const busyActor = actors.map(() => false);
  let seq = 0;
  let bytes = 0;
  const one = async (k: number) => {
    // An annotator has one save in flight at a time, as in the workspace.
    let i = k % actors.length;
    while (busyActor[i]) i = (i + 1) % actors.length;
    busyActor[i] = true;
    let ref: number;
    const done = [...revisions[i].keys()];
    if (done.length > 0 && k % 5 === 0) ref = done[(k * 7) % done.length];
    else {
      ref = job.instanceRefs[cursor[i]];
      cursor[i] = (cursor[i] + 1) % n;
    }
    const s = ++seq;
    try {
      const r = await saveResponseAsync(db, actors[i], job.projectId, ref, { kind: "substitutes", substitutes: [`p${process.pid}w${s}a`, `p${process.pid}w${s}b`, ""], multiword: false, phrase: "" }, {
        expectedRevision: revisions[i].get(ref) ?? 0,
      });
      revisions[i].set(ref, r.revision);
      if (counting) bytes += JSON.stringify({ ok: true, ...r }).length;
    } finally {
      busyActor[i] = false;
    }
  };
  const drive = async (from: number, count: number) => {
    let next = from;
    const end = from + count;
    await Promise.all(
      Array.from({ length: Math.min(job.concurrency, actors.length) }, async () => {
        while (next < end) await one(next++);
      }),
    );
  };
  await drive(0, 300);
  if (job.countWal) {
    client.pragma("wal_autocheckpoint = 0");
    client.pragma("wal_checkpoint(TRUNCATE)");
  }
  counting = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await drive(300, job.saves);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  counting = false;
  const walFrames = job.countWal ? (client.pragma("wal_checkpoint(PASSIVE)") as Array<{ log: number }>)[0].log : null;
  const walByTree = job.countWal ? framesByTree(client, `${job.dbFile}-wal`) : {};
  client.close();
  return { saves: job.saves, counts, cpuMs: (cpu.user + cpu.system) / 1000, wallMs, bytes, busy, walFrames, walByTree, statements, lockMs };
}

/** A throw-away project as the load test seeds it. */
async function seedProject(dbFile: string, instanceCount: number, annotatorCount: number) {
  const perLexelt = 10;
  const seeded = await seedLoadDb(dbFile, { annotators: annotatorCount, lexelts: Math.ceil(instanceCount / perLexelt), instancesPerLexelt: perLexelt });
  return { projectId: seeded.projectId, instanceRefs: seeded.instanceRefs, annotators: seeded.annotators };
}

/**
 * A copy of an existing database (SQLite's backup: its WAL included): the project's queued instances, and
 * its annotators who have some of them left to answer (bench:pages's prefilled answers come from people
 * who answered every instance without saving, so their queue's counts were never kept).
 */
async function copiedProject(from: string, dbFile: string, projectId: number) {
  const source = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await source.backup(dbFile);
  } finally {
    source.close();
  }
  const db = new Database(dbFile, { readonly: true });
  try {
    const instanceRefs = (db.prepare("select id from instances where project_id = ? and in_queue = 1 order by id").all(projectId) as { id: number }[]).map((r) => r.id);
    const annotators = db
      .prepare(
        `select u.id as userId, u.name as name from memberships m join users u on u.id = m.user_id where m.project_id = ? and m.role = 'annotator'
           and (select count(*) from responses r where r.project_id = m.project_id and r.user_id = u.id) < ? order by u.id`,
      )
      .all(projectId, instanceRefs.length) as Array<{ userId: number; name: string }>;
    if (instanceRefs.length === 0 || annotators.length === 0) throw new Error(`${from}: project ${projectId} has no queued instances or no annotators`);
    return { projectId, instanceRefs, annotators };
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const instanceCount = numberArg("instances", "LOAD_INSTANCES", 2000);
  const annotatorCount = numberArg("annotators", "LOAD_ANNOTATORS", 50);
  const saves = numberArg("saves", "SAVE_COUNT", 3000);
  const processes = Math.max(1, numberArg("processes", "SAVE_PROCESSES", 2));
  const concurrency = Math.max(1, numberArg("concurrency", "SAVE_CONCURRENCY", 25));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-save-cost-"));
  try {
    const dbFile = path.join(dir, "save.db");
    const from = stringArg("db", "SAVE_DB", "");
    const seeded = from ? await copiedProject(from, dbFile, numberArg("project", "SAVE_PROJECT", 1)) : await seedProject(dbFile, instanceCount, annotatorCount);
    const per = Math.ceil(seeded.annotators.length / processes);
    const results = await Promise.all(
      Array.from({ length: processes }, (_, p) => {
        const job: ChildJob = {
          dbFile,
          projectId: seeded.projectId,
          instanceRefs: seeded.instanceRefs,
          annotators: seeded.annotators.slice(p * per, (p + 1) * per),
          saves,
          concurrency,
          byStatement: process.argv.includes("--by-statement"),
          countWal: processes === 1,
        };
        return new Promise<ChildResult>((resolve, reject) => {
          const c = fork(fileURLToPath(import.meta.url), ["--child"], { execArgv: process.execArgv, stdio: ["ignore", "inherit", "inherit", "ipc"] });
          c.once("message", (m) => resolve(m as ChildResult));
          c.once("error", reject);
          c.once("exit", (code) => code !== 0 && reject(new Error(`save process exited with ${code}`)));
          c.send(job);
        });
      }),
    );
    const total = results.reduce((s, r) => s + r.saves, 0);
    const counts = new Map<string, number>();
    for (const r of results) for (const [k, v] of Object.entries(r.counts)) counts.set(k, (counts.get(k) ?? 0) + v);
    const statements = [...counts.values()].reduce((s, v) => s + v, 0);
    const cpuMs = results.reduce((s, r) => s + r.cpuMs, 0);
    const busy = results.reduce((s, r) => s + r.busy, 0);
    const bytes = results.reduce((s, r) => s + r.bytes, 0);
    process.stdout.write(
      `saves: ${total} in ${processes} process(es), ${concurrency} in flight each, on ${seeded.instanceRefs.length} instances, ${seeded.annotators.length} annotators (a fifth revise an earlier answer)${from ? `, in a copy of ${from}` : ""}\n` +
        `statements per save: ${(statements / total).toFixed(1)}\n` +
        [...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${k.padEnd(28)} ${(v / total).toFixed(2)}`).join("\n") +
        `\nwrite lock found taken: ${(busy / total).toFixed(2)} per save\n` +
        `write lock held per save (BEGIN IMMEDIATE to the end of COMMIT): ${(results.reduce((n, r) => n + r.lockMs, 0) / total).toFixed(3)} ms\n` +
        `answer: ${(bytes / total).toFixed(0)} bytes of JSON per save\n` +
        `WAL pages written per save: ${results[0].walFrames === null ? "counted with --processes 1 only" : (results[0].walFrames / total).toFixed(1)}\n` +
        `CPU per save (saveResponseAsync and the answer's JSON): ${(cpuMs / total).toFixed(3)} ms; ` +
        `wall ${Math.max(...results.map((r) => r.wallMs / 1000)).toFixed(1)} s (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)\n`,
    );
    if (results[0].walFrames !== null) {
      const trees = Object.entries(results[0].walByTree).sort((a, b) => b[1] - a[1]);
      process.stdout.write(`WAL pages per save by table or index:\n${trees.map(([k, v]) => `  ${(v / total).toFixed(2).padStart(6)}  ${k}`).join("\n")}\n`);
    }
    const bySource = new Map<string, { n: number; ms: number }>();
    for (const r of results)
      for (const [k, v] of Object.entries(r.statements)) {
        const e = bySource.get(k) ?? { n: 0, ms: 0 };
        bySource.set(k, { n: e.n + v.n, ms: e.ms + v.ms });
      }
    if (bySource.size > 0) {
      const timed = [...bySource].sort((a, b) => b[1].ms - a[1].ms);
      const allMs = timed.reduce((s, [, v]) => s + v.ms, 0);
      process.stdout.write(
        `time in prepared statements: ${(allMs / total).toFixed(3)} ms per save (timing adds its own); the 25 longest:\n` +
          timed
            .slice(0, 25)
            .map(([src, v]) => `  ${((v.ms / total) * 1000).toFixed(0).padStart(5)} µs  ${(v.n / total).toFixed(2).padStart(5)}×  ${src.length > 150 ? `${src.slice(0, 150)}…` : src}`)
            .join("\n") +
          "\n",
      );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes("--child")) {
  process.once("message", (job) => {
    child(job as ChildJob).then(
      (r) => process.send!(r, () => process.exit(0)),
      (e) => {
        console.error(e instanceof Error ? e.stack : e);
        process.exit(1);
      },
    );
  });
} else {
  main().catch((e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
