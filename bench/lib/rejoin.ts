/**
 * The re-join flood phase of `npm run bench:signin` (#38 item 4): 16 connections re-join one Prolific
 * study as one participant — the join the study link's page makes (GET /api/auth/csrf, then POST
 * /api/auth/callback/study with the token, the link's query and consent) — at 14 a second in all,
 * while another annotator saves at a fast human's pace (one save every 400 ms: within the share of
 * the account's save limit one server process holds, 2.5 a second of the default 5 with two
 * processes, which a browser whose saves go over one connection meets). Reports that
 * annotator's save p50 / p99 alone and during the flood (target: p99 < 150 ms), and what the
 * re-joins were answered.
 *
 * Its own throw-away database and production server (bench/lib/setup.ts), the request limits at their
 * defaults unless the environment sets them; every request from loopback (one address).
 *
 *   --rejoin-connections 16  --rejoin-rate 14  --rejoin-saves 120  --rejoin-pace 400
 *   (or REJOIN_CONNECTIONS, REJOIN_RATE, REJOIN_SAVES, REJOIN_PACE)
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT } from "./server";
import { numberArg, setUp } from "./setup";
import { pacedSaver } from "./paced-saves";
import { type LatencySummary, ms, summarize } from "./stats";

const LIMIT_VARS = ["LEXGOLD_SAVE_RATE", "LEXGOLD_ADDRESS_SAVE_RATE", "LEXGOLD_PAGE_RATE", "LEXGOLD_ADDRESS_PAGE_RATE", "LEXGOLD_STUDY_JOIN_RATE", "LEXGOLD_ADDRESS_JOIN_RATE"];

export interface RejoinFigures {
  connections: number;
  rate: number;
  alone: LatencySummary;
  during: LatencySummary;
  rejoins: { seconds: number; sent: number; byStatus: Record<string, number>; failed: number };
}

/** name=value pairs of Set-Cookie into a jar. */
function keep(jar: Map<string, string>, res: Response): void {
  for (const c of res.headers.getSetCookie()) {
    const pair = c.split(";")[0];
    const eq = pair.indexOf("=");
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
  }
}

export async function rejoinPhase(log: (s: string) => void): Promise<RejoinFigures> {
  const connections = numberArg("rejoin-connections", "REJOIN_CONNECTIONS", 16);
  const rate = numberArg("rejoin-rate", "REJOIN_RATE", 14);
  const duringSaves = numberArg("rejoin-saves", "REJOIN_SAVES", 120);
  const paceMs = numberArg("rejoin-pace", "REJOIN_PACE", 400);
  const serverEnv = Object.fromEntries(LIMIT_VARS.map((k) => [k, process.env[k] ?? ""]));
  const rig = await setUp({ annotators: 1, instances: 400, log, serverEnv });
  const { server, seeded } = rig;
  const other = rig.annotators[0];
  // The study, opened as a coordinator opens one from the command line.
  const made = spawnSync(path.join(ROOT, "bin", "lexgold"), ["study", "create", "--project", "loadtest", "--platform", "prolific", "--batch", "5", "--overlap", "3", "--minutes", "60", "--completion-code", "C0DE", "--db", rig.dbFile, "--origin", server.base], {
    encoding: "utf8",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  const token = /\/study\/([^\s?]+)/.exec(made.stdout)?.[1];
  if (made.status !== 0 || !token) throw new Error(`study create: ${made.stdout}${made.stderr}`);
  const params = { PROLIFIC_PID: "5f0000000000000000000001", STUDY_ID: "5f00000000000000000000aa", SESSION_ID: "5f00000000000000000000bb" };

  /** One join (or re-join) as the link's page makes it, from a browser of its own: the callback's status (and its answer). */
  let lastAnswer = "";
  async function join(): Promise<number> {
    const jar = new Map<string, string>();
    const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    const csrf = await fetch(`${server.base}/api/auth/csrf`, { signal: AbortSignal.timeout(30_000) });
    keep(jar, csrf);
    const { csrfToken } = (await csrf.json()) as { csrfToken?: string };
    if (!csrfToken) return csrf.status;
    const res = await fetch(`${server.base}/api/auth/callback/study`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.base, Cookie: cookie() },
      body: new URLSearchParams({ token: token!, params: JSON.stringify(params), consent: "yes", csrfToken, callbackUrl: `${server.base}/study/${token}`, json: "true" }),
      signal: AbortSignal.timeout(30_000),
    });
    lastAnswer = (await res.text()).slice(0, 300);
    return res.status;
  }

  const another = pacedSaver({ base: server.base, projectId: seeded.projectId, cookie: other.cookie, refs: [...seeded.instanceRefs], paceMs });
  const paced = (n: number) => another.paced(n);

  try {
    const first = await join();
    if (first !== 200) throw new Error(`the participant's first join answered ${first}: ${lastAnswer}`);
    await another.paced(5); // warm up
    const alone = await paced(Math.max(20, Math.round(duringSaves / 2)));

    // The flood: `connections` loops, each starting its next re-join at its share of `rate` (or at once when late).
    const byStatus: Record<string, number> = {};
    let failed = 0;
    let stop = false;
    const interval = (connections / rate) * 1000;
    const t0 = performance.now();
    const loops = Array.from({ length: connections }, async (_, c) => {
      await new Promise((r) => setTimeout(r, (c * interval) / connections));
      while (!stop) {
        const t = performance.now();
        try {
          const status = await join();
          byStatus[status] = (byStatus[status] ?? 0) + 1;
        } catch {
          failed++;
        }
        const rest = interval - (performance.now() - t);
        if (rest > 0) await new Promise((r) => setTimeout(r, rest));
      }
    });
    await new Promise((r) => setTimeout(r, 1000));
    const during = await paced(duringSaves);
    stop = true;
    await Promise.all(loops);
    const seconds = (performance.now() - t0) / 1000;
    const sent = Object.values(byStatus).reduce((a, b) => a + b, 0) + failed;
    const figures: RejoinFigures = { connections, rate, alone: summarize(alone), during: summarize(during), rejoins: { seconds, sent, byStatus, failed } };
    const a = figures.alone;
    const d = figures.during;
    log(`re-join flood: ${connections} connections re-joining one participant at ${rate}/s (${(sent / seconds).toFixed(1)}/s sent)`);
    console.log(
      [
        `bench:signin re-join flood — ${new Date().toISOString()}, ${connections} connections re-joining one study's participant at ${rate}/s; another annotator saves every ${paceMs} ms`,
        `  another annotator's saves alone:      n=${a.count}  p50 ${ms(a.p50)}  p99 ${ms(a.p99)}  max ${ms(a.max)}`,
        `  another annotator's saves during it:  n=${d.count}  p50 ${ms(d.p50)}  p99 ${ms(d.p99)}  max ${ms(d.max)}   (target p99 < 150 ms: ${d.p99 < 150 ? "met" : "MISSED"})`,
        `  the re-joins: ${sent} in ${seconds.toFixed(1)} s, answered ${Object.entries(byStatus).map(([s, n]) => `${s} ×${n}`).join(", ") || "nothing"}${failed ? `, ${failed} failed` : ""}`,
      ].join("\n"),
    );
    return figures;
  } catch (e) {
    console.error(`the server's last lines:\n${server.tail()}`);
    throw e;
  } finally {
    await rig.cleanup();
  }
}
