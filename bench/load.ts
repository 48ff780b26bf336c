/**
 * Load test (issue #6): `npm run load`.
 *
 * Builds if needed (into .next-bench), starts the production server on a spare
 * port with a throw-away database seeded with 2,000 instances and 50 annotators,
 * signs everyone in through next-auth, and drives the workspace with autocannon
 * through the browser's own requests — save (the JSON POST of "Save & next"),
 * move to the next instance (from the save's answer: no request, but every 50th
 * move a full page load) — for 60 s, while the coordinator downloads the exports every 5 s
 * (--export-every 0: no coordinator). Then checks in the database that
 * every acknowledged save is there exactly once, and prints the figures with
 * PASS/MISS per target.
 *
 *   npm run load -- [--duration S] [--annotators N] [--instances N] [--think SECONDS]
 *                   [--export-every S] [--page-every N] [--build] [--keep] [--json FILE]
 *                   [--prefill K] [--coordinator-only NAME] [--bare-duration S] [--cpu-prof DIR]
 *
 * (each also as an environment variable: LOAD_DURATION, LOAD_ANNOTATORS,
 * LOAD_INSTANCES, LOAD_THINK, LOAD_EXPORT_EVERY, LOAD_PAGE_EVERY.) --think is the
 * mean seconds an annotator spends on an instance before saving (default 5; a
 * brisk human takes 20 s or more); --think 0 saves as fast as the server
 * answers, which measures capacity rather than latency under a human load.
 *
 * Where the CPU went during the load: the server's serving processes, its derivation child,
 * the load generator (this process) and other programs on the machine (bench/lib/cpu.ts).
 * Then, in the same run, --bare-duration seconds (default 15; 0: none) of the bare route
 * (lib/server/ops/bench-bare.ts: Next, a JSON body and one SQLite transaction, nothing of lexgold's)
 * at the same concurrency: saves per second are printed as a share of its requests per second
 * (target ≥ 0.6 at --think 0), which carries across machines where saves/s alone do not. A second
 * bare phase at a path shaped like the save's, with the save's session check, shows what those
 * add; and the coordinator's requests and a page load, each timed alone afterwards, show what the
 * mix adds to the CPU per save.
 *
 * Crowd mode (issue #32; bench/lib/crowd.ts, crowd-run.ts, crowd-seed.ts, crowd-check.ts):
 *
 *   npm run load -- --crowd [--participants 300] [--join-within 60] [--batch 10] [--overlap 3]
 *                   [--minutes 4] [--think 15] [--abandon 0.1] [--resume 0.05] [--instances 100000]
 *                   [--open N] [--build] [--keep] [--json FILE]
 *
 * A Prolific study (batch N, overlap K, M minutes) on a project of --instances instances, of which
 * all but --open already hold their K answers from earlier participants (default: as many open as
 * the run's participants fill, participants × batch / K, so that every instance ends at K). The
 * participants arrive spread over --join-within seconds, each from an address of their own, and do
 * what the browser does: the study link with PROLIFIC_PID, STUDY_ID and SESSION_ID; the join through
 * next-auth (csrf, POST /api/auth/callback/study with the token, the link's query as JSON and consent
 * "yes", the session); the workspace; their batch, one item per think time (uniform in ⅔–4⁄3 of
 * --think seconds), each save's answer naming the next; the completion screen, which must show the
 * study's code. A share --abandon leave after a few items; once their batches are past --minutes,
 * as many replacements join and get the released places. A share --resume of the others arrive
 * again by the link partway and must resume the same account and batch. A batch must fit in the
 * study's minutes (batch × think × 4⁄3 < minutes × 60, else a warning). Afterwards, in the database:
 * every acknowledged save present exactly once; no instance with more than K answers; every instance
 * whose places were all given out and answered has exactly K answers from distinct participants;
 * no one answered an instance twice or outside their batch; one participant per Prolific id; then
 * joins p50/p99 (target < 300 ms), saves p50/p99 (target < 150 ms), errors, how many instances
 * reached K (target: all), each with PASS/MISS. (Each option also as LOAD_PARTICIPANTS,
 * LOAD_JOIN_WITHIN, LOAD_BATCH, LOAD_OVERLAP, LOAD_MINUTES, LOAD_ABANDON, LOAD_RESUME, LOAD_OPEN.)
 *
 * Before that, on studies of their own (issue #38; bench/lib/crowd-phases.ts), an annotator of the
 * project saves every --pace ms (250) alone, then during a re-join flood — one participant's own
 * browser re-joining over --flood-connections (16) at --flood-rate a second (14) for --during (120)
 * saves — and during a burst of joins — --burst participants (300) joining within --burst-within
 * seconds (25) from --burst-addresses addresses (30), each as the browser does it, up to their
 * workspace: the annotator's save p99 during each (target < 150 ms).
 *
 *   npm run load -- --crowd [--only flood|burst|crowd] [--pace 250] [--during 120]
 *                   [--flood-connections 16] [--flood-rate 14] [--burst 300] [--burst-within 25] [--burst-addresses 30]
 */
import fs from "node:fs";
import os from "node:os";
import { loadFigures, loadReport, loadTargets } from "./lib/figures";
import { coordinatorCandidates, initialStates, mergeRecords, preflight, probeCoordinatorRequests, runLoad, timedGet } from "./lib/load-run";
import { runBare, type BareFigures } from "./lib/bare";
import { cpuDelta, cpuSnapshot, formatCpuUse, type CpuUse } from "./lib/cpu";
import { crowdMain } from "./lib/crowd";
import { flag, numberArg, runTag, setUp, stringArg } from "./lib/setup";
import { checkSaves, integrityCheck } from "./lib/verify";

const log = (s: string) => process.stderr.write(s + "\n");

async function main(): Promise<number> {
  if (flag("crowd")) return crowdMain(log);
  const durationSec = numberArg("duration", "LOAD_DURATION", 60);
  const annotatorCount = numberArg("annotators", "LOAD_ANNOTATORS", 50);
  const instanceCount = numberArg("instances", "LOAD_INSTANCES", 2000);
  const thinkSec = numberArg("think", "LOAD_THINK", 5);
  const exportEvery = numberArg("export-every", "LOAD_EXPORT_EVERY", 5);
  // The workspace itself never reloads: a page load is a new visit or a reload, which a
  // person does now and then, not every few instances (50 moves ≈ 4 minutes at 5 s each).
  const pageEvery = numberArg("page-every", "LOAD_PAGE_EVERY", 50);
  const jsonOut = stringArg("json", "LOAD_JSON", "");
  // Issue #14: --prefill K has K more annotators answer every instance first (100,000 × 5 for gold and
  // agreement); --coordinator-only "agreement page" keeps only that request, so with --export-every 0.1 the
  // coordinator reloads the Agreement page as soon as the last one answered — after the annotators' saves
  // in between, each a recompute.
  const prefill = numberArg("prefill", "LOAD_PREFILL", 0);
  const coordinatorOnly = stringArg("coordinator-only", "LOAD_COORDINATOR_ONLY", "");
  const bareSec = numberArg("bare-duration", "LOAD_BARE_DURATION", 15);

  const rig = await setUp({ annotators: annotatorCount, instances: instanceCount, log, prefill, bareRoute: bareSec > 0 });
  try {
    const { present, absent } =
      exportEvery > 0
        ? await probeCoordinatorRequests(
            rig.server.base,
            rig.coordinatorCookie,
            coordinatorCandidates(rig.seeded.projectId).filter((q) => !coordinatorOnly || q.name === coordinatorOnly),
          )
        : { present: [], absent: [] };
    if (exportEvery > 0) log(`coordinator requests: ${present.map((q) => q.name).join(", ")}${absent.length ? ` (not in this build: ${absent.join(", ")})` : ""}`);

    const states = initialStates(rig.annotators, rig.seeded.instanceRefs.length);
    const common = {
      base: rig.server.base,
      projectId: rig.seeded.projectId,
      instanceRefs: rig.seeded.instanceRefs,
      heads: rig.seeded.heads,
      pageLoadEvery: pageEvery,
      reviseShare: 0.2,
      runTag: runTag(),
      timeoutSec: 10,
    };
    const pre = await preflight(states[0], { ...common, durationSec: 1, thinkSec: 0.3, coordinator: null });
    // Which way the server answers saves (lib/server/annotate/save-request.ts): A/B runs set the variable.
    const beforeNext = process.env.LEXGOLD_SAVE_BEFORE_NEXT?.trim() !== "0";
    log(
      `preflight: a save through the save route was acknowledged (revision ${pre.acked[0]?.revision}); saves are served ` +
        (beforeNext ? "by the HTTP server before Next (LEXGOLD_SAVE_BEFORE_NEXT=0: through Next)" : "through Next (LEXGOLD_SAVE_BEFORE_NEXT=0)"),
    );

    log(
      `load: ${annotatorCount} annotators, ${thinkSec > 0 ? `thinking ~${thinkSec} s per instance` : "saving as fast as answered"}, for ${durationSec} s, ` +
        `a full page load every ${pageEvery} moves, coordinator every ${exportEvery} s …`,
    );
    const cpuBefore = cpuSnapshot(rig.server.pid);
    const loadBefore = os.loadavg()[0];
    const main = await runLoad(states, {
      ...common,
      durationSec,
      thinkSec,
      coordinator: exportEvery > 0 ? { cookie: rig.coordinatorCookie, everySec: exportEvery, requests: present } : null,
    });
    const cpu = cpuDelta(cpuBefore, cpuSnapshot(rig.server.pid));
    const cpuMs = cpu === null ? null : cpu.parts.server + cpu.parts.derivation + cpu.parts["server, other"];
    const loadAfter = os.loadavg()[0];

    let bare: (BareFigures & { cpu: CpuUse | null }) | null = null;
    let bareShaped: (BareFigures & { cpu: CpuUse | null }) | null = null;
    if (bareSec > 0) {
      log(`bare route: ${annotatorCount} connections, as fast as answered, for ${bareSec} s …`);
      let before = cpuSnapshot(rig.server.pid);
      const b = await runBare(rig.server.base, annotatorCount, bareSec);
      bare = { ...b, cpu: cpuDelta(before, cpuSnapshot(rig.server.pid)) };
      // The same at a path shaped like the save's, with the save's session check: what those add.
      log(`bare route at the save's path, with the session check, for ${bareSec} s …`);
      before = cpuSnapshot(rig.server.pid);
      const shaped = await runBare(rig.server.base, annotatorCount, bareSec, `/api/bench/bare/${rig.seeded.projectId}/${rig.seeded.instanceRefs[0]}`, rig.annotators[0].cookie);
      bareShaped = { ...shaped, cpu: cpuDelta(before, cpuSnapshot(rig.server.pid)) };
    }
    // What the load's other requests cost, each alone on the quiet server: the coordinator's (once
    // each, as in a round of the load: the data changed since the last round, so derivations are
    // fresh) and a workspace page load (5 times). With these the saves' own CPU can be told apart
    // from the mix's: the coordinator's rounds cost the same whatever the save rate, so on a slower
    // machine they are a larger share of the CPU per save.
    const alone: Array<{ name: string; n: number; wallMs: number; serverMs: number; deriveMs: number }> = [];
    const measureAlone = async (name: string, n: number, once: () => Promise<unknown>) => {
      const before = cpuSnapshot(rig.server.pid);
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await once();
      const wallMs = (performance.now() - t0) / n;
      const d = cpuDelta(before, cpuSnapshot(rig.server.pid));
      alone.push({ name, n, wallMs, serverMs: d ? (d.parts.server + d.parts["server, other"]) / n : NaN, deriveMs: d ? d.parts.derivation / n : NaN });
    };
    if (cpu) {
      for (const q of present) await measureAlone(q.name, 1, () => timedGet(rig.server.base, q, rig.coordinatorCookie, 120_000));
      const page = { name: "workspace page load", path: `/annotate/${rig.seeded.projectId}/${rig.seeded.instanceRefs[0]}`, export: false };
      if (pageEvery > 0) await measureAlone(page.name, 5, () => timedGet(rig.server.base, page, rig.annotators[0].cookie, 60_000));
    }
    await rig.server.stop();

    const integrity = integrityCheck(rig.dbFile);
    const acks = checkSaves(rig.dbFile, rig.seeded.projectId, mergeRecords([pre, main]).acked);
    const figures = loadFigures(main, new Set(present.filter((q) => q.export).map((q) => q.name)), acks);
    // The preflight's save is checked with the rest; the figures are the load's own.
    process.stdout.write(
      `\nload: ${annotatorCount} annotators, ${instanceCount} instances, ${thinkSec ? `a save every ~${thinkSec} s each` : "saving as fast as answered"}, ${durationSec} s\n` +
        loadReport(figures) +
        `\nintegrity_check: ${integrity}; acknowledged saves checked ${acks.acknowledged}, present once ${acks.present}\n` +
        `server CPU during the load: ${cpuMs === null ? "unknown (no /proc)" : `${(cpuMs / 1000).toFixed(1)} s, ${(cpuMs / Math.max(1, figures.savesAcked)).toFixed(2)} ms per acknowledged save (page loads and exports included)`}\n` +
        (cpu ? `where the CPU went during the load (per acknowledged save):\n${formatCpuUse(cpu, figures.savesAcked, "save")}\n` : "") +
        `load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on ${os.cpus().length} cores\n`,
    );
    // The saves' own share: the server's CPU less what the coordinator's requests and the page loads
    // cost alone, times how many of each the load made.
    let savesOwnMs: number | null = null;
    if (cpu && alone.length > 0) {
      const costOf = (name: string) => alone.find((a) => a.name === name);
      let others = 0;
      const lines: string[] = [];
      for (const [name, n] of [...new Set(main.exports.map((e) => e.name))].map((k) => [k, main.exports.filter((e) => e.name === k).length] as const)) {
        const c = costOf(name);
        if (!c) continue;
        others += n * (c.serverMs + c.deriveMs);
        lines.push(`  ${name.padEnd(28)} ${c.wallMs.toFixed(0).padStart(6)} ms wall, CPU ${c.serverMs.toFixed(0).padStart(5)} ms serving + ${c.deriveMs.toFixed(0).padStart(5)} ms derivation; ${n} in the load`);
      }
      const page = costOf("workspace page load");
      if (page) {
        others += main.pages.length * (page.serverMs + page.deriveMs);
        lines.push(`  ${page.name.padEnd(28)} ${page.wallMs.toFixed(0).padStart(6)} ms wall, CPU ${page.serverMs.toFixed(1).padStart(5)} ms serving (mean of ${page.n}); ${main.pages.length} in the load`);
      }
      savesOwnMs = ((cpuMs ?? 0) - others) / Math.max(1, figures.savesAcked);
      process.stdout.write(
        `\nthe load's other requests, each alone afterwards (server CPU from /proc, 10 ms ticks):\n${lines.join("\n")}\n` +
          `server CPU per save without them (estimate): ${savesOwnMs.toFixed(2)} ms (${(others / 1000).toFixed(1)} s of the load's ${((cpuMs ?? 0) / 1000).toFixed(1)} s were theirs)\n`,
      );
    }
    const savesPerSec = figures.savesPerSec;
    const ratio = bare && bare.requestsPerSec > 0 ? savesPerSec / bare.requestsPerSec : null;
    if (bare) {
      const bareMs = bare.cpu ? (bare.cpu.parts.server + bare.cpu.parts.derivation + bare.cpu.parts["server, other"]) / Math.max(1, bare.answered) : null;
      if (bareMs !== null && savesOwnMs !== null && savesOwnMs > 0) {
        process.stdout.write(`server CPU per bare request / per save without the others: ${bareMs.toFixed(2)} / ${savesOwnMs.toFixed(2)} ms = ${(bareMs / savesOwnMs).toFixed(2)}\n`);
      }
      process.stdout.write(
        `\nbare route (Next, a JSON body, one SQLite transaction; ${annotatorCount} connections, ${bare.seconds.toFixed(0)} s): ` +
          `${bare.requestsPerSec.toFixed(1)} requests/s (${bare.answered} answered, ${bare.non2xx} not 2xx, ${bare.errors} errors), p50 / p99 ${bare.p50Ms} / ${bare.p99Ms} ms\n` +
          (bare.cpu ? `${formatCpuUse(bare.cpu, bare.answered, "request")}\n` : "") +
          (ratio === null
            ? "saves/s as a share of the bare route's requests/s: unknown (the bare route answered nothing)\n"
            : `saves/s as a share of the bare route's requests/s: ${savesPerSec.toFixed(1)} / ${bare.requestsPerSec.toFixed(1)} = ${ratio.toFixed(2)}` +
              (thinkSec === 0 ? `  (target ≥ 0.6: ${ratio >= 0.6 ? "PASS" : "MISS"})` : " (a share of capacity only at --think 0)") +
              "\n"),
      );
      if (bareShaped) {
        const shapedMs = bareShaped.cpu ? (bareShaped.cpu.parts.server + bareShaped.cpu.parts.derivation + bareShaped.cpu.parts["server, other"]) / Math.max(1, bareShaped.answered) : null;
        process.stdout.write(
          `bare route at the save's path with the session check: ${bareShaped.requestsPerSec.toFixed(1)} requests/s (${bareShaped.answered} answered, ${bareShaped.non2xx} not 2xx, ${bareShaped.errors} errors)` +
            (shapedMs === null ? "" : `, server CPU ${shapedMs.toFixed(2)} ms per request`) +
            `; ${(bareShaped.requestsPerSec / Math.max(0.001, bare.requestsPerSec)).toFixed(2)} of the bare route's requests/s\n`,
        );
      }
    }
    const firstFailure = main.saves.find((s) => s.outcome === "failed" || s.outcome === "refused");
    if (firstFailure) process.stdout.write(`first failed save: ${firstFailure.outcome} ${firstFailure.message}\n`);
    const targets = loadTargets(figures);
    const ok = integrity === "ok" && targets.every((t) => t.pass !== false);
    if (jsonOut) {
      fs.writeFileSync(
        jsonOut,
        JSON.stringify(
          { annotators: annotatorCount, instances: instanceCount, thinkSec, durationSec, pageEvery, exportEvery, integrity, figures, targets, serverCpuMs: cpuMs, cpu, bare, bareShaped, savesPerSec, bareRatio: ratio, alone, savesOwnMs, loadavg: [loadBefore, loadAfter] },
          null,
          2,
        ),
      );
    }
    return ok ? 0 : 1;
  } catch (e) {
    log(`server output (last lines):\n${rig.server.tail()}`);
    throw e;
  } finally {
    await rig.cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  },
);
