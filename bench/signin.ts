/**
 * npm run bench:signin — does a burst of failed sign-ins hold up other users?
 * (issue #13, finding 3). One annotator saves answers through the workspace's
 * server action, one after another, first alone (baseline), then while 100
 * failed sign-ins run 8 at a time (unknown names, so each costs a full bcrypt
 * compare against the dummy hash; the per-client limit is raised for the run so
 * the throttle does not spare the server the work). Reports save p50/p99 in
 * both phases; target: p99 < 150 ms under the burst.
 *
 *   npm run bench:signin [-- --dist .next-e2e] [--cost 10] [--attempts 100] [--parallel 8]
 */
import { signIn as signInFlow } from "./lib/auth";
import { floodPhase } from "./lib/flood";
import { type SaveRequest, savePath } from "../app/annotate/save-request";
import { flag, numberArg, setUp } from "./lib/setup";
import { ms, summarize } from "./lib/stats";

const cost = numberArg("cost", "LEXGOLD_BCRYPT_COST", 10);
const attempts = numberArg("attempts", "SIGNIN_ATTEMPTS", 100);
const parallel = numberArg("parallel", "SIGNIN_PARALLEL", 8);
const baselineSaves = numberArg("baseline", "SIGNIN_BASELINE", 60);
const log = (s: string) => process.stderr.write(s + "\n");

// The server inherits these: accounts and the dummy hash at the production cost, and no
// per-client throttle (as if the attempts came from many addresses).
process.env.LEXGOLD_BCRYPT_COST = String(cost);
process.env.LEXGOLD_SIGNIN_CLIENT_LIMIT = String(attempts * 10);

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

async function main() {
  const rig = await setUp({ annotators: 1, instances: 400, log });
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

  try {
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
    console.log(lines.join("\n"));
    if (flag("json")) console.log(JSON.stringify({ cost, attempts, parallel, baseline: b, during: d, signIns: s, stormMs }));
  } catch (e) {
    console.error(`the server's last lines:\n${server.tail()}`);
    throw e;
  } finally {
    await rig.cleanup();
  }
  await floodPhase(log);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
