/**
 * What one save costs inside the server, without HTTP or Next (issue #28 item 7):
 * `npm run bench:save`. Seeds a throw-away project as the load test does (bench/lib/seed.ts),
 * then has the annotators save through saveResponseAsync (the save route's function) in
 * --processes processes at once (the server runs two over one database file), each with
 * --concurrency saves in flight, a fifth of the saves revising an earlier answer. Prints the
 * SQLite statements run per save (exact, by kind), the tries for the write lock, the answer's
 * size and the CPU per save (process.cpuUsage over all saves, the answer's JSON included).
 *
 *   npm run bench:save -- [--instances N] [--annotators N] [--saves N per process] [--processes N] [--concurrency N]
 */
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { numberArg } from "./lib/setup";
import { seedLoadDb } from "./lib/seed";

process.env.LEXGOLD_BCRYPT_COST ??= "4";

interface ChildJob {
  dbFile: string;
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
  // Every statement run on the connection: prepared ones (get / run / all / iterate), exec and pragma.
  const proto = Object.getPrototypeOf(client.prepare("select 1")) as Record<string, (...a: unknown[]) => unknown>;
  for (const m of ["get", "run", "all", "iterate"]) {
    const orig = proto[m];
    proto[m] = function (this: { source: string; reader: boolean }, ...a: unknown[]) {
      bump(this.reader ? "read" : /^\s*(begin|commit|rollback|savepoint|release)/i.test(this.source) ? "transaction control" : "write");
      return orig.apply(this, a);
    };
  }
  const exec = client.exec.bind(client);
  client.exec = ((sql: string) => {
    bump(`exec ${sql.split(/\s+/).slice(0, 2).join(" ").toUpperCase()}`);
    try {
      return exec(sql);
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
  const revisions = actors.map(() => new Map<number, number>());
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
  counting = true;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await drive(300, job.saves);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  counting = false;
  client.close();
  return { saves: job.saves, counts, cpuMs: (cpu.user + cpu.system) / 1000, wallMs, bytes, busy };
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
    const perLexelt = 10;
    const seeded = await seedLoadDb(dbFile, { annotators: annotatorCount, lexelts: Math.ceil(instanceCount / perLexelt), instancesPerLexelt: perLexelt });
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
      `saves: ${total} in ${processes} process(es), ${concurrency} in flight each, on ${seeded.instanceRefs.length} instances, ${annotatorCount} annotators (a fifth revise an earlier answer)\n` +
        `statements per save: ${(statements / total).toFixed(1)}\n` +
        [...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => `  ${k.padEnd(28)} ${(v / total).toFixed(2)}`).join("\n") +
        `\nwrite lock found taken: ${(busy / total).toFixed(2)} per save\n` +
        `answer: ${(bytes / total).toFixed(0)} bytes of JSON per save\n` +
        `CPU per save (saveResponseAsync and the answer's JSON): ${(cpuMs / total).toFixed(3)} ms; ` +
        `wall ${Math.max(...results.map((r) => r.wallMs / 1000)).toFixed(1)} s (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)\n`,
    );
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
