/**
 * How long each coordinator request holds a server process's event loop (issue
 * #14: "no request holds the event loop for more than ~50 ms"):
 * `npm run bench:loop`.
 *
 * Starts the production server (as `npm run load`: a throw-away database, here
 * 100,000 instances with 5 annotators' answers on each by default) with
 * LEXGOLD_LOOP_PROBE set, so every serving process writes the longest event-loop
 * block of each 100 ms (scripts/serve.mjs). Then, one at a time with a pause
 * between, it requests every coordinator page and download twice — the first
 * time after a change (so the gold and agreement are derived afresh), the second
 * from the cache — and prints, per request, the wall time, the size and the
 * longest block any serving process saw while it ran. No annotator is saving:
 * the block is the request's own (and the derivation's, when it runs in a thread
 * of the process rather than in its child process).
 *
 *   npm run bench:loop -- [--instances 100000] [--prefill 5] [--dist .next-e2e] [--json FILE]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { numberArg, setUp, stringArg } from "./lib/setup";

const log = (s: string) => process.stderr.write(s + "\n");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Probe {
  at: number;
  ms: number;
}

function readProbe(file: string): Probe[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [at, , ms] = l.split(" ");
      return { at: Number(at), ms: Number(ms) };
    });
}

async function main(): Promise<number> {
  const instances = numberArg("instances", "LOOP_INSTANCES", 100_000);
  const prefill = numberArg("prefill", "LOOP_PREFILL", 5);
  const jsonOut = stringArg("json", "LOOP_JSON", "");
  const probeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-loop-")), "probe.txt");
  process.env.LEXGOLD_LOOP_PROBE = probeFile;
  const rig = await setUp({ annotators: 5, instances, log, prefill });
  const p = rig.seeded.projectId;
  const pages: [string, string][] = [
    ["Project overview", `/projects/${p}`],
    ["Team", `/projects/${p}/members`],
    ["Progress", `/projects/${p}/progress`],
    ["Gold", `/projects/${p}/gold`],
    ["Flags", `/projects/${p}/flags`],
    ["Agreement", `/projects/${p}/agreement`],
    ["Scoring", `/projects/${p}/scoring`],
    ["Ranking", `/projects/${p}/scoring/ranking`],
    ["Training", `/projects/${p}/training`],
    ["Datasets", `/projects/${p}/datasets`],
    ["Judgement", `/projects/${p}/judgement`],
    ["gold download", `/api/projects/${p}/gold?file=gold`],
    ["mwgold download", `/api/projects/${p}/gold?file=mwgold`],
    ["review log CSV", `/api/projects/${p}/gold?file=log`],
    ["agreement JSON", `/api/projects/${p}/agreement?format=json`],
    ["responses TSV", `/api/projects/${p}/responses`],
  ];
  const rows: { name: string; pass: string; status: number; ms: number; bytes: number; blockMs: number }[] = [];
  try {
    await sleep(1500);
    const idle = readProbe(probeFile).filter((x) => x.at > Date.now() - 1000);
    const idleMax = Math.max(0, ...idle.map((x) => x.ms));
    log(`idle: longest block ${idleMax} ms over 1 s`);
    for (const pass of ["after a change", "cached"]) {
      if (pass === "after a change") {
        // A change the derivations see: one more response from the first prefilled annotator.
        const db = new Database(rig.dbFile);
        db.prepare("update responses set substitutes = '[\"changed\"]', revision = revision + 1 where id = (select min(id) from responses)").run();
        db.close();
      }
      for (const [name, url] of pages) {
        await sleep(400);
        const t0 = Date.now();
        const res = await fetch(rig.server.base + url, { headers: { cookie: rig.coordinatorCookie }, signal: AbortSignal.timeout(120_000) });
        const body = new Uint8Array(await res.arrayBuffer());
        const t1 = Date.now();
        await sleep(250);
        const seen = readProbe(probeFile).filter((x) => x.at >= t0 && x.at <= t1 + 200);
        const blockMs = Math.max(0, ...seen.map((x) => x.ms));
        rows.push({ name, pass, status: res.status, ms: t1 - t0, bytes: body.byteLength, blockMs });
        log(`${pass.padEnd(15)} ${name.padEnd(18)} ${res.status} ${String(t1 - t0).padStart(6)} ms ${String(Math.round(body.byteLength / 1024)).padStart(7)} KiB  longest block ${blockMs} ms`);
      }
    }
  } finally {
    await rig.cleanup();
  }
  const over = rows.filter((r) => r.blockMs > 50);
  process.stdout.write(
    `\nbench:loop — ${instances} instances × ${prefill} annotators' answers; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores\n` +
      `| request | pass | status | wall | size | longest event-loop block | ≤ 50 ms |\n|---|---|---|---|---|---|---|\n` +
      rows.map((r) => `| ${r.name} | ${r.pass} | ${r.status} | ${r.ms} ms | ${Math.round(r.bytes / 1024)} KiB | ${r.blockMs} ms | ${r.blockMs <= 50 ? "met" : "**missed**"} |`).join("\n") +
      `\n\n${over.length === 0 ? "every request held the loop 50 ms or less" : `${over.length} of ${rows.length} held it longer: ${over.map((r) => `${r.name} (${r.pass}, ${r.blockMs} ms)`).join(", ")}`}\n`,
  );
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ instances, prefill, rows }, null, 2));
  return rows.every((r) => r.status === 200) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  },
);
