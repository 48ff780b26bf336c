/**
 * `npm run load -- --crowd`: the crowd run (issue #32). The load test's rig (./setup.ts: a throw-away
 * database, the production server from a build) with a Prolific study on a 100,000-instance project,
 * participants arriving by its link at a human pace (./crowd-run.ts), then the database checked: every
 * acknowledged save there exactly once (./acks.ts), balanced overlap (./crowd-check.ts). First, on
 * studies of their own, another annotator's saves during a re-join flood and during a burst of joins
 * (./crowd-phases.ts, issue #38); `--only flood`, `--only burst` or `--only crowd` runs one part.
 * Options and what they mean: bench/load.ts's header.
 */
import fs from "node:fs";
import os from "node:os";
import { lostAndDoubled } from "./acks";
import { checkOverlap, crowdRows, participantStates, type CrowdCheck } from "./crowd-check";
import { type CrowdRecords, planParticipants, probeStudyPage, runCrowd } from "./crowd-run";
import { openCrowdStudy, prolificId } from "./crowd-seed";
import { crowdPhases, type PhaseFigures, phaseReport } from "./crowd-phases";
import { cpuDelta, cpuSnapshot, formatCpuUse } from "./cpu";
import { table, verdict, type TargetRow } from "./figures";
import { numberArg, runTag, setUp, stringArg } from "./setup";
import { type LatencySummary, summarize } from "./stats";
import { checkSaves, integrityCheck } from "./verify";

interface CrowdFigures {
  participants: number;
  replacements: number;
  joins: { count: number; failed: number; whole: LatencySummary; callback: LatencySummary; resumes: number };
  saves: { sent: number; acked: number; refused: number; failed: number; unanswered: number; latency: LatencySummary };
  pages: Array<{ name: string; count: number; errors: number; latency: LatencySummary }>;
  people: { finished: number; completionShown: number; abandoned: number; noBatch: number; resumedSame: number; resumedOther: number; stoppedByError: number };
  errors: number;
  lost: number;
  doubled: number;
  overlap: CrowdCheck;
  open: number;
  openReachedK: number;
}

function crowdFigures(rec: CrowdRecords, lostDoubled: { lost: number; doubled: number }, overlap: CrowdCheck, open: { count: number; reachedK: number }): CrowdFigures {
  const joins = rec.joins;
  const okJoins = joins.filter((j) => j.ok);
  const answered = rec.saves.filter((s) => s.outcome !== "unanswered");
  const count = (o: string) => rec.saves.filter((s) => s.outcome === o).length;
  const pageNames = [...new Set(rec.pages.map((p) => p.name))];
  const pages = pageNames.map((name) => {
    const list = rec.pages.filter((p) => p.name === name);
    return { name, count: list.length, errors: list.filter((p) => !p.ok).length, latency: summarize(list.map((p) => p.end - p.start)) };
  });
  const o = rec.outcomes;
  const stoppedByError = o.filter((x) => x.stoppedBy && x.stoppedBy !== "abandoned").length;
  const saveErrors = count("refused") + count("failed") + count("unanswered");
  return {
    participants: o.filter((x) => x.role !== "replacement").length,
    replacements: o.filter((x) => x.role === "replacement").length,
    joins: {
      count: joins.length,
      failed: joins.length - okJoins.length,
      whole: summarize(okJoins.map((j) => j.end - j.start)),
      callback: summarize(okJoins.map((j) => j.callbackMs)),
      resumes: joins.filter((j) => j.kind === "resume").length,
    },
    saves: { sent: rec.saves.length, acked: count("acked"), refused: count("refused"), failed: count("failed"), unanswered: count("unanswered"), latency: summarize(answered.map((s) => s.end - s.start)) },
    pages,
    people: {
      finished: o.filter((x) => x.finished).length,
      completionShown: o.filter((x) => x.completionShown).length,
      abandoned: o.filter((x) => x.stoppedBy === "abandoned").length,
      noBatch: o.filter((x) => x.noBatch).length,
      resumedSame: o.filter((x) => x.resumedSame === true).length,
      resumedOther: o.filter((x) => x.resumedSame === false).length,
      stoppedByError,
    },
    // A participant stopped by an error is counted once, by the request that failed.
    errors: joins.length - okJoins.length + saveErrors + pages.reduce((n, p) => n + p.errors, 0) + o.filter((x) => x.resumedSame === false).length,
    ...lostDoubled,
    overlap,
    open: open.count,
    openReachedK: open.reachedK,
  };
}

function phaseTargets(f: PhaseFigures): TargetRow[] {
  const rows: TargetRow[] = [];
  if (f.flood) rows.push({ figure: "another annotator's save p99 during a re-join flood", value: `${f.flood.saves.p99.toFixed(1)} ms`, target: "< 150 ms", pass: f.flood.saves.count > 0 && f.flood.saves.p99 < 150 });
  if (f.burst) {
    const b = f.burst;
    rows.push(
      { figure: `another annotator's save p99 during ${b.participants} joins in ${b.withinSec} s`, value: `${b.saves.p99.toFixed(1)} ms`, target: "< 150 ms", pass: b.saves.count > 0 && b.saves.p99 < 150 },
      { figure: "joins of the burst stopped by an error", value: String(b.failed), target: "0", pass: b.failed === 0 },
    );
  }
  return rows;
}

function crowdTargets(f: CrowdFigures): TargetRow[] {
  const c = f.overlap;
  const K = "K";
  return [
    { figure: "p99 join (POST /api/auth/callback/study)", value: `${f.joins.callback.p99.toFixed(1)} ms`, target: "< 300 ms", pass: f.joins.callback.count > 0 && f.joins.callback.p99 < 300 },
    { figure: "p99 join as the browser waits (csrf + callback + session)", value: `${f.joins.whole.p99.toFixed(1)} ms`, target: "< 300 ms", pass: f.joins.whole.count > 0 && f.joins.whole.p99 < 300 },
    { figure: "p99 save latency", value: `${f.saves.latency.p99.toFixed(1)} ms`, target: "< 150 ms", pass: f.saves.latency.count > 0 && f.saves.latency.p99 < 150 },
    { figure: "errors (joins, saves, pages, resumes)", value: String(f.errors), target: "0", pass: f.errors === 0 },
    { figure: "acknowledged saves lost", value: String(f.lost), target: "0", pass: f.lost === 0 },
    { figure: "acknowledged saves doubled", value: String(f.doubled), target: "0", pass: f.doubled === 0 },
    { figure: `instances with more than ${K} answers`, value: String(c.overK.length), target: "0", pass: c.overK.length === 0 },
    {
      figure: `places all given and answered: exactly ${K} from distinct participants`,
      value: `${c.exactlyK} of ${c.allAnswered}`,
      target: "all",
      pass: c.notExactlyK.length === 0,
    },
    { figure: "a participant answering an instance twice or outside their batch", value: String(c.twice + c.outsideBatch + c.itemTwice), target: "0", pass: c.twice + c.outsideBatch + c.itemTwice === 0 },
    { figure: "places counted ≠ places held", value: String(c.takenMismatch.length), target: "0", pass: c.takenMismatch.length === 0 },
    { figure: "one participant per Prolific id", value: `${c.platformIdTwice} ids twice`, target: "0", pass: c.platformIdTwice === 0 },
    { figure: `every instance with exactly ${K} answers`, value: `${c.reachedK} of ${c.instances} (open at the start: ${f.openReachedK} of ${f.open})`, target: "all", pass: c.reachedK === c.instances },
  ];
}

function crowdReport(f: CrowdFigures): string {
  const l = (s: LatencySummary) => `p50 ${s.p50.toFixed(1)}  p95 ${s.p95.toFixed(1)}  p99 ${s.p99.toFixed(1)}  max ${s.max.toFixed(1)} ms`;
  const p = f.people;
  return [
    `participants: ${f.participants} + ${f.replacements} replacements; finished ${p.finished} (completion code shown ${p.completionShown}), abandoned ${p.abandoned}, no place left ${p.noBatch}, stopped by an error ${p.stoppedByError}`,
    `joins: ${f.joins.count} (${f.joins.resumes} arriving again), failed ${f.joins.failed}; arrived again as the same account ${p.resumedSame}, as another ${p.resumedOther}`,
    `  the callback (join and batch): ${l(f.joins.callback)}`,
    `  as the browser waits (csrf + callback + session): ${l(f.joins.whole)}`,
    `saves: ${f.saves.acked} acknowledged of ${f.saves.sent}; refused ${f.saves.refused}, failed ${f.saves.failed}, unanswered ${f.saves.unanswered}`,
    `  latency ${l(f.saves.latency)}`,
    ...f.pages.map((g) => `${g.name}: ${g.count}, errors ${g.errors}; ${l(g.latency)}`),
    `overlap: ${f.overlap.instances} instances, ${f.overlap.reachedK} with K answers; places all given ${f.overlap.placesAllGiven}, all answered ${f.overlap.allAnswered}`,
    "",
    table(
      ["figure", "value", "target", "result"],
      crowdTargets(f).map((t) => [t.figure, t.value, t.target, verdict(t.pass)]),
    ),
  ].join("\n");
}

export async function crowdMain(log: (s: string) => void): Promise<number> {
  const only = stringArg("only", "LOAD_ONLY", "");
  if (only && !["flood", "burst", "crowd"].includes(only)) {
    log("--only takes flood, burst or crowd");
    return 2;
  }
  const part = (name: string) => !only || only === name;
  const participants = numberArg("participants", "LOAD_PARTICIPANTS", 300);
  const joinWithin = numberArg("join-within", "LOAD_JOIN_WITHIN", 60);
  const batch = numberArg("batch", "LOAD_BATCH", 10);
  const overlap = numberArg("overlap", "LOAD_OVERLAP", 3);
  const minutes = numberArg("minutes", "LOAD_MINUTES", 4);
  const thinkSec = numberArg("think", "LOAD_THINK", 15);
  const abandon = numberArg("abandon", "LOAD_ABANDON", 0.1);
  const resume = numberArg("resume", "LOAD_RESUME", 0.05);
  const instances = numberArg("instances", "LOAD_INSTANCES", 100_000);
  // The instances still short of K answers when the run starts (the rest hold theirs from earlier
  // participants): by default as many as the run's participants fill, so that every instance ends at K.
  const open = numberArg("open", "LOAD_OPEN", Math.floor((participants * batch) / Math.max(1, overlap)));
  const jsonOut = stringArg("json", "LOAD_JSON", "");
  if (!(batch >= 1 && overlap >= 1 && minutes >= 1 && Number.isInteger(batch) && Number.isInteger(overlap) && Number.isInteger(minutes))) {
    log("--batch, --overlap and --minutes need whole numbers ≥ 1");
    return 2;
  }
  // An honest participant's whole batch must fit in the study's minutes, or it expires under them.
  const longestBatchSec = batch * thinkSec * (4 / 3) + 10;
  if (longestBatchSec >= minutes * 60) log(`warning: a batch can take ${longestBatchSec.toFixed(0)} s at --think ${thinkSec}, longer than --minutes ${minutes}: finishers will time out`);
  // Replacements come once every abandoned batch has expired (the last joined at --join-within).
  const replaceAfterSec = joinWithin + minutes * 60 + 5;
  const replaceWithinSec = Math.max(1, Math.min(30, joinWithin / 2));

  // One annotator: the one whose saves the phases time.
  const rig = await setUp({ annotators: 1, instances, log, serverEnv: { LEXGOLD_TRUSTED_PROXY: "127.0.0.1" } });
  try {
    let phases: PhaseFigures | null = null;
    if (part("flood") || part("burst")) {
      const loadBefore = os.loadavg()[0];
      phases = await crowdPhases(rig, { flood: part("flood"), burst: part("burst") }, log);
      const rows = phaseTargets(phases);
      process.stdout.write(
        `\ncrowd phases: ${new Date().toISOString()}, load average (1 min) ${loadBefore.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after, on ${os.cpus().length} cores\n` +
          phaseReport(phases) +
          "\n\n" +
          table(["figure", "value", "target", "result"], rows.map((t) => [t.figure, t.value, t.target, verdict(t.pass)])) +
          "\n",
      );
      if (jsonOut && !part("crowd")) fs.writeFileSync(jsonOut, JSON.stringify({ phases, targets: rows }, null, 2));
      if (!part("crowd")) return rows.every((x) => x.pass !== false) ? 0 : 1;
    }
    let t = performance.now();
    const study = await openCrowdStudy(rig.dbFile, rig.seeded.projectId, { batchSize: batch, overlap, minutes, open });
    log(
      `study ${study.studyId} opened on ${study.instances} instances (batch ${batch}, overlap ${overlap}, ${minutes} min); ` +
        `${study.prefilled} already at ${overlap} answers from ${study.earlierParticipants} earlier participants, ${study.instances - study.prefilled} open, in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const studyPage = await probeStudyPage(rig.server.base, study.token);
    if (!studyPage) log("the study page (/study/<token>) is not in this build: participants join without loading it");
    const plans = planParticipants({ participants, joinWithinSec: joinWithin, batch, abandon, resume, replaceAfterSec, replaceWithinSec, seed: 3200 });
    const replacements = plans.filter((p) => p.role === "replacement").length;
    log(
      `crowd: ${participants} participants joining within ${joinWithin} s, thinking ${(thinkSec * 2 / 3).toFixed(0)}–${(thinkSec * 4 / 3).toFixed(0)} s per item; ` +
        `${replacements} abandon partway and as many replacements join from ${replaceAfterSec} s …`,
    );
    const headOf = new Map(rig.seeded.instanceRefs.map((ref, i) => [ref, rig.seeded.heads[i]]));
    const startedAt = Date.now();
    const loads: number[] = [];
    const sampler = setInterval(() => loads.push(os.loadavg()[0]), 5000);
    const cpuBefore = cpuSnapshot(rig.server.pid);
    const loadBefore = os.loadavg()[0];
    t = performance.now();
    const rec = await runCrowd(plans, {
      base: rig.server.base,
      projectId: rig.seeded.projectId,
      token: study.token,
      prolificStudyId: prolificId(0xabc),
      completionCode: study.completionCode,
      studyPage,
      thinkSec,
      runTag: runTag(),
      timeoutMs: 15_000,
      headOf,
    });
    clearInterval(sampler);
    const cpu = cpuDelta(cpuBefore, cpuSnapshot(rig.server.pid));
    const loadAfter = os.loadavg()[0];
    log(`the crowd ran ${((performance.now() - t) / 1000).toFixed(0)} s`);
    await rig.server.stop();

    const integrity = integrityCheck(rig.dbFile);
    const acks = checkSaves(rig.dbFile, rig.seeded.projectId, rec.acked);
    const rows = crowdRows(rig.dbFile, study.studyId);
    const check = checkOverlap(rows);
    const openRefs = new Set(study.openRefs);
    const perRef = new Map<number, number>();
    for (const a of rows.answers) if (openRefs.has(a.ref)) perRef.set(a.ref, (perRef.get(a.ref) ?? 0) + 1);
    const openReachedK = [...openRefs].filter((r) => perRef.get(r) === overlap).length;
    const figures = crowdFigures(rec, lostAndDoubled(acks), check, { count: openRefs.size, reachedK: openReachedK });
    const states = participantStates(rig.dbFile, study.studyId, startedAt);
    const mean = loads.length ? loads.reduce((a, b) => a + b, 0) / loads.length : loadAfter;
    const savesAcked = Math.max(1, figures.saves.acked);
    process.stdout.write(
      `\ncrowd: ${participants} participants (+${replacements}) on ${study.instances} instances, batch ${batch}, overlap ${overlap}, ${minutes} min, think ~${thinkSec} s, ${((rec.endedAt - rec.startedAt) / 1000).toFixed(0)} s\n` +
        crowdReport(figures) +
        `\nparticipants in the database by state: ${Object.entries(states).map(([k, v]) => `${k} ${v}`).join(", ")}\n` +
        `integrity_check: ${integrity}; acknowledged saves checked ${acks.acknowledged}, present once ${acks.present}\n` +
        (cpu ? `where the CPU went during the run (per acknowledged save):\n${formatCpuUse(cpu, savesAcked, "save")}\n` : "") +
        `load average (1 min) ${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, mean ${mean.toFixed(1)} and max ${Math.max(loadAfter, ...loads).toFixed(1)} during, on ${os.cpus().length} cores\n`,
    );
    const firstStop = rec.outcomes.find((o) => o.stoppedBy && o.stoppedBy !== "abandoned");
    if (firstStop) process.stdout.write(`first participant stopped by an error: #${firstStop.index} (${firstStop.role}): ${firstStop.stoppedBy}\n`);
    if (check.notExactlyK.length || check.overK.length) process.stdout.write(`instances off K (first ten): ${[...check.overK, ...check.notExactlyK].slice(0, 10).join(", ")}\n`);
    const targets = [...crowdTargets(figures), ...(phases ? phaseTargets(phases) : [])];
    if (jsonOut) {
      const { overK, notExactlyK, takenMismatch, ...counts } = check;
      fs.writeFileSync(
        jsonOut,
        JSON.stringify(
          {
            participants,
            replacements,
            instances: study.instances,
            open: study.instances - study.prefilled,
            batch,
            overlap,
            minutes,
            thinkSec,
            joinWithin,
            integrity,
            figures: { ...figures, overlap: { ...counts, overK: overK.length, notExactlyK: notExactlyK.length, takenMismatch: takenMismatch.length } },
            targets,
            states,
            phases,
            cpu,
            loadavg: { before: loadBefore, after: loadAfter, mean, max: Math.max(loadAfter, ...loads), every5s: loads },
            // Each request's times (ms after the run's start), for figures by phase.
            requests: {
              joins: rec.joins.map((j) => ({ at: j.start - rec.startedAt, ms: j.end - j.start, callbackMs: j.callbackMs, ok: j.ok, kind: j.kind })),
              saves: rec.saves.map((x) => ({ at: x.start - rec.startedAt, ms: x.end - x.start, outcome: x.outcome })),
              pages: rec.pages.map((x) => ({ name: x.name, at: x.start - rec.startedAt, ms: x.end - x.start, ok: x.ok })),
            },
          },
          null,
          2,
        ),
      );
    }
    return integrity === "ok" && targets.every((x) => x.pass !== false) ? 0 : 1;
  } catch (e) {
    log(`server output (last lines):\n${rig.server.tail()}`);
    throw e;
  } finally {
    await rig.cleanup();
  }
}
