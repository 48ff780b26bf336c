/**
 * npm run bench:signin — do failed sign-ins hold up other users? Two phases,
 * each its own function, on one server:
 *
 *  1. savesDuringFailedSignIns (issue #13, finding 3): one annotator saves
 *     answers through the workspace's server action, one after another, first
 *     alone (baseline), then while 100 failed sign-ins run 8 at a time (unknown
 *     names, so each costs a full bcrypt compare against the dummy hash; the
 *     per-client limit is raised for the run so the throttle does not spare the
 *     server the work). Save p50/p99; target: p99 < 150 ms under the burst.
 *  2. realSignInDuringFlood (issue #27, finding 7): a real user signs in again
 *     and again — from a new browser (no device cookie) and from their own
 *     browser (device cookie) in turn — alone, then while 300 failed sign-ins
 *     come from 12 addresses, 4 connections each (X-Forwarded-For from a
 *     trusted proxy: the server is told 127.0.0.1 is one), every refusal
 *     retried at once. Sign-in p50/p99 (CSRF request and form post, as the
 *     sign-in page does); target: p99 < 1 s.
 *
 *   npm run bench:signin [-- --dist .next-e2e] [--cost 10] [--attempts 100] [--parallel 8]
 *                        [--flood 300] [--addresses 12] [--per-address 4] [--only saves|flood|rejoin]
 *
 * Then the save-route flood (bench/lib/flood.ts) and the re-join flood (bench/lib/rejoin.ts, #38 item 4:
 * another annotator's save p99 while 16 connections re-join one study's participant at 14/s).
 */
import { signIn as signInFlow } from "./lib/auth";
import { floodPhase } from "./lib/flood";
import { rejoinPhase } from "./lib/rejoin";
import { type SaveRequest, savePath } from "../app/annotate/save-request";
import { LOAD_PASSWORD } from "./lib/seed";
import { flag, numberArg, type Rig, setUp, stringArg } from "./lib/setup";
import { ms, summarize } from "./lib/stats";

const cost = numberArg("cost", "LEXGOLD_BCRYPT_COST", 10);
const attempts = numberArg("attempts", "SIGNIN_ATTEMPTS", 100);
const parallel = numberArg("parallel", "SIGNIN_PARALLEL", 8);
const baselineSaves = numberArg("baseline", "SIGNIN_BASELINE", 60);
const log = (s: string) => process.stderr.write(s + "\n");

// The server inherits these: accounts and the dummy hash at the production cost, and no
// per-client throttle (as if the attempts came from many addresses).
const flood = numberArg("flood", "SIGNIN_FLOOD", 300);
const floodAddresses = numberArg("addresses", "SIGNIN_ADDRESSES", 12);
const perAddress = numberArg("per-address", "SIGNIN_PER_ADDRESS", 4);
const only = stringArg("only", "SIGNIN_ONLY", "");

process.env.LEXGOLD_BCRYPT_COST = String(cost);
process.env.LEXGOLD_SIGNIN_CLIENT_LIMIT = String(Math.max(attempts, flood) * 10);
// Phase 2's addresses arrive as X-Forwarded-For through "a proxy" on the loopback.
process.env.LEXGOLD_TRUSTED_PROXY = "127.0.0.1,::1";

async function failedSignIn(base: string, i: number, tag: string): Promise<number> {
  const t = performance.now();
  try {
    await signInFlow(base, `stranger-${tag}-${i}`, "not-a-password-123");
    throw new Error("a made-up name signed in");
  } catch (e) {
    if (!/no session cookie/.test((e as Error).message)) throw e;
  }
  return performance.now() - t;
}

/** Phase 1: an annotator's saves, alone and while failed sign-ins run. */
async function savesDuringFailedSignIns(rig: Rig): Promise<string[]> {
  const { server, seeded } = rig;
  const annotator = rig.annotators[0];
  const refs = [...seeded.instanceRefs];
  const revisions = new Map<number, number>();
  let next = 0;

  async function save(): Promise<number> {
    const ref = refs[next++ % refs.length];
    const path = savePath(seeded.projectId, ref);
    const t = performance.now();
    // What the workspace's "Save & next" sends (app/annotate/save-request.ts).
    const req: SaveRequest = { response: { kind: "NIL", substitutes: ["", "", ""], multiword: false, phrase: "" }, expectedRevision: revisions.get(ref) ?? 0 };
    const res = await fetch(server.base + path, {
      method: "POST",
      headers: {
        Cookie: annotator.cookie,
        Origin: server.base,
        Referer: `${server.base}/annotate/${seeded.projectId}/${ref}`,
        Accept: "application/json",
        "Content-Type": "application/json",
      },
      body: JSON.stringify(req),
    });
    const body = await res.text();
    const elapsed = performance.now() - t;
    let result: { ok?: boolean; message?: string; revision?: number };
    try {
      result = JSON.parse(body) as typeof result;
    } catch {
      result = {};
    }
    if (res.status !== 200 || !result.ok) throw new Error(`save of ${ref}: HTTP ${res.status} ${result.message ?? body.slice(0, 200)}`);
    revisions.set(ref, result.revision ?? (revisions.get(ref) ?? 0) + 1);
    return elapsed;
  }

  {
    // Warm up: the first requests compile and cache.
    for (let i = 0; i < 5; i++) await save();
    const baseline: number[] = [];
    for (let i = 0; i < baselineSaves; i++) baseline.push(await save());

    const tag = Date.now().toString(36);
    let done = false;
    const signInTimes: number[] = [];
    const t0 = performance.now();
    const storm = (async () => {
      let i = 0;
      const worker = async () => {
        while (i < attempts) signInTimes.push(await failedSignIn(server.base, i++, tag));
      };
      try {
        await Promise.all(Array.from({ length: parallel }, worker));
      } finally {
        done = true;
      }
    })();
    const during: number[] = [];
    try {
      while (!done) during.push(await save());
    } finally {
      done = true;
      await storm.catch(() => {});
    }
    await storm;
    const stormMs = performance.now() - t0;

    const b = summarize(baseline);
    const d = summarize(during);
    const s = summarize(signInTimes);
    const lines = [
      `bench:signin — ${new Date().toISOString()}, bcrypt cost ${cost}, ${attempts} failed sign-ins ${parallel} at a time`,
      `  saves alone:           n=${b.count}  p50 ${ms(b.p50)}  p99 ${ms(b.p99)}  max ${ms(b.max)}`,
      `  saves during the burst: n=${d.count}  p50 ${ms(d.p50)}  p99 ${ms(d.p99)}  max ${ms(d.max)}   (target p99 < 150 ms: ${d.p99 < 150 ? "met" : "MISSED"})`,
      `  failed sign-ins:       ${attempts} in ${(stormMs / 1000).toFixed(1)} s  p50 ${ms(s.p50)}  p99 ${ms(s.p99)}`,
    ];
    if (flag("json")) lines.push(JSON.stringify({ cost, attempts, parallel, baseline: b, during: d, signIns: s, stormMs }));
    return lines;
  }
}

/** Cookies from Set-Cookie headers into a jar (an emptied cookie leaves it). */
function keepCookies(jar: Map<string, string>, res: Response): void {
  for (const c of res.headers.getSetCookie()) {
    const pair = c.split(";")[0];
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    const value = pair.slice(eq + 1);
    if (value === "") jar.delete(pair.slice(0, eq).trim());
    else jar.set(pair.slice(0, eq).trim(), value);
  }
}

/**
 * One sign-in as the sign-in page makes it (CSRF token, then the form), from
 * `address` (X-Forwarded-For) with the browser's cookie jar: the HTTP status of
 * the form post, and Retry-After when refused.
 */
async function signInAttempt(base: string, name: string, password: string, address: string, jar: Map<string, string>): Promise<{ status: number; retryAfterS: number }> {
  const headers = () => ({ "X-Forwarded-For": address, Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "), Origin: base });
  const csrfRes = await fetch(`${base}/api/auth/csrf`, { headers: headers() });
  keepCookies(jar, csrfRes);
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...headers(), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: name, password, csrfToken, callbackUrl: `${base}/`, json: "true" }),
  });
  keepCookies(jar, res);
  await res.body?.cancel();
  return { status: res.status, retryAfterS: Number(res.headers.get("retry-after") ?? 0) };
}

/**
 * Phase 2: a real user's sign-in, alone and while `flood` failed sign-ins come
 * from `floodAddresses` addresses (`perAddress` connections each, every refusal
 * retried at once). The user alternates a new browser (no device cookie) and
 * their own browser (the device cookie from an earlier sign-in); a refused
 * sign-in is retried after its Retry-After, and the time counts.
 */
async function realSignInDuringFlood(rig: Rig): Promise<string[]> {
  const { server, seeded } = rig;
  const user = seeded.annotators[0].name;
  const home = "198.51.100.200";
  const own = new Map<string, string>();
  let refusedUser = 0;

  async function realSignIn(known: boolean): Promise<number> {
    const jar = known ? own : new Map<string, string>();
    for (const k of [...jar.keys()]) if (k !== "lexgold-device") jar.delete(k);
    const t = performance.now();
    for (;;) {
      const r = await signInAttempt(server.base, user, LOAD_PASSWORD, home, jar);
      if (r.status === 200) break;
      if (r.status !== 429) throw new Error(`the real user's sign-in answered ${r.status}`);
      refusedUser++;
      await new Promise((done) => setTimeout(done, r.retryAfterS * 1000));
    }
    const elapsed = performance.now() - t;
    if (known && !jar.has("lexgold-device")) throw new Error("no device cookie after signing in");
    return elapsed;
  }

  // The user's own browser signs in once to get its device cookie; then a baseline alone.
  await realSignIn(true);
  const alone = { fresh: [] as number[], known: [] as number[] };
  for (let i = 0; i < 10; i++) alone[i % 2 ? "known" : "fresh"].push(await realSignIn(i % 2 === 1));

  const tag = Date.now().toString(36);
  let failed = 0;
  let busy = 0;
  let started = 0;
  let done = false;
  const failTimes: number[] = [];
  const t0 = performance.now();
  const attacker = async (address: string) => {
    const jar = new Map<string, string>();
    while (started < flood) {
      const i = started++;
      for (;;) {
        const t = performance.now();
        const r = await signInAttempt(server.base, `flood-${tag}-${i}`, "not-a-password-123", address, jar);
        if (r.status === 401) {
          failTimes.push(performance.now() - t);
          failed++;
          break;
        }
        if (r.status !== 429) throw new Error(`a failed sign-in answered ${r.status}`);
        busy++;
      }
    }
  };
  const storm = Promise.all(
    Array.from({ length: floodAddresses * perAddress }, (_, k) => attacker(`203.0.113.${(k % floodAddresses) + 1}`)),
  ).finally(() => (done = true));
  const during = { fresh: [] as number[], known: [] as number[] };
  /** When each sign-in during the flood began, ms after the flood did. */
  const startedAt = { fresh: [] as number[], known: [] as number[] };
  try {
    for (let i = 0; !done; i++) {
      const kind = i % 2 ? "known" : "fresh";
      startedAt[kind].push(performance.now() - t0);
      during[kind].push(await realSignIn(i % 2 === 1));
    }
  } finally {
    await storm.catch(() => {});
  }
  await storm;
  const stormMs = performance.now() - t0;

  const row = (label: string, v: number[], at?: number[]) => {
    const x = summarize(v);
    const slowest = at ? `  (slowest began ${(at[v.indexOf(x.max)] / 1000).toFixed(1)} s into the flood)` : "";
    return `  ${label.padEnd(34)} n=${String(x.count).padEnd(3)} p50 ${ms(x.p50)}  p95 ${ms(x.p95)}  p99 ${ms(x.p99)}  max ${ms(x.max)}${slowest}`;
  };
  const worst = Math.max(summarize(during.fresh).p99, summarize(during.known).p99);
  const f = summarize(failTimes);
  const lines = [
    `bench:signin real user — ${flood} failed sign-ins from ${floodAddresses} addresses, ${perAddress} connections each, bcrypt cost ${cost}`,
    row("sign-in alone, new browser:", alone.fresh),
    row("sign-in alone, own browser:", alone.known),
    row("during the flood, new browser:", during.fresh, startedAt.fresh),
    row("during the flood, own browser:", during.known, startedAt.known),
    `  target p99 < 1 s: ${worst < 1000 ? "met" : "MISSED"}; the real user was refused ${refusedUser} time${refusedUser === 1 ? "" : "s"}`,
    `  the flood: ${failed} failures in ${(stormMs / 1000).toFixed(1)} s (p50 ${ms(f.p50)}, p99 ${ms(f.p99)}), ${busy} answered 429 busy and retried`,
  ];
  if (flag("json")) lines.push(JSON.stringify({ flood, floodAddresses, perAddress, cost, alone, during, refusedUser, failed, busy, stormMs }));
  return lines;
}

async function main() {
  if (only !== "rejoin") {
    const rig = await setUp({ annotators: 1, instances: 400, log });
    try {
      if (only !== "flood") console.log((await savesDuringFailedSignIns(rig)).join("\n"));
      if (only !== "saves") console.log((await realSignInDuringFlood(rig)).join("\n"));
    } catch (e) {
      console.error(`the server's last lines:\n${rig.server.tail()}`);
      throw e;
    } finally {
      await rig.cleanup();
    }
    await floodPhase(log);
  }
  if (!only || only === "rejoin") await rejoinPhase(log);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
