/**
 * A model annotating a CoInCo-sized project while people save (issue #41): `npm run bench:models`.
 *
 * Starts the production server (as `npm run load`: a throw-away database, annotators signed in) on a
 * project of 15,629 instances, a model server on loopback (test/support/model-server.ts) that answers each
 * call after 200 ms, registers it with 8 calls at once and starts its run through the run route while the
 * annotators save at a human pace. Prints the run's wall time (target ≤ 8 min), the people's saves during
 * it (target p99 < 150 ms), the server's memory at its peak (every process of it, target ≤ 1.5 GiB), and
 * how long a cancel takes to stop a second run's calls (target ≤ 2 s); checks every acknowledged save is
 * there once and the model answered every instance.
 *
 *   npm run bench:models -- [--instances 15629] [--annotators 30] [--think 3] [--latency 200] [--concurrency 8] [--build] [--json FILE]
 */
import fs from "node:fs";
import { setMaxListeners } from "node:events";
import Database from "better-sqlite3";
import { startModelServer } from "../test/support/model-server";
import { initialStates, mergeRecords, preflight, runLoad, type SaveRecord } from "./lib/load-run";
import { numberArg, runTag, setUp, stringArg } from "./lib/setup";
import { summarize } from "./lib/stats";
import { checkSaves, integrityCheck } from "./lib/verify";

const log = (s: string) => process.stderr.write(s + "\n");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function summary(saves: SaveRecord[]) {
  const s = summarize(saves.map((x) => x.end - x.start));
  return { n: s.count, p50: s.p50, p99: s.p99, max: s.max };
}
const f = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "–");

/** Resident memory (bytes) of a process and every process below it, from /proc. */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  for (const d of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(d));
      children.set(ppid, list);
    } catch {
      /* gone */
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      /* gone */
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

async function main(): Promise<number> {
  const instances = numberArg("instances", "MODELS_INSTANCES", 15629);
  const annotatorCount = numberArg("annotators", "LOAD_ANNOTATORS", 30);
  const thinkSec = numberArg("think", "LOAD_THINK", 3);
  const latencyMs = numberArg("latency", "MODELS_LATENCY_MS", 200);
  const concurrency = numberArg("concurrency", "MODELS_CONCURRENCY", 8);
  const jsonOut = stringArg("json", "MODELS_JSON", "");

  const model = await startModelServer({ latencyMs });
  log(`model server at ${model.url}, answering after ${latencyMs} ms`);
  const rig = await setUp({ annotators: annotatorCount, instances, log });
  try {
    // Registered as the CLI does (the operator: a loopback address), beside the running server.
    const { openDb } = await import("../db/client");
    const { SYSTEM } = await import("../lib/server/kernel/actor");
    const { addModel } = await import("../lib/server/models/connections");
    const db = openDb(rig.dbFile);
    for (const name of ["bench", "bench-cancel"]) {
      await addModel(db, SYSTEM, rig.seeded.projectId, { name, kind: "openai", baseUrl: model.openaiBase, model: name, maxConcurrency: String(concurrency), timeoutS: "30" });
    }
    db.$client.close();

    const states = initialStates(rig.annotators, rig.seeded.instanceRefs.length);
    const common = { base: rig.server.base, projectId: rig.seeded.projectId, instanceRefs: rig.seeded.instanceRefs, heads: rig.seeded.heads, pageLoadEvery: 10, reviseShare: 0.2, runTag: runTag(), timeoutSec: 10 };
    const pre = await preflight(states[0], { ...common, durationSec: 1, thinkSec: 0.3, coordinator: null });
    const abort = new AbortController();
    setMaxListeners(0, abort.signal);
    log(`load: ${annotatorCount} annotators saving every ~${thinkSec} s; the model's run starts after 5 s …`);
    const load = runLoad(states, { ...common, durationSec: 3600, thinkSec, coordinator: null, signal: abort.signal });

    let peakRss = 0;
    const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, treeRss(rig.server.pid!))), 1000);
    await sleep(5000);
    const headers = { Cookie: rig.coordinatorCookie, Origin: rig.server.base, "Content-Type": "application/json" };
    const base = `${rig.server.base}/api/projects/${rig.seeded.projectId}`;
    const start = async (name: string) => {
      const res = await fetch(`${base}/models/run`, { method: "POST", headers, body: JSON.stringify({ model: name, instances }) });
      const body = (await res.json()) as { job?: { id: number }; message?: string };
      if (res.status !== 202 || !body.job) throw new Error(`run: HTTP ${res.status} ${body.message ?? ""}`);
      return body.job.id;
    };
    type Job = { state: string; done: number; total: number; message: string; report?: { answered: number; failed: number } };
    const job = async (id: number) => ((await (await fetch(`${base}/jobs/${id}`, { headers })).json()) as { job: Job }).job;

    const runStart = Date.now();
    const id = await start("bench");
    let j = await job(id);
    let polls = 0;
    while (j.state === "queued" || j.state === "running") {
      await sleep(1000);
      j = await job(id);
      if (++polls % 20 === 0) log(`  run: ${j.state} ${j.done} / ${j.total}`);
    }
    const runEnd = Date.now();
    log(`run ${j.state}: ${j.message}`);

    // A second run (another model: nothing cached), cancelled once its calls are flowing.
    const cid = await start("bench-cancel");
    while ((await job(cid)).done < 50) await sleep(200);
    const cancelAt = Date.now();
    await fetch(`${base}/jobs/${cid}/cancel`, { method: "POST", headers });
    let cj = await job(cid);
    while (cj.state === "running" || model.inFlight > 0) {
      await sleep(20);
      cj = await job(cid);
    }
    const cancelMs = Date.now() - cancelAt;
    log(`cancel: ${cj.state} after ${cancelMs} ms — ${cj.message}`);

    await sleep(3000);
    abort.abort();
    clearInterval(rssTimer);
    const main = await load;
    await rig.server.stop();

    const acked = main.saves.filter((s) => s.outcome === "acked");
    const during = acked.filter((s) => s.start >= runStart && s.start <= runEnd);
    const errors = main.saves.filter((s) => s.outcome === "failed" || s.outcome === "refused" || s.outcome === "unanswered").length;
    const integrity = integrityCheck(rig.dbFile);
    const acks = checkSaves(rig.dbFile, rig.seeded.projectId, mergeRecords([pre, main]).acked);
    const check = new Database(rig.dbFile, { readonly: true });
    const answered = (
      check.prepare("select count(*) as n from responses r join model_samples ms on ms.user_id = r.user_id join models m on m.id = ms.model_id where m.name = 'bench'").get() as { n: number }
    ).n;
    check.close();

    const d = summary(during);
    const wallS = (runEnd - runStart) / 1000;
    const gib = peakRss / 1024 ** 3;
    const ok = { wall: wallS <= 480, saves: d.p99 < 150, memory: gib <= 1.5, cancel: cj.state === "cancelled" && cancelMs <= 2000 };
    const pass = ok.wall && ok.saves && ok.memory && ok.cancel && j.state === "done" && answered === instances && errors === 0 && acks.present === acks.acknowledged && integrity === "ok";
    const mark = (b: boolean) => (b ? "PASS" : "MISS");
    process.stdout.write(
      `\nbench:models — a ${instances}-instance project annotated by a model answering in ${latencyMs} ms, ${concurrency} calls at once; ${annotatorCount} annotators saving every ~${thinkSec} s\n` +
        `run: ${j.state}, ${answered} of ${instances} answered, wall ${wallS.toFixed(1)} s (${(instances / wallS).toFixed(1)} instances/s; the model alone allows ${((concurrency * 1000) / latencyMs).toFixed(1)}) (target ≤ 480 s: ${mark(ok.wall)})\n` +
        `people's saves during the run: ${d.n}, p50 ${f(d.p50)} ms, p99 ${f(d.p99)} ms, max ${f(d.max)} ms (target p99 < 150 ms: ${mark(ok.saves)})\n` +
        `server memory at its peak (every process): ${gib.toFixed(2)} GiB (target ≤ 1.5 GiB: ${mark(ok.memory)})\n` +
        `cancel of a second run: ${cj.state} and no call in flight after ${cancelMs} ms (target ≤ 2000 ms: ${mark(ok.cancel)})\n` +
        `errors ${errors}; integrity_check ${integrity}; acknowledged saves ${acks.acknowledged}, present once ${acks.present}\n` +
        `${pass ? "PASS" : "MISS"}\n`,
    );
    if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ instances, latencyMs, concurrency, wallS, during: d, peakRssGiB: gib, cancelMs, answered, errors }, null, 2));
    return pass ? 0 : 1;
  } catch (e) {
    log(`server output (last lines):\n${rig.server.tail()}`);
    throw e;
  } finally {
    await rig.cleanup();
    await model.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  },
);
