/**
 * Two phases of `npm run load -- --crowd` (issue #38, findings 4 and 9): what crowds do to another
 * annotator's saves. An annotator of the project saves at a fast human's pace (every --pace ms,
 * default 250) alone, then during
 *
 *  - a re-join flood: one participant's own browser (their cookie, their session) re-joining the
 *    study by the link over --flood-connections connections (default 16) at --flood-rate a second
 *    (default 14), as long as the annotator's --during saves take; the limits as configured
 *    (LEXGOLD_REJOIN_RATE and LEXGOLD_ADDRESS_REJOIN_RATE: most of the flood is refused early);
 *  - a burst of joins: --burst participants (default 300) joining within --burst-within seconds
 *    (default 25) from --burst-addresses addresses (default 30), each as the browser does it
 *    (bench/lib/crowd-run.ts: the study page, the join, the started page, the workspace and the
 *    first item's page), then leaving.
 *
 * Each phase has a study of its own on the load's project, so the main crowd run's checks are
 * untouched. Reports the annotator's save p50/p95/p99 alone and during each phase (target: p99
 * < 150 ms), and what the flood and the burst got.
 */
import { cookieHeader, mergeCookies } from "./auth";
import { planParticipants, runCrowd } from "./crowd-run";
import { openCrowdStudy, prolificId } from "./crowd-seed";
import { numberArg, runTag } from "./setup";
import type { Rig } from "./setup";
import { pacedSaver } from "./paced-saves";
import { type LatencySummary, summarize } from "./stats";

interface FloodFigures {
  connections: number;
  ratePerSec: number;
  seconds: number;
  /** Re-joins answered with a session (the participant's own browser resumes). */
  resumed: number;
  /** Refused by a re-join limit (the sentence "…arrived very often…"). */
  limited: number;
  /** Anything else (another refusal, an error). */
  other: number;
  saves: LatencySummary;
  refusedSaves: number;
}

interface BurstFigures {
  participants: number;
  withinSec: number;
  addresses: number;
  seconds: number;
  joined: number;
  failed: number;
  firstFailure: string | null;
  join: LatencySummary;
  /** The sign-in's POST alone. */
  callback: LatencySummary;
  /** Each page the participants loaded, by name. */
  pages: Array<{ name: string; latency: LatencySummary }>;
  saves: LatencySummary;
  refusedSaves: number;
}

export interface PhaseFigures {
  alone: LatencySummary;
  flood?: FloodFigures;
  burst?: BurstFigures;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

/** One participant's browser joins the study; its cookies (session, csrf, the participant's key) for re-joining. */
async function joinOnce(base: string, token: string, params: Record<string, string>, address: string): Promise<{ jar: Map<string, string>; csrfToken: string }> {
  const jar = new Map<string, string>();
  const csrfRes = await fetch(`${base}/api/auth/csrf`, { headers: { "X-Forwarded-For": address } });
  mergeCookies(jar, csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/study`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, Cookie: cookieHeader(jar), "X-Forwarded-For": address },
    body: new URLSearchParams({ token, params: JSON.stringify(params), consent: "yes", csrfToken, callbackUrl: `${base}/study/${token}`, json: "true" }),
  });
  mergeCookies(jar, res);
  await res.body?.cancel();
  if (![...jar.keys()].some((k) => k.endsWith("next-auth.session-token"))) throw new Error(`the flood's participant could not join (${res.status})`);
  return { jar, csrfToken };
}

async function floodPhase(rig: Rig, saver: ReturnType<typeof pacedSaver>, during: number, log: (s: string) => void): Promise<FloodFigures> {
  const connections = numberArg("flood-connections", "LOAD_FLOOD_CONNECTIONS", 16);
  const ratePerSec = numberArg("flood-rate", "LOAD_FLOOD_RATE", 14);
  const base = rig.server.base;
  const study = await openCrowdStudy(rig.dbFile, rig.seeded.projectId, { batchSize: 10, overlap: 3, minutes: 30, open: Number.MAX_SAFE_INTEGER });
  const params = { PROLIFIC_PID: prolificId(0xf100d), STUDY_ID: prolificId(0xabc), SESSION_ID: prolificId(0x5e55) };
  const address = "10.200.0.1";
  const { jar, csrfToken } = await joinOnce(base, study.token, params, address);
  const body = new URLSearchParams({ token: study.token, params: JSON.stringify(params), consent: "yes", csrfToken, callbackUrl: `${base}/study/${study.token}`, json: "true" }).toString();
  const counts = { resumed: 0, limited: 0, other: 0 };
  let stop = false;
  let slot = 0;
  const t0 = performance.now();
  // Each connection takes the next slot of a steady --flood-rate a second and sends its re-join then.
  const connection = async () => {
    while (!stop) {
      const at = t0 + (slot++ * 1000) / ratePerSec;
      await sleep(at - performance.now());
      if (stop) return;
      try {
        const res = await fetch(`${base}/api/auth/callback/study`, {
          method: "POST",
          redirect: "manual",
          headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, Cookie: cookieHeader(jar), "X-Forwarded-For": address },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        const text = await res.text();
        if (res.headers.getSetCookie().some((c) => /next-auth\.session-token=[^;]/.test(c))) counts.resumed++;
        else if (/arrived(%20|\+| )very(%20|\+| )often/.test(text)) counts.limited++;
        else counts.other++;
      } catch {
        counts.other++;
      }
    }
  };
  log(`re-join flood: one participant's own browser, ${connections} connections, ${ratePerSec}/s …`);
  const flood = Promise.all(Array.from({ length: connections }, connection));
  await sleep(1000);
  let k = 0;
  const saves = await saver.pacedUntil(() => k++ >= during);
  stop = true;
  await flood;
  const seconds = (performance.now() - t0) / 1000;
  return { connections, ratePerSec, seconds, ...counts, saves: summarize(saves), refusedSaves: saver.refused };
}

async function burstPhase(rig: Rig, saver: ReturnType<typeof pacedSaver>, log: (s: string) => void): Promise<BurstFigures> {
  const participants = numberArg("burst", "LOAD_BURST", 300);
  const withinSec = numberArg("burst-within", "LOAD_BURST_WITHIN", 25);
  const addresses = numberArg("burst-addresses", "LOAD_BURST_ADDRESSES", 30);
  const base = rig.server.base;
  const study = await openCrowdStudy(rig.dbFile, rig.seeded.projectId, { batchSize: 10, overlap: 3, minutes: 30, open: Number.MAX_SAFE_INTEGER });
  const plans = planParticipants({ participants, joinWithinSec: withinSec, batch: 10, abandon: 0, resume: 0, replaceAfterSec: 0, replaceWithinSec: 1, seed: 3800, addresses });
  log(`burst of joins: ${participants} participants within ${withinSec} s from ${addresses} addresses …`);
  let done = false;
  const t0 = performance.now();
  const crowd = runCrowd(plans, {
    base,
    projectId: rig.seeded.projectId,
    token: study.token,
    prolificStudyId: prolificId(0xabc),
    completionCode: study.completionCode,
    studyPage: true,
    thinkSec: 1,
    runTag: runTag(),
    timeoutMs: 30_000,
    headOf: new Map(),
    joinOnly: true,
  }).finally(() => (done = true));
  const saves = await saver.pacedUntil(() => done);
  const rec = await crowd;
  const ok = rec.joins.filter((j) => j.ok);
  const failed = rec.outcomes.filter((o) => o.stoppedBy);
  return {
    participants,
    withinSec,
    addresses,
    seconds: (performance.now() - t0) / 1000,
    joined: ok.length,
    failed: failed.length,
    firstFailure: failed[0]?.stoppedBy ?? null,
    join: summarize(ok.map((j) => j.end - j.start)),
    callback: summarize(ok.map((j) => j.callbackMs)),
    pages: [...new Set(rec.pages.map((x) => x.name))].map((name) => ({ name, latency: summarize(rec.pages.filter((x) => x.name === name).map((x) => x.end - x.start)) })),
    saves: summarize(saves),
    refusedSaves: saver.refused,
  };
}

/** The phases asked for (both unless --only names one), on the rig's server, before the main crowd run. */
export async function crowdPhases(rig: Rig, which: { flood: boolean; burst: boolean }, log: (s: string) => void): Promise<PhaseFigures> {
  const paceMs = numberArg("pace", "LOAD_PACE", 250);
  const during = numberArg("during", "LOAD_DURING", 120);
  const annotator = rig.annotators[0];
  const saver = pacedSaver({ base: rig.server.base, projectId: rig.seeded.projectId, cookie: annotator.cookie, refs: rig.seeded.instanceRefs, paceMs });
  await saver.paced(5);
  const alone = summarize(await saver.paced(Math.max(20, Math.round(during / 2))));
  const out: PhaseFigures = { alone };
  if (which.flood) out.flood = await floodPhase(rig, saver, during, log);
  if (which.burst) out.burst = await burstPhase(rig, saver, log);
  return out;
}

export function phaseReport(f: PhaseFigures): string {
  const l = (s: LatencySummary) => `n=${s.count}  p50 ${s.p50.toFixed(1)}  p95 ${s.p95.toFixed(1)}  p99 ${s.p99.toFixed(1)}  max ${s.max.toFixed(1)} ms`;
  const lines = [`another annotator's saves alone: ${l(f.alone)}`];
  if (f.flood) {
    const x = f.flood;
    lines.push(
      `re-join flood (${x.connections} connections, ${x.ratePerSec}/s, ${x.seconds.toFixed(0)} s): resumed ${x.resumed}, refused by the re-join limits ${x.limited}, other ${x.other}`,
      `  another annotator's saves during it: ${l(x.saves)}  refused ${x.refusedSaves}`,
    );
  }
  if (f.burst) {
    const b = f.burst;
    lines.push(
      `burst of joins (${b.participants} within ${b.withinSec} s from ${b.addresses} addresses, ${b.seconds.toFixed(0)} s): joined ${b.joined}, stopped by an error ${b.failed}${b.firstFailure ? ` (first: ${b.firstFailure})` : ""}`,
      `  join as the browser waits (csrf + callback + session): ${l(b.join)}`,
      `  the callback alone: ${l(b.callback)}`,
      ...b.pages.map((x) => `  ${x.name}: ${l(x.latency)}`),
      `  another annotator's saves during it: ${l(b.saves)}  refused ${b.refusedSaves}`,
    );
  }
  return lines.join("\n");
}
