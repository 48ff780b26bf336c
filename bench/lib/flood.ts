/**
 * The flood phase of `npm run bench:signin` (issue #27, finding 9): one annotator
 * floods the save route with 16 connections, each sending its next save the
 * moment the last is answered, while another annotator saves at a fast human's
 * pace (one save every 400 ms: within the share of the account's save limit one server process holds,
 * 2.5 a second of the default 5 with two processes — #38 item 10 — which a browser whose saves go
 * over one connection meets; it was 250 ms before). Reports the other annotator's save p50 / p99
 * alone and during the flood (target: p99 < 150 ms), and what the flood got:
 * saves stored, 429s, anything else.
 *
 * Its own throw-away database and production server (bench/lib/setup.ts), with
 * the request limits at their defaults (lib/server/kernel/rate-limit.ts) unless the
 * environment sets them; every address is loopback.
 *
 *   --flood-connections 16  --flood-saves 200  --flood-pace 400   (or FLOOD_CONNECTIONS, FLOOD_SAVES, FLOOD_PACE)
 */
import os from "node:os";
import autocannon, { type Client } from "autocannon";
import { type SaveRequest, savePath } from "../../app/annotate/save-request";
import { pacedSaver } from "./paced-saves";
import { flag, numberArg, setUp } from "./setup";
import { type LatencySummary, ms, summarize } from "./stats";

const LIMIT_VARS = ["LEXGOLD_SAVE_RATE", "LEXGOLD_ADDRESS_SAVE_RATE", "LEXGOLD_PAGE_RATE", "LEXGOLD_ADDRESS_PAGE_RATE"];

export interface FloodFigures {
  connections: number;
  workers: number;
  alone: LatencySummary;
  during: LatencySummary;
  /** The other annotator's saves answered 429 (none expected: its own bucket is never empty at its pace). */
  otherRefused: number;
  flood: { seconds: number; sent: number; stored: number; conflicts: number; refused: number; other: number };
}

const NIL: SaveRequest["response"] = { kind: "NIL", substitutes: ["", "", ""], multiword: false, phrase: "" };

export async function floodPhase(log: (s: string) => void): Promise<FloodFigures> {
  const connections = numberArg("flood-connections", "FLOOD_CONNECTIONS", 16);
  const duringSaves = numberArg("flood-saves", "FLOOD_SAVES", 200);
  const aloneSaves = Math.max(20, Math.round(duringSaves / 2));
  const paceMs = numberArg("flood-pace", "FLOOD_PACE", 400);
  const workers = Number(process.env.LEXGOLD_WORKERS || Math.max(1, Math.min(2, os.availableParallelism())));
  // The limits as a deployment has them: the defaults, or what the environment says.
  const serverEnv = Object.fromEntries(LIMIT_VARS.map((k) => [k, process.env[k] ?? ""]));
  const rig = await setUp({ annotators: 2, instances: 400, log, serverEnv });
  const { server, seeded } = rig;
  const [flooder, other] = rig.annotators;
  const refs = [...seeded.instanceRefs];
  const headers = (cookie: string) => ({
    Cookie: cookie,
    Origin: server.base,
    Accept: "application/json",
    "Content-Type": "application/json",
  });

  // The other annotator: what the workspace's "Save & next" sends, one instance after another.
  const another = pacedSaver({ base: server.base, projectId: seeded.projectId, cookie: other.cookie, refs, paceMs });
  try {
    await another.paced(5); // warm up
    const alone = await another.paced(aloneSaves);

    // The flood: the first annotator's own instances, in turn, with the revision each last answered.
    const floodRevisions = new Map<number, number>();
    const counts = { stored: 0, conflicts: 0, refused: 0, other: 0 };
    let k = 0;
    const instance = autocannon({
      url: server.base,
      connections,
      duration: 3600,
      timeout: 30,
      requests: [
        {
          method: "POST",
          headers: headers(flooder.cookie),
          setupRequest: (req, context) => {
            const ref = refs[k++ % refs.length];
            context.ref = ref;
            return { ...req, path: savePath(seeded.projectId, ref), body: JSON.stringify({ response: NIL, expectedRevision: floodRevisions.get(ref) ?? 0 }) };
          },
          onResponse: (status, body, context) => {
            if (status === 200) {
              counts.stored++;
              floodRevisions.set(context.ref as number, (JSON.parse(body) as { revision: number }).revision);
            } else if (status === 409) {
              counts.conflicts++;
              const current = (JSON.parse(body) as { conflict?: { revision?: number } }).conflict?.revision;
              if (current) floodRevisions.set(context.ref as number, current);
            } else if (status === 429) counts.refused++;
            else counts.other++;
          },
        },
      ],
      setupClient: (client: Client) => client.on("connError", () => void counts.other++),
      skipAggregateResult: true,
    });
    const t0 = performance.now();
    // Let the flood use up its burst and fill every connection first.
    await new Promise((r) => setTimeout(r, 1000));
    const during = await another.paced(duringSaves);
    instance.stop();
    await instance;
    const seconds = (performance.now() - t0) / 1000;

    const figures: FloodFigures = {
      connections,
      workers,
      alone: summarize(alone),
      during: summarize(during),
      otherRefused: another.refused,
      flood: { seconds, sent: counts.stored + counts.conflicts + counts.refused + counts.other, ...counts },
    };
    const a = figures.alone;
    const d = figures.during;
    const f = figures.flood;
    const met = d.p99 < 150 && figures.otherRefused === 0;
    console.log(
      [
        `bench:signin flood — ${new Date().toISOString()}, one annotator flooding the save route with ${connections} connections, ${workers} server process${workers === 1 ? "" : "es"}, another saving every ${paceMs} ms`,
        `  another's saves alone:         n=${a.count}  p50 ${ms(a.p50)}  p95 ${ms(a.p95)}  p99 ${ms(a.p99)}  max ${ms(a.max)}`,
        `  another's saves in the flood:  n=${d.count}  p50 ${ms(d.p50)}  p95 ${ms(d.p95)}  p99 ${ms(d.p99)}  max ${ms(d.max)}  refused ${figures.otherRefused}   (target p99 < 150 ms: ${met ? "met" : "MISSED"})`,
        `  the flood: ${f.sent} requests in ${seconds.toFixed(1)} s (${(f.sent / seconds).toFixed(0)}/s): ${f.stored} stored (${(f.stored / seconds).toFixed(1)}/s), ${f.conflicts} stale, ${f.refused} refused 429, ${f.other} other`,
      ].join("\n"),
    );
    if (flag("json")) console.log(JSON.stringify({ flood: figures }));
    return figures;
  } catch (e) {
    console.error(`the server's last lines:\n${server.tail()}`);
    throw e;
  } finally {
    await rig.cleanup();
  }
}
