/**
 * Crash test (issue #6): `npm run crash-test`.
 *
 * The load of `npm run load` (annotators saving and moving on, the coordinator
 * exporting) against the production server, killed with SIGKILL at random
 * moments — several times while a lexelt XML import is running through the
 * upload route — and restarted on the same database. After every restart:
 * PRAGMA integrity_check is ok, every save acknowledged before any kill so far
 * is stored exactly once, and every import attempted is wholly present (one
 * imports row and all its instances) or wholly absent, and present when the
 * route acknowledged it.
 *
 *   npm run crash-test -- [--kills N] [--annotators N] [--instances N] [--think S]
 *                         [--min-run S] [--max-run S] [--import-instances N] [--seed N] [--build] [--keep] [--json FILE]
 */
import { setMaxListeners } from "node:events";
import fs from "node:fs";
import { lostAndDoubled } from "./lib/acks";
import { lexeltXml } from "./lib/corpus";
import { table, verdict } from "./lib/figures";
import { type LoadRecords, coordinatorCandidates, initialStates, mergeRecords, preflight, probeCoordinatorRequests, runLoad } from "./lib/load-run";
import { numberArg, runTag, setUp, stringArg } from "./lib/setup";
import { summarize } from "./lib/stats";
import { type ImportAttempt, checkImports, checkSaves, integrityCheck } from "./lib/verify";
import { mulberry32 } from "../lib/lexsub/agreement/bootstrap";

const log = (s: string) => process.stderr.write(s + "\n");

/** A small deterministic PRNG: lib's mulberry32 (the agreement bootstrap's). */
const prng = mulberry32;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface CycleResult {
  cycle: number;
  ranMs: number;
  killedDuringImport: boolean;
  acked: number;
  cut: number;
  restartMs: number;
  integrity: string;
  lost: number;
  doubled: number;
  importsPartial: number;
  ackedImportsMissing: number;
}

async function main(): Promise<number> {
  const kills = Math.max(5, numberArg("kills", "CRASH_KILLS", 6));
  const annotatorCount = numberArg("annotators", "LOAD_ANNOTATORS", 50);
  const instanceCount = numberArg("instances", "LOAD_INSTANCES", 2000);
  const thinkSec = numberArg("think", "LOAD_THINK", 5);
  const minRun = numberArg("min-run", "CRASH_MIN_RUN", 3);
  const maxRun = Math.max(minRun, numberArg("max-run", "CRASH_MAX_RUN", 10));
  const importInstances = numberArg("import-instances", "CRASH_IMPORT_INSTANCES", 4000);
  const seed = numberArg("seed", "CRASH_SEED", Date.now() % 1_000_000);
  const jsonOut = stringArg("json", "CRASH_JSON", "");
  const rand = prng(seed);

  const rig = await setUp({ annotators: annotatorCount, instances: instanceCount, log });
  const { server } = rig;
  try {
    const { present } = await probeCoordinatorRequests(server.base, rig.coordinatorCookie, coordinatorCandidates(rig.seeded.projectId));
    const states = initialStates(rig.annotators, rig.seeded.instanceRefs.length);
    const common = {
      base: server.base,
      projectId: rig.seeded.projectId,
      instanceRefs: rig.seeded.instanceRefs,
      heads: rig.seeded.heads,
      pageLoadEvery: 10,
      reviseShare: 0.2,
      runTag: runTag(),
      timeoutSec: 10,
    };
    const phases: LoadRecords[] = [await preflight(states[0], { ...common, durationSec: 1, thinkSec: 0.3, coordinator: null })];
    const imports: ImportAttempt[] = [];
    const cycles: CycleResult[] = [];
    let importMs: number | null = null;
    log(`crash test: ${kills} kills, seed ${seed}; each import ${importInstances} instances`);

    for (let cycle = 1; cycle <= kills; cycle++) {
      const abort = new AbortController();
      setMaxListeners(0, abort.signal); // one listener per annotator
      let killed = false;
      const started = performance.now();
      const load = runLoad(states, {
        ...common,
        durationSec: maxRun + 30,
        thinkSec,
        coordinator: { cookie: rig.coordinatorCookie, everySec: 5, requests: present },
        signal: abort.signal,
      });

      // An import during the run; on every other cycle (once its duration is known) the kill is aimed at it.
      const aimAtImport = importMs !== null && cycle % 2 === 0;
      const importDelay = aimAtImport ? 1000 + rand() * 1000 : rand() * (minRun * 1000);
      const runFor = minRun * 1000 + rand() * (maxRun - minRun) * 1000;
      const prefix = `c${cycle}x`;
      const attempt: ImportAttempt = {
        fileName: `crash-${cycle}.xml`,
        instanceIds: Array.from({ length: importInstances }, (_, k) => `${prefix}${k + 1}`),
        acknowledged: false,
      };
      imports.push(attempt);
      let importStart = 0;
      let importEnd = 0;
      const importRun = (async () => {
        await sleep(importDelay);
        const xml = lexeltXml({ lexelts: importInstances / 10, instancesPerLexelt: 10, idPrefix: prefix, seed: cycle });
        const form = new FormData();
        form.append("file", new Blob([xml], { type: "text/xml" }), attempt.fileName);
        importStart = performance.now();
        try {
          const res = await fetch(`${server.base}/api/projects/${rig.seeded.importProjectId}/import?wait=1`, {
            method: "POST",
            headers: { Cookie: rig.coordinatorCookie, Origin: server.base },
            body: form,
          });
          const body = (await res.json()) as { ok?: boolean; report?: { instancesAdded?: number }; message?: string };
          importEnd = performance.now();
          if (res.status === 200 && body.ok) attempt.acknowledged = true;
          else throw new Error(`import ${attempt.fileName}: HTTP ${res.status} ${body.message ?? ""}`);
        } catch (e) {
          if (killed) return; // cut by the kill: not acknowledged
          throw e;
        }
      })();
      let importError: unknown = null;
      const importDone = importRun.catch((e) => {
        importError = e;
      });

      let killedDuringImport = false;
      if (aimAtImport) {
        while (importStart === 0) await sleep(5);
        await sleep((0.1 + 0.8 * rand()) * importMs!);
      } else {
        await sleep(Math.max(0, runFor - (performance.now() - started)));
      }
      killedDuringImport = importStart > 0 && importEnd === 0;
      killed = true;
      await server.kill();
      const ranMs = performance.now() - started;
      abort.abort();
      const rec = await load;
      await importDone;
      if (importError) throw importError;
      if (!aimAtImport && attempt.acknowledged && importMs === null) importMs = importEnd - importStart;
      phases.push(rec);

      const restartMs = await server.start();
      const integrity = integrityCheck(rig.dbFile);
      const all = mergeRecords(phases);
      const acks = checkSaves(rig.dbFile, rig.seeded.projectId, all.acked);
      const { lost, doubled } = lostAndDoubled(acks);
      const importChecks = checkImports(rig.dbFile, rig.seeded.importProjectId, imports);
      const result: CycleResult = {
        cycle,
        ranMs,
        killedDuringImport,
        acked: rec.acked.length,
        cut: rec.saves.filter((s) => s.outcome === "cut").length,
        restartMs,
        integrity,
        lost,
        doubled,
        importsPartial: importChecks.filter((c) => c.state === "partial").length,
        ackedImportsMissing: importChecks.filter((c) => c.acknowledged && c.state !== "all").length,
      };
      cycles.push(result);
      const thisImport = importChecks[importChecks.length - 1];
      log(
        `kill ${cycle}: after ${(ranMs / 1000).toFixed(1)} s${killedDuringImport ? " (during an import)" : ""}; ` +
          `${result.acked} saves acknowledged, ${result.cut} in flight; import ${thisImport.acknowledged ? "acknowledged" : "not acknowledged"}, found ${thisImport.state}; ` +
          `restart ${(restartMs / 1000).toFixed(1)} s; integrity ${integrity}; lost ${lost}, doubled ${doubled}`,
      );
    }

    const all = mergeRecords(phases);
    const answeredWithError = all.saves.filter((s) => s.outcome === "failed" || s.outcome === "refused");
    const duringImportKills = cycles.filter((c) => c.killedDuringImport).length;
    const importChecks = checkImports(rig.dbFile, rig.seeded.importProjectId, imports);
    const restart = summarize(cycles.map((c) => c.restartMs));
    const rows: Array<{ figure: string; value: string; target: string; pass: boolean | null }> = [
      { figure: "SIGKILLs", value: `${cycles.length} (${duringImportKills} during an import)`, target: "≥ 5", pass: cycles.length >= 5 },
      { figure: "integrity_check after each restart", value: `${cycles.filter((c) => c.integrity === "ok").length}/${cycles.length} ok`, target: "all ok", pass: cycles.every((c) => c.integrity === "ok") },
      { figure: "acknowledged saves checked", value: String(all.acked.length), target: "-", pass: null },
      { figure: "acknowledged saves lost", value: String(Math.max(...cycles.map((c) => c.lost))), target: "0", pass: cycles.every((c) => c.lost === 0) },
      { figure: "acknowledged saves doubled", value: String(Math.max(...cycles.map((c) => c.doubled))), target: "0", pass: cycles.every((c) => c.doubled === 0) },
      {
        figure: "imports: complete / absent / half-written",
        value: `${importChecks.filter((c) => c.state === "all").length} / ${importChecks.filter((c) => c.state === "none").length} / ${importChecks.filter((c) => c.state === "partial").length}`,
        target: "0 half-written",
        pass: importChecks.every((c) => c.state !== "partial"),
      },
      {
        figure: "acknowledged imports missing",
        value: `${importChecks.filter((c) => c.acknowledged && c.state !== "all").length} of ${importChecks.filter((c) => c.acknowledged).length}`,
        target: "0",
        pass: importChecks.every((c) => !c.acknowledged || c.state === "all"),
      },
      { figure: "saves answered with an error (not by a kill)", value: String(answeredWithError.length), target: "0", pass: answeredWithError.length === 0 },
      { figure: "restart to first answer", value: `median ${(restart.p50 / 1000).toFixed(1)} s, max ${(restart.max / 1000).toFixed(1)} s`, target: "-", pass: null },
    ];
    process.stdout.write(
      `\ncrash test: ${annotatorCount} annotators, ${instanceCount} instances, ${thinkSec ? `a save every ~${thinkSec} s each` : "saving as fast as answered"}; seed ${seed}\n` +
        table(["figure", "value", "target", "result"], rows.map((r) => [r.figure, r.value, r.target, verdict(r.pass)])) +
        "\n",
    );
    if (answeredWithError[0]) process.stdout.write(`first save answered with an error: ${answeredWithError[0].message}\n`);
    if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ seed, cycles, rows }, null, 2));
    return rows.every((r) => r.pass !== false) ? 0 : 1;
  } catch (e) {
    log(`server output (last lines):\n${server.tail()}`);
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
