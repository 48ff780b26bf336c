/**
 * Every benchmark, one page of figures (issue #6): `npm run bench`.
 *
 * Runs bench:score, bench:gold, the load test and the crash test (each in a
 * process of its own, their output shown as they go), then writes
 * bench/RESULTS.md: the machine, the date, the load on the machine while the
 * figures were taken, and one table of every figure with its target and
 * PASS/MISS. Arguments after `--` go to the load and crash runs (e.g.
 * `--duration 20`); `--no-crash` leaves the crash test out.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-bench-"));

interface Row {
  bench: string;
  figure: string;
  value: string;
  target: string;
  pass: boolean | null;
}

const loadSamples: number[] = [];
const sampler = setInterval(() => loadSamples.push(os.loadavg()[0]), 5000);

/** Run one benchmark script with --json; its figures, or the reason there are none. */
async function run(name: string, script: string, args: string[], reactServer = false): Promise<{ json: unknown; code: number | null; seconds: number }> {
  const out = path.join(tmp, `${name}.json`);
  process.stderr.write(`\n=== ${name} ===\n`);
  const t = Date.now();
  // Asynchronous, so the load-average sampler keeps running meanwhile.
  const child = spawn(process.execPath, [...(reactServer ? ["--conditions=react-server"] : []), "--import", "tsx", path.join(here, script), ...args, "--json", out], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const r = { status: await new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))) };
  const seconds = (Date.now() - t) / 1000;
  let json: unknown = null;
  try {
    json = JSON.parse(fs.readFileSync(out, "utf8"));
  } catch {
    process.stderr.write(`${name}: no figures (exit ${r.status})\n`);
  }
  return { json, code: r.status, seconds };
}

const passthrough = (() => {
  const i = process.argv.indexOf("--");
  return i >= 0 ? process.argv.slice(i + 1) : process.argv.slice(2).filter((a) => a !== "--no-crash");
})();

const f1 = (v: number) => v.toFixed(1);
const f2 = (v: number) => v.toFixed(2);
/** Seconds: three decimals below one second. */
const fs2 = (v: number) => v.toFixed(v < 1 ? 3 : 2);
const rows: Row[] = [];
const loadBefore = os.loadavg();
const started = new Date();

// --- scorer
{
  const r = await run("bench:score", "score.ts", []);
  const j = r.json as {
    items: number;
    runs: Array<{ type: string; items: number; seconds: number; cpuSeconds: number | null; peakMb: number; targetSeconds: number; targetMb: number }>;
    start?: { nodeSeconds: number; helpSeconds: number; helpPeakMb: number; ratio: number; targetRatio: number; met: boolean };
  } | null;
  if (!j) rows.push({ bench: "score", figure: "scorer benchmark", value: `failed (exit ${r.code})`, target: "runs", pass: false });
  else {
    for (const x of j.runs) {
      rows.push({
        bench: "score",
        figure: `${x.type}, ${x.items.toLocaleString("en")} items, through bin/lexgold: wall (CPU)`,
        value: `${fs2(x.seconds)} s (${x.cpuSeconds === null ? "?" : fs2(x.cpuSeconds)} s)`,
        target: `< ${fs2(x.targetSeconds)} s`,
        pass: x.seconds < x.targetSeconds,
      });
      rows.push({ bench: "score", figure: `${x.type}, ${x.items.toLocaleString("en")} items: peak memory`, value: `${x.peakMb.toFixed(0)} MB`, target: `< ${x.targetMb} MB`, pass: x.peakMb < x.targetMb });
    }
    if (j.start) {
      const st = j.start;
      rows.push({
        bench: "score",
        figure: "CLI start: bin/lexgold --help / bare node -e 0",
        value: `${(1000 * st.helpSeconds).toFixed(0)} / ${(1000 * st.nodeSeconds).toFixed(0)} ms = ${st.ratio.toFixed(2)}x (${st.helpPeakMb.toFixed(0)} MB)`,
        target: `<= ${st.targetRatio}x`,
        pass: st.met,
      });
    }
  }
}

// --- gold
{
  const r = await run("bench:gold", "gold.ts", []);
  const j = r.json as { instances: number; annotators: number; deriveSeconds: number; formatSeconds: number; agreementSeconds: number; totalSeconds: number; peakMb: number } | null;
  if (!j) rows.push({ bench: "gold", figure: "gold benchmark", value: `failed (exit ${r.code})`, target: "runs", pass: false });
  else {
    const what = `${j.instances.toLocaleString("en")} instances × ${j.annotators}`;
    rows.push({
      bench: "gold",
      figure: `${what}: derive + gold/mwgold + agreement`,
      value: `${f2(j.totalSeconds)} s (${f2(j.deriveSeconds)} + ${f2(j.formatSeconds)} + ${f2(j.agreementSeconds)})`,
      target: "< 3 s",
      pass: j.totalSeconds < 3,
    });
    rows.push({ bench: "gold", figure: "peak memory", value: `${j.peakMb.toFixed(0)} MB`, target: "< 500 MB", pass: j.peakMb < 500 });
  }
}

// --- load
let loadInfo = "";
{
  const r = await run("load", "load.ts", passthrough, true);
  type Target = { figure: string; value: string; target: string; pass: boolean | null };
  const j = r.json as {
    annotators: number;
    instances: number;
    thinkSec: number;
    durationSec: number;
    pageEvery?: number;
    exportEvery?: number;
    integrity: string;
    figures: {
      savesPerSec: number;
      savesAcked: number;
      save: { p50: number; p95: number; p99: number; max: number };
      saveErrors: { refused: number; failed: number; unanswered: number };
      pages: { count: number; errors: number; latency: { p50: number; p99: number } };
      exports: Array<{ name: string; count: number; errors: number; latency: { p50: number; max: number } }>;
      connectionErrors: number;
    };
    targets: Target[];
    bare?: { requestsPerSec: number } | null;
    bareRatio?: number | null;
    cpu?: { parts: Record<string, number> } | null;
  } | null;
  if (!j) rows.push({ bench: "load", figure: "load test", value: `failed (exit ${r.code})`, target: "runs", pass: false });
  else {
    loadInfo = `${j.annotators} annotators on ${j.instances.toLocaleString("en")} instances for ${j.durationSec} s, each saving after ~${j.thinkSec} s on an instance (then moving on; every ${j.pageEvery ?? 10}th move a full page load), the coordinator downloading the exports every ${j.exportEvery ?? 5} s`;
    const f = j.figures;
    rows.push({ bench: "load", figure: "saves acknowledged per second", value: `${f1(f.savesPerSec)} (${f.savesAcked} in all)`, target: "-", pass: null });
    rows.push({ bench: "load", figure: "save latency p50 / p95", value: `${f1(f.save.p50)} / ${f1(f.save.p95)} ms`, target: "-", pass: null });
    if (j.cpu) {
      const per = (ms: number) => f2(ms / Math.max(1, f.savesAcked));
      rows.push({ bench: "load", figure: "CPU per save: serving processes / derivation child / load generator", value: `${per(j.cpu.parts.server)} / ${per(j.cpu.parts.derivation)} / ${per(j.cpu.parts["load generator"])} ms`, target: "-", pass: null });
    }
    // At a human pace (the default think time) this is not a share of capacity: `npm run load -- --think 0` is.
    if (j.bare && j.bareRatio != null) rows.push({ bench: "load", figure: "bare route requests/s; saves/s as a share of it", value: `${f1(j.bare.requestsPerSec)}; ${f2(j.bareRatio)}`, target: "-", pass: null });
    for (const t of j.targets) rows.push({ bench: "load", ...t });
    // Where the errors were, so a MISS says which request failed.
    const e = f.saveErrors;
    const where = [
      e.refused + e.failed + e.unanswered ? `saves: ${e.refused} refused, ${e.failed} failed, ${e.unanswered} unanswered` : "",
      f.pages.errors ? `page loads: ${f.pages.errors}` : "",
      f.connectionErrors ? `connections: ${f.connectionErrors}` : "",
      ...f.exports.filter((x) => x.errors > 0).map((x) => `${x.name}: ${x.errors} of ${x.count}`),
    ].filter(Boolean);
    if (where.length) rows.push({ bench: "load", figure: "where the errors were", value: where.join("; "), target: "-", pass: null });
    for (const x of f.exports) {
      rows.push({ bench: "load", figure: `coordinator ${x.name} p50 / max`, value: `${f1(x.latency.p50)} / ${f1(x.latency.max)} ms (${x.count})`, target: "-", pass: null });
    }
    rows.push({ bench: "load", figure: "page loads p50 / p99", value: `${f1(f.pages.latency.p50)} / ${f1(f.pages.latency.p99)} ms (${f.pages.count})`, target: "-", pass: null });
    rows.push({ bench: "load", figure: "integrity_check afterwards", value: j.integrity, target: "ok", pass: j.integrity === "ok" });
  }
}

// --- crash
if (!process.argv.includes("--no-crash")) {
  const r = await run("crash-test", "crash.ts", passthrough.filter((a, i, all) => !["--duration"].includes(a) && !["--duration"].includes(all[i - 1])), true);
  const j = r.json as { rows: Row[] } | null;
  if (!j) rows.push({ bench: "crash", figure: "crash test", value: `failed (exit ${r.code})`, target: "runs", pass: false });
  else for (const x of j.rows) rows.push({ ...x, bench: "crash" });
}

clearInterval(sampler);
const loadAfter = os.loadavg();
const cpus = os.cpus();
const maxLoad = Math.max(loadBefore[0], loadAfter[0], ...loadSamples);
const meanLoad = loadSamples.length ? loadSamples.reduce((a, b) => a + b, 0) / loadSamples.length : loadAfter[0];
// The benchmarks keep one or two processes busy themselves (the load's server and client).
const contended = meanLoad > cpus.length;
const cell = (s: string) => s.replace(/\|/g, "\\|");
const verdict = (r: Row) => (r.pass === null ? (r.target === "-" ? "" : "n/a") : r.pass ? "PASS" : "**MISS**");

const md = [
  "# lexgold benchmark figures",
  "",
  "Written by `npm run bench` (bench/run-all.ts); rerun it after a change that moves a figure and commit this file with the change.",
  "",
  `- Date: ${started.toISOString().replace("T", " ").slice(0, 16)} UTC`,
  `- Machine: ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB memory, ${os.type()} ${os.release()}`,
  `- Node ${process.version}`,
  `- Load average (1 min) while running: mean ${f1(meanLoad)}, max ${f1(maxLoad)} on ${cpus.length} cores (the benchmarks alone keep one or two busy)` +
    (contended
      ? " — **the machine was shared with other work while these figures were taken**, so latencies and times are worse than on a quiet machine."
      : maxLoad > cpus.length
        ? "; other work ran at times (max above the cores), so some figures may be worse than on a quiet machine."
        : "."),
  loadInfo ? `- Load test: ${loadInfo}.` : "",
  "",
  "| benchmark | figure | value | target | result |",
  "|---|---|---|---|---|",
  ...rows.map((r) => `| ${r.bench} | ${cell(r.figure)} | ${cell(r.value)} | ${cell(r.target)} | ${verdict(r)} |`),
  "",
  "How each figure is taken: bench/score.ts (scorer), bench/gold.ts (gold and agreement), bench/load.ts (load), bench/crash.ts (SIGKILL and restart); docs/benchmarks.md.",
  "",
]
  .filter((l, i, all) => !(l === "" && all[i - 1] === ""))
  .join("\n");
fs.writeFileSync(path.join(here, "RESULTS.md"), md);
fs.rmSync(tmp, { recursive: true, force: true });
process.stderr.write(`\nwrote bench/RESULTS.md (${rows.filter((r) => r.pass === false).length} missed of ${rows.filter((r) => r.pass !== null).length} targets)\n`);
process.stdout.write(md);
process.exit(rows.some((r) => r.pass === false) ? 1 : 0);
