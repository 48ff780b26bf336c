/**
 * Saves during a large import (issue #14): `npm run bench:import`.
 *
 * Starts the production server (as `npm run load`: a throw-away database with
 * 2,000 instances and 50 annotators signed in), lets the annotators save at a
 * human pace, and after a few seconds uploads a generated lexelt XML file of
 * ~40 MB (made here, never committed) through the import route, following its
 * job to the end. Prints the saves' latency before and during the import (the
 * target: p99 < 150 ms during it), the import's wall time from upload to
 * published, and checks that every acknowledged save is there once and the
 * import's instances all arrived.
 *
 *   npm run bench:import -- [--mb 40] [--annotators 50] [--think 5] [--build] [--json FILE]
 *
 * `npm run bench:import -- --coinco [--targets 15629]` instead imports a generated file of the
 * full CoInCo release's size in-process and checks its report and exported gold (bench/coinco-import.ts).
 */
import fs from "node:fs";
import { setMaxListeners } from "node:events";
import Database from "better-sqlite3";
import { lexeltXml } from "./lib/corpus";
import { initialStates, mergeRecords, preflight, runLoad, type SaveRecord } from "./lib/load-run";
import { numberArg, runTag, setUp, stringArg } from "./lib/setup";
import { checkSaves, integrityCheck } from "./lib/verify";

const log = (s: string) => process.stderr.write(s + "\n");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
function summary(saves: SaveRecord[]) {
  const ms = saves.map((s) => s.end - s.start).sort((a, b) => a - b);
  return { n: ms.length, p50: pct(ms, 50), p99: pct(ms, 99), max: ms[ms.length - 1] ?? NaN };
}
const f = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "–");

async function main(): Promise<number> {
  const targetMb = numberArg("mb", "IMPORT_MB", 40);
  const annotatorCount = numberArg("annotators", "LOAD_ANNOTATORS", 50);
  const thinkSec = numberArg("think", "LOAD_THINK", 5);
  const jsonOut = stringArg("json", "IMPORT_JSON", "");

  // The file: sized from a sample, ids of its own.
  const perLexelt = 100;
  const sample = lexeltXml({ lexelts: 10, instancesPerLexelt: perLexelt, idPrefix: "bi", seed: 7 });
  const lexelts = Math.max(1, Math.round((targetMb * 1024 * 1024) / (Buffer.byteLength(sample) / 10)));
  const xml = Buffer.from(lexeltXml({ lexelts, instancesPerLexelt: perLexelt, idPrefix: "bi", seed: 7 }));
  const instancesInFile = lexelts * perLexelt;
  log(`generated ${(xml.byteLength / 1048576).toFixed(1)} MB of lexelt XML: ${lexelts} lexelts, ${instancesInFile} instances`);

  const rig = await setUp({ annotators: annotatorCount, instances: 2000, log });
  try {
    const states = initialStates(rig.annotators, rig.seeded.instanceRefs.length);
    const common = {
      base: rig.server.base,
      projectId: rig.seeded.projectId,
      instanceRefs: rig.seeded.instanceRefs,
      heads: rig.seeded.heads,
      pageLoadEvery: 10,
      reviseShare: 0.2,
      runTag: runTag(),
      timeoutSec: 10,
    };
    const pre = await preflight(states[0], { ...common, durationSec: 1, thinkSec: 0.3, coordinator: null });
    const abort = new AbortController();
    setMaxListeners(0, abort.signal);
    log(`load: ${annotatorCount} annotators saving every ~${thinkSec} s; the import starts after 10 s …`);
    const load = runLoad(states, { ...common, durationSec: 900, thinkSec, coordinator: null, signal: abort.signal });

    await sleep(10_000);
    const headers = { Cookie: rig.coordinatorCookie, Origin: rig.server.base };
    const importStart = Date.now();
    const res = await fetch(`${rig.server.base}/api/projects/${rig.seeded.importProjectId}/import`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "application/xml", "X-File-Name": "bench-import.xml" },
      body: xml,
    });
    const uploadedMs = Date.now() - importStart;
    const started = (await res.json()) as { ok: boolean; job?: { id: number }; message?: string };
    if (res.status !== 202 || !started.job) throw new Error(`import: HTTP ${res.status} ${started.message ?? ""}`);
    let job: { state: string; done: number; total: number; message: string; report?: unknown } = { state: "queued", done: 0, total: 0, message: "" };
    let polls = 0;
    const pollMs: number[] = [];
    while (job.state === "queued" || job.state === "running") {
      await sleep(500);
      const t = Date.now();
      const r = await fetch(`${rig.server.base}/api/projects/${rig.seeded.importProjectId}/jobs/${started.job.id}`, { headers });
      pollMs.push(Date.now() - t);
      job = ((await r.json()) as { job: typeof job }).job;
      if (++polls % 10 === 0) log(`  import: ${job.state} ${job.done} / ${job.total} — ${job.message}`);
    }
    const importEnd = Date.now();
    log(`import ${job.state}: ${job.message}`);
    await sleep(5_000);
    abort.abort();
    const main = await load;
    await rig.server.stop();

    const acked = main.saves.filter((s) => s.outcome === "acked");
    const before = acked.filter((s) => s.end < importStart);
    const during = acked.filter((s) => s.start >= importStart && s.start <= importEnd);
    const errors = main.saves.filter((s) => s.outcome === "failed" || s.outcome === "refused" || s.outcome === "unanswered").length;
    const integrity = integrityCheck(rig.dbFile);
    const acks = checkSaves(rig.dbFile, rig.seeded.projectId, mergeRecords([pre, main]).acked);
    const db = new Database(rig.dbFile, { readonly: true });
    const visible = (
      db
        .prepare("select count(*) as n from instances i join lexelts l on l.id = i.lexelt_id and l.project_id = i.project_id where i.project_id = ? and i.instance_id like 'bi%'")
        .get(rig.seeded.importProjectId) as { n: number }
    ).n;
    const holders = (db.prepare("select count(*) as n from projects where staging_for is not null").get() as { n: number }).n;
    db.close();

    const b = summary(before);
    const d = summary(during);
    const poll = summary(pollMs.map((ms) => ({ start: 0, end: ms }) as SaveRecord));
    const wallS = (importEnd - importStart) / 1000;
    const pass = d.p99 < 150 && job.state === "done" && visible === instancesInFile && errors === 0 && acks.present === acks.acknowledged && integrity === "ok";
    process.stdout.write(
      `\nbench:import — ${annotatorCount} annotators at ~${thinkSec} s per save, a ${(xml.byteLength / 1048576).toFixed(1)} MB lexelt XML import (${instancesInFile} instances)\n` +
        `saves before the import: ${b.n}, p50 ${f(b.p50)} ms, p99 ${f(b.p99)} ms, max ${f(b.max)} ms\n` +
        `saves during the import: ${d.n}, p50 ${f(d.p50)} ms, p99 ${f(d.p99)} ms, max ${f(d.max)} ms (target p99 < 150 ms: ${d.p99 < 150 ? "PASS" : "MISS"})\n` +
        `job polls during the import: ${poll.n}, p50 ${f(poll.p50)} ms, max ${f(poll.max)} ms\n` +
        `import wall time: ${wallS.toFixed(1)} s (upload ${(uploadedMs / 1000).toFixed(1)} s), ${job.state}; instances visible ${visible} of ${instancesInFile}; holding projects left ${holders}\n` +
        `errors ${errors}; integrity_check ${integrity}; acknowledged saves ${acks.acknowledged}, present once ${acks.present}\n` +
        `${pass ? "PASS" : "MISS"}\n`,
    );
    if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ mb: xml.byteLength / 1048576, instancesInFile, before: b, during: d, wallS, state: job.state, visible, errors }, null, 2));
    return pass ? 0 : 1;
  } catch (e) {
    log(`server output (last lines):\n${rig.server.tail()}`);
    throw e;
  } finally {
    await rig.cleanup();
  }
}

(process.argv.includes("--coinco") ? import("./coinco-import").then((m) => m.coincoImportBench()) : main()).then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  },
);
