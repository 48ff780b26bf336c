/**
 * npm run bench:pages — the coordinator's pages while annotators save (#39; first #14).
 *
 * For each size (--instances, then --compare for the same at a small project): a throw-away
 * database with the corpus and accounts written through lib/server (as the CLI would), --answers
 * answers on every instance by other annotators (raw inserts, bench/lib/seed.ts), and the derived
 * figures built as `lexgold derive` builds them (timed). Then the production server (two
 * processes, as `lexgold start` runs) and, in phases:
 *
 * 1. **storing**: two runs of --run-lines lines (a best file, then an oot file gzipped; each
 *    answers every instance once and ids outside the gold for the rest) POSTed to the route the
 *    Scoring page posts to, one after the other, while the --annotators save at a human pace: the
 *    time to store each, the tree's peak RSS (target ≤ 1 GiB), the saves meanwhile (none may fail:
 *    #38 finding 5, "database is locked").
 * 2. **human pace**, after a restart (so that each page's first load is in the figures): the
 *    annotators save, thinking --think seconds on average per instance, for --duration seconds,
 *    while the coordinator loads each of their pages in turn, one after another, the whole time.
 * 3. **saturation**, after another restart: the same with every annotator saving as fast as the
 *    server answers, for --saturation seconds (0: no such phase).
 *
 * --without-coordinator: phases 2 and 3 with nobody loading pages, to tell what the coordinator's
 * page loads cost the saves (a page is drawn in one of the two server processes, holding its event
 * loop meanwhile; the saves that process took in wait for it).
 *
 * Per page: first load, p50, p95 (first load included), max, loads (target p95 < 1 s). Saves:
 * p50 / p99 (target p99 < 150 ms), errors. The tree's peak RSS per phase (target ≤ 1.5 GiB). What
 * the derivation queue held at the end. Then the big size against the small (target: within 20 %).
 * One save's derivation statements and rows at 2,000 and 200,000 instances are counted by
 * test/server/derived/derived-scale.test.ts.
 *
 *   npm run bench:pages -- [--instances 100000] [--compare 2000] [--answers 4] [--annotators 50]
 *                          [--think 5] [--duration 60] [--saturation 60] [--run-lines 1000000]
 *                          [--per-lexelt 24] [--dist .next-bench] [--build] [--keep] [--json FILE]
 *                          [--cpu-prof DIR] [--without-coordinator]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { signIn } from "./lib/auth";
import { type Annotator, type AnnotatorState, initialStates, type LoadRecords, runLoad } from "./lib/load-run";
import { formatPeak, mib, type RssPeak, sampleRss } from "./lib/rss";
import { LOAD_PASSWORD, prefillResponses, type Seeded, seedLoadDb } from "./lib/seed";
import { buildIfNeeded, freePort, Server } from "./lib/server";
import { flag, numberArg, runTag, stringArg } from "./lib/setup";
import { summarize } from "./lib/stats";
import { instanceIds, uploadRunFile, writeRunFile } from "./lib/stored-runs";
import { openDb } from "../db/client";

const instancesArg = numberArg("instances", "PAGES_INSTANCES", 100_000);
const compareArg = numberArg("compare", "PAGES_COMPARE", 2_000);
const answersPerInstance = numberArg("answers", "PAGES_ANSWERS", 4);
const annotatorCount = numberArg("annotators", "PAGES_ANNOTATORS", 50);
const thinkSec = numberArg("think", "PAGES_THINK", 5);
const durationSec = numberArg("duration", "PAGES_DURATION", 60);
const saturationSec = numberArg("saturation", "PAGES_SATURATION", 60);
const runLines = numberArg("run-lines", "PAGES_RUN_LINES", 1_000_000);
const perLexelt = numberArg("per-lexelt", "PAGES_PER_LEXELT", 24);
const PAGE_TARGET_MS = 1000;
const SAVE_TARGET_MS = 150;
const TREE_TARGET = 1.5 * 1024 ** 3;
const STORE_TARGET = 1024 ** 3;
const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(" ");

interface PageFigures {
  page: string;
  loads: number;
  failed: number;
  first: number;
  p50: number;
  p95: number;
  max: number;
  bytes: number;
}

interface PhaseFigures {
  name: string;
  seconds: number;
  pages: PageFigures[];
  saves: { acked: number; failed: number; p50: number; p99: number; max: number; perSec: number };
  rss: RssPeak;
  queuedAfter: number;
  load: string;
}

interface SizeFigures {
  instances: number;
  lexelts: number;
  answers: number;
  buildSeconds: number;
  stored: Array<{ file: string; bytes: number; seconds: number; status: number; message?: string }>;
  storing: PhaseFigures;
  phases: PhaseFigures[];
}

function coordinatorRequests(projectId: number, runIds: number[]) {
  const p = `/projects/${projectId}`;
  const api = `/api/projects/${projectId}`;
  return [
    { name: "Gold", path: `${p}/gold`, export: true },
    { name: "Gold: instances", path: `${p}/gold?view=instances`, export: true },
    { name: "Gold: review queue", path: `${p}/gold?view=queue`, export: true },
    { name: "Agreement", path: `${p}/agreement`, export: true },
    { name: "Progress", path: `${p}/progress`, export: true },
    { name: "Scoring", path: `${p}/scoring`, export: true },
    ...runIds.map((id, k) => ({ name: `Scoring: run ${k + 1}'s figures`, path: `${api}/scoring/runs/${id}`, export: true })),
    { name: "gold download", path: `${api}/gold?file=gold`, export: true },
    { name: "mwgold download", path: `${api}/gold?file=mwgold`, export: true },
  ];
}

function pageFigures(rec: LoadRecords): PageFigures[] {
  const names = [...new Set(rec.exports.map((e) => e.name))];
  return names.map((page) => {
    const mine = rec.exports.filter((e) => e.name === page);
    const ok = mine.filter((e) => e.ok);
    const s = summarize(ok.map((e) => e.end - e.start));
    return { page, loads: mine.length, failed: mine.length - ok.length, first: mine[0].ok ? mine[0].end - mine[0].start : Number.NaN, p50: s.p50, p95: s.p95, max: s.max, bytes: ok[0]?.bytes ?? 0 };
  });
}

function saveFigures(rec: LoadRecords): PhaseFigures["saves"] {
  const acked = rec.saves.filter((s) => s.outcome === "acked");
  const failed = rec.saves.filter((s) => s.outcome === "failed" || s.outcome === "unanswered" || s.outcome === "refused");
  for (const f of failed.slice(0, 3)) log(`  a save ${f.outcome}: ${f.message ?? f.status}`);
  const s = summarize(acked.map((r) => r.end - r.start));
  return { acked: acked.length, failed: failed.length, p50: s.p50, p99: s.p99, max: s.max, perSec: acked.length / Math.max(1, (rec.endedAt - rec.startedAt) / 1000) };
}

function queued(dbFile: string, projectId: number): number {
  const db = openDb(dbFile);
  try {
    return (db.$client.prepare("select count(*) as n from derive_queue where project_id = ?").get(projectId) as { n: number }).n;
  } finally {
    db.$client.close();
  }
}

async function signInAll(server: Server, seeded: Seeded): Promise<{ coordinator: string; annotators: Annotator[] }> {
  const annotators: Annotator[] = [];
  for (let i = 0; i < seeded.annotators.length; i += 5) {
    const batch = seeded.annotators.slice(i, i + 5);
    const cookies = await Promise.all(batch.map((a) => signIn(server.base, a.name, LOAD_PASSWORD)));
    batch.forEach((a, k) => annotators.push({ name: a.name, userId: a.userId, cookie: cookies[k] }));
  }
  return { coordinator: await signIn(server.base, seeded.coordinator, LOAD_PASSWORD), annotators };
}

/**
 * The annotators' states for the next phase: their new sessions, and where each one got to with the
 * revisions acknowledged so far (a phase starting from nothing would send revision 0 for instances
 * saved in the phase before, and be refused as a save from another tab).
 */
function carriedStates(annotators: Annotator[], instanceCount: number, before: AnnotatorState[] | null): AnnotatorState[] {
  const fresh = initialStates(annotators, instanceCount);
  if (!before) return fresh;
  return fresh.map((st, k) => ({ ...st, cursor: before[k].cursor, revisions: before[k].revisions, unknown: before[k].unknown }));
}

async function measureSize(instanceTarget: number, distDir: string): Promise<SizeFigures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-pages-"));
  const dbFile = path.join(dir, "pages.db");
  let server: Server | null = null;
  try {
    const lexelts = Math.ceil(instanceTarget / perLexelt);
    const seeded = await seedLoadDb(dbFile, { annotators: annotatorCount, lexelts, instancesPerLexelt: perLexelt });
    const answers = prefillResponses(dbFile, seeded.projectId, answersPerInstance);
    log(`seeded ${seeded.instanceRefs.length} instances in ${lexelts} lexelts, ${answers} answers, ${annotatorCount} annotators (${(seeded.seedMs / 1000).toFixed(0)} s)`);

    // The figures built as `lexgold derive` builds them (the server's applier would, in the background).
    const { SYSTEM } = await import("../lib/server/kernel/actor");
    const { bringFiguresUpToDate } = await import("../lib/server/derived");
    const db = openDb(dbFile);
    const t0 = performance.now();
    bringFiguresUpToDate(db, SYSTEM, seeded.projectId);
    const buildSeconds = (performance.now() - t0) / 1000;
    db.$client.close();
    log(`figures built in ${buildSeconds.toFixed(1)} s`);

    const ids = instanceIds(dbFile, seeded.projectId);
    const files = [
      { file: path.join(dir, "system.best"), type: "best" as const },
      { file: path.join(dir, "system.oot.gz"), type: "oot" as const },
    ];
    const sizes: number[] = [];
    for (const [k, f] of files.entries()) sizes.push(await writeRunFile(f.file, ids, runLines, f.type, 39 + k));
    log(`run files: ${files.map((f, k) => `${path.basename(f.file)} ${mib(sizes[k])}`).join(", ")}`);

    // --cpu-prof DIR: each server process writes a V8 CPU profile there when it stops (npm run bench:profile reads them).
    const prof = stringArg("cpu-prof", "PAGES_CPU_PROF", "");
    const nodeArgs = prof ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(prof)}`] : [];
    server = new Server({ distDir, dbFile, secretFile: path.join(dir, "secret"), port: await freePort(), nodeArgs });
    const common = (annotators: Annotator[], think: number, seconds: number) => ({
      base: server!.base,
      projectId: seeded.projectId,
      instanceRefs: seeded.instanceRefs,
      heads: seeded.heads,
      durationSec: seconds,
      thinkSec: think,
      pageLoadEvery: 50,
      reviseShare: 0.1,
      runTag: runTag(),
      timeoutSec: 120,
    });

    // 1. Storing two runs through the page while the annotators save.
    await server.start();
    let who = await signInAll(server, seeded);
    const stored: SizeFigures["stored"] = [];
    const stop = new AbortController();
    const rssStore = sampleRss(server.pid);
    const t1 = performance.now();
    let states = carriedStates(who.annotators, seeded.instanceRefs.length, null);
    const saving = runLoad(states, { ...common(who.annotators, thinkSec, 3600), coordinator: null, signal: stop.signal });
    for (const [k, f] of files.entries()) {
      const t = performance.now();
      const r = await uploadRunFile(server.base, who.coordinator, seeded.projectId, f.file, f.type);
      stored.push({ file: path.basename(f.file), bytes: sizes[k], seconds: (performance.now() - t) / 1000, status: r.status, message: r.body.ok ? undefined : r.body.message });
      log(`stored ${path.basename(f.file)}: ${r.status} in ${stored[k].seconds.toFixed(0)} s${r.body.ok ? "" : `: ${r.body.message}`}`);
    }
    stop.abort();
    const storeRec = await saving;
    const storing: PhaseFigures = {
      name: "storing two runs",
      seconds: (performance.now() - t1) / 1000,
      pages: [],
      saves: saveFigures(storeRec),
      rss: rssStore.stop(),
      queuedAfter: queued(dbFile, seeded.projectId),
      load: load(),
    };
    const ro = openDb(dbFile);
    const runIds = (ro.$client.prepare("select id from system_runs where project_id = ? order by id").all(seeded.projectId) as { id: number }[]).map((r) => r.id);
    ro.$client.close();

    // 2, 3. The coordinator's pages while the annotators save, each phase on a freshly started server.
    const phases: PhaseFigures[] = [];
    const plan: Array<[string, number, number]> = [[`human pace (~${thinkSec} s per instance)`, thinkSec, durationSec]];
    if (saturationSec > 0) plan.push(["saturation (saving as fast as answered)", 0, saturationSec]);
    for (const [name, think, seconds] of plan) {
      await server.stop();
      await server.start();
      who = await signInAll(server, seeded);
      log(`${name}: ${seconds} s, load ${load()}`);
      const rss = sampleRss(server.pid);
      const t = performance.now();
      states = carriedStates(who.annotators, seeded.instanceRefs.length, states);
      const rec = await runLoad(states, {
        ...common(who.annotators, think, seconds),
        coordinator: flag("without-coordinator") ? null : { cookie: who.coordinator, everySec: 0, requests: coordinatorRequests(seeded.projectId, runIds) },
      });
      phases.push({ name, seconds: (performance.now() - t) / 1000, pages: pageFigures(rec), saves: saveFigures(rec), rss: rss.stop(), queuedAfter: queued(dbFile, seeded.projectId), load: load() });
    }
    return { instances: seeded.instanceRefs.length, lexelts, answers, buildSeconds, stored, storing, phases };
  } catch (e) {
    if (server) console.error(`the server's last lines:\n${server.tail()}`);
    throw e;
  } finally {
    await server?.stop();
    if (!flag("keep")) fs.rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  }
}

const f0 = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : "–");
const met = (ok: boolean) => (ok ? "met" : "MISSED");

function report(s: SizeFigures): string {
  const out = [
    `### ${s.instances.toLocaleString("en")} instances (${s.lexelts.toLocaleString("en")} lexelts), ${s.answers.toLocaleString("en")} answers, ${annotatorCount} annotators`,
    "",
    `Figures built (as \`lexgold derive\`): ${s.buildSeconds.toFixed(1)} s.`,
    "",
    "| run stored through the page | size | time | answer | tree's peak RSS while storing (≤ 1 GiB) |",
    "|---|---|---|---|---|",
    ...s.stored.map((r, k) => `| ${r.file} (${runLines.toLocaleString("en")} lines) | ${mib(r.bytes)} | ${r.seconds.toFixed(0)} s | ${r.status}${r.message ? `: ${r.message}` : ""} | ${k === 0 ? `${formatPeak(s.storing.rss)}: ${met(s.storing.rss.total <= STORE_TARGET)}` : "(the same phase)"} |`),
    "",
    `Saves while storing: ${s.storing.saves.acked} acknowledged, ${s.storing.saves.failed} failed, p50 ${f0(s.storing.saves.p50)} / p99 ${f0(s.storing.saves.p99)} / max ${f0(s.storing.saves.max)} ms; load ${s.storing.load}.`,
  ];
  for (const p of s.phases) {
    out.push(
      "",
      `**${p.name}**, ${p.seconds.toFixed(0)} s, load average after ${p.load}: saves ${p.saves.acked} (${p.saves.perSec.toFixed(1)}/s), ${p.saves.failed} failed, ` +
        `p50 ${f0(p.saves.p50)} / p99 ${f0(p.saves.p99)} ms (< ${SAVE_TARGET_MS} ms: ${met(p.saves.p99 < SAVE_TARGET_MS)}); ` +
        `the tree's peak RSS ${formatPeak(p.rss)} (≤ 1.5 GiB: ${met(p.rss.total <= TREE_TARGET)}); ${p.queuedAfter} instances queued for derivation at the end.`,
      "",
      "| page | first load | p50 | p95 (first load included) | max | loads | size | p95 < 1 s |",
      "|---|---|---|---|---|---|---|---|",
      ...p.pages.map((g) => `| ${g.page} | ${f0(g.first)} ms | ${f0(g.p50)} ms | ${f0(g.p95)} ms | ${f0(g.max)} ms | ${g.loads}${g.failed ? ` (${g.failed} failed)` : ""} | ${(g.bytes / 1024).toFixed(0)} KiB | ${met(g.p95 < PAGE_TARGET_MS && g.failed === 0)} |`),
    );
  }
  return out.join("\n");
}

function comparison(big: SizeFigures, small: SizeFigures): string {
  const out = [`### ${big.instances.toLocaleString("en")} against ${small.instances.toLocaleString("en")} instances (p95; saves p99; target: within 20 %)`, ""];
  for (const [k, p] of big.phases.entries()) {
    const q = small.phases[k];
    if (!q) continue;
    out.push(`**${p.name}**`, "", "| | big | small | big / small |", "|---|---|---|---|");
    const row = (name: string, a: number, b: number) => out.push(`| ${name} | ${f0(a)} ms | ${f0(b)} ms | ${(a / b).toFixed(2)} |`);
    for (const g of p.pages) {
      const h = q.pages.find((x) => x.page === g.page);
      if (h) row(g.page, g.p95, h.p95);
    }
    row("saves (p99)", p.saves.p99, q.saves.p99);
    out.push(`| the tree's peak RSS | ${mib(p.rss.total)} | ${mib(q.rss.total)} | ${(p.rss.total / q.rss.total).toFixed(2)} |`, "");
  }
  return out.join("\n");
}

async function main() {
  const distDir = stringArg("dist", "LOAD_DIST_DIR", ".next-bench");
  buildIfNeeded(distDir, flag("build"), log);
  process.env.LEXGOLD_BCRYPT_COST ??= "4";
  const startLoad = load();
  const sizes: SizeFigures[] = [];
  for (const n of [instancesArg, compareArg].filter((x) => x > 0)) {
    log(`size ${n}: load ${load()}`);
    sizes.push(await measureSize(n, distDir));
  }
  const lines = [
    `bench:pages — ${new Date().toISOString()}; ${os.cpus().length} cores, load average at the start ${startLoad}, at the end ${load()}`,
    "",
    ...sizes.map(report).flatMap((s) => [s, ""]),
    ...(sizes.length === 2 ? [comparison(sizes[0], sizes[1])] : []),
  ];
  console.log(lines.join("\n"));
  const json = stringArg("json", "PAGES_JSON", "");
  if (json) fs.writeFileSync(json, JSON.stringify({ annotators: annotatorCount, thinkSec, durationSec, saturationSec, runLines, sizes }, null, 1));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
