/**
 * How long each coordinator request holds a server process's event loop (issue
 * #14: "no request holds the event loop for more than ~50 ms"):
 * `npm run bench:loop`.
 *
 * Starts the production server (as `npm run load`: a throw-away database, here
 * 100,000 instances with 5 annotators' answers on each by default) with
 * LEXGOLD_LOOP_PROBE set, so every serving process writes the longest event-loop
 * block of each 100 ms (scripts/serve.mjs). Then, one at a time with a pause
 * between, it requests every coordinator page and download twice — the first
 * time after a change (so the gold and agreement are derived afresh), the second
 * from the cache — and prints, per request, the wall time, the size and the
 * longest block any serving process saw while it ran. Then the Scoring tab's
 * heavy requests: a system file at the upload limit stored as a run, its detail
 * and report twice, the project's gold stored as an uploaded gold, the WordNet
 * baselines; then a responses TSV of 300,000 lines previewed and imported
 * (`--scoring`: only the Scoring group; `--responses`: only the responses
 * import, on the prefilled answers; both flags: both groups, no pages). No annotator is saving:
 * the block is the request's own (and the derivation's, when it runs in a thread
 * of the process rather than in its child process).
 *
 *   npm run bench:loop -- [--instances 100000] [--prefill 5] [--dist .next-e2e] [--scoring] [--responses] [--json FILE] [--save DIR]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { flag, numberArg, setUp, stringArg } from "./lib/setup";
import { MAX_RUN_BYTES } from "../lib/server/scoring/uploads";

const log = (s: string) => process.stderr.write(s + "\n");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Probe {
  at: number;
  ms: number;
}

function readProbe(file: string): Probe[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => {
      const [at, , ms] = l.split(" ");
      return { at: Number(at), ms: Number(ms) };
    });
}

async function main(): Promise<number> {
  const instances = numberArg("instances", "LOOP_INSTANCES", 100_000);
  const prefill = numberArg("prefill", "LOOP_PREFILL", 5);
  const jsonOut = stringArg("json", "LOOP_JSON", "");
  // --save DIR: every response body written there (to see what a page is made of).
  const saveDir = stringArg("save", "LOOP_SAVE", "");
  if (saveDir) fs.mkdirSync(saveDir, { recursive: true });
  const probeFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-loop-")), "probe.txt");
  process.env.LEXGOLD_LOOP_PROBE = probeFile;
  const rig = await setUp({ annotators: 5, instances, log, prefill });
  const p = rig.seeded.projectId;
  const pages: [string, string][] = [
    ["Project overview", `/projects/${p}`],
    ["Team", `/projects/${p}/members`],
    ["Progress", `/projects/${p}/progress`],
    ["Gold", `/projects/${p}/gold`],
    ["Flags", `/projects/${p}/flags`],
    ["Agreement", `/projects/${p}/agreement`],
    ["Scoring", `/projects/${p}/scoring`],
    ["Ranking", `/projects/${p}/scoring/ranking`],
    ["Training", `/projects/${p}/training`],
    ["Datasets", `/projects/${p}/datasets`],
    ["Judgement", `/projects/${p}/judgement`],
    ["gold download", `/api/projects/${p}/gold?file=gold`],
    ["mwgold download", `/api/projects/${p}/gold?file=mwgold`],
    ["review log CSV", `/api/projects/${p}/gold?file=log`],
    ["agreement JSON", `/api/projects/${p}/agreement?format=json`],
    ["responses TSV", `/api/projects/${p}/responses`],
  ];
  const rows: { name: string; pass: string; status: number; ms: number; bytes: number; blockMs: number }[] = [];
  /** One request, alone: its wall time, size and the longest event-loop block any serving process saw meanwhile; the body's text. */
  const measure = async (pass: string, name: string, url: string, init: RequestInit = {}): Promise<string> => {
    await sleep(400);
    const t0 = Date.now();
    const headers = { cookie: rig.coordinatorCookie, ...(init.method === "POST" ? { origin: rig.server.base } : {}) };
    const res = await fetch(rig.server.base + url, { ...init, headers, signal: AbortSignal.timeout(120_000) });
    const body = new Uint8Array(await res.arrayBuffer());
    const t1 = Date.now();
    await sleep(250);
    const seen = readProbe(probeFile).filter((x) => x.at >= t0 && x.at <= t1 + 200);
    const blockMs = Math.max(0, ...seen.map((x) => x.ms));
    rows.push({ name, pass, status: res.status, ms: t1 - t0, bytes: body.byteLength, blockMs });
    log(`${pass.padEnd(15)} ${name.padEnd(18)} ${res.status} ${String(t1 - t0).padStart(6)} ms ${String(Math.round(body.byteLength / 1024)).padStart(7)} KiB  longest block ${blockMs} ms`);
    if (saveDir) fs.writeFileSync(path.join(saveDir, `${rows.length}-${name.replace(/[^A-Za-z0-9]+/g, "-")}`), body);
    const text = new TextDecoder().decode(body.byteLength > 1 << 20 ? body.subarray(0, 1 << 20) : body);
    if (res.status !== 200) log(`  ${text.slice(0, 300)}`);
    return text;
  };
  try {
    await sleep(1500);
    const idle = readProbe(probeFile).filter((x) => x.at > Date.now() - 1000);
    const idleMax = Math.max(0, ...idle.map((x) => x.ms));
    log(`idle: longest block ${idleMax} ms over 1 s`);
    // --scoring / --responses: only those groups of requests below.
    const only = { scoring: flag("scoring"), responses: flag("responses") };
    const all = !only.scoring && !only.responses;
    for (const pass of all ? ["after a change", "cached"] : []) {
      if (pass === "after a change") {
        // A change the derivations see: one more response from the first prefilled annotator.
        const db = new Database(rig.dbFile);
        db.prepare("update responses set substitutes = '[\"changed\"]', revision = revision + 1 where id = (select min(id) from responses)").run();
        db.close();
      }
      for (const [name, url] of pages) await measure(pass, name, url);
    }
    if (all || only.scoring) {
      // Scoring: a system file at the upload limit stored as a run, its detail and report (after the
      // upload, then cached), the project's gold stored as an uploaded gold, the WordNet baselines.
      const pass = "scoring";
      const runFile = ootRunOf(rig.dbFile, p, MAX_RUN_BYTES - 1024 * 1024);
      log(`scoring: an oot run of ${(runFile.length / 1048576).toFixed(1)} MB`);
      // First a one-line run: the route's first request after start loads its modules.
      await measure(pass, "upload a 1-line run", `/api/projects/${p}/scoring/runs`, upload({ file: ["one.oot", runFile.slice(0, runFile.indexOf("\n") + 1)] }));
      const run = await measure(pass, "upload a run", `/api/projects/${p}/scoring/runs`, upload({ file: ["bench.oot", runFile] }));
      const runId = (JSON.parse(run) as { run?: { id: number } }).run?.id;
      for (const again of ["", " (cached)"]) {
        await measure(pass, `run detail${again}`, `/api/projects/${p}/scoring/runs/${runId}`);
        await measure(pass, `run report${again}`, `/api/projects/${p}/scoring/runs/${runId}/report`);
      }
      const gold = await (await fetch(`${rig.server.base}/api/projects/${p}/gold?file=gold`, { headers: { cookie: rig.coordinatorCookie } })).text();
      await measure(pass, "store a gold", `/api/projects/${p}/scoring/golds`, upload({ gold: ["bench.gold", gold], name: "bench gold" }));
      await measure(pass, "WordNet baselines", `/api/projects/${p}/scoring/baselines`, { method: "POST" });
    }
    if (all || only.responses) {
      // A responses TSV of 300,000 lines (every prefilled answer of the first instances, changed): previewed, then imported.
      // First a one-line preview: the route's first request after start loads its modules, which is not the import's cost.
      await measure("responses", "preview 1 line", `/api/projects/${p}/responses`, upload({ file: ["one.tsv", responsesTsvOf(rig.dbFile, p, 1)] }));
      const tsv = responsesTsvOf(rig.dbFile, p, 300_000);
      log(`responses: a TSV of ${(tsv.length / 1048576).toFixed(1)} MB`);
      const previewed = await measure("responses", "preview 300k lines", `/api/projects/${p}/responses`, upload({ file: ["bench.tsv", tsv] }));
      const token = (JSON.parse(previewed) as { preview?: { token: string } }).preview?.token ?? "";
      await measure("responses", "import 300k lines", `/api/projects/${p}/responses?wait=1`, upload({ file: ["bench.tsv", tsv], mode: "confirm", token }));
    }
  } finally {
    await rig.cleanup();
  }
  const over = rows.filter((r) => r.blockMs > 50);
  process.stdout.write(
    `\nbench:loop — ${instances} instances × ${prefill} annotators' answers; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores\n` +
      `| request | pass | status | wall | size | longest event-loop block | ≤ 50 ms |\n|---|---|---|---|---|---|---|\n` +
      rows.map((r) => `| ${r.name} | ${r.pass} | ${r.status} | ${r.ms} ms | ${Math.round(r.bytes / 1024)} KiB | ${r.blockMs} ms | ${r.blockMs <= 50 ? "met" : "**missed**"} |`).join("\n") +
      `\n\n${over.length === 0 ? "every request held the loop 50 ms or less" : `${over.length} of ${rows.length} held it longer: ${over.map((r) => `${r.name} (${r.pass}, ${r.blockMs} ms)`).join(", ")}`}\n`,
  );
  if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify({ instances, prefill, rows }, null, 2));
  return rows.every((r) => r.status === 200) ? 0 : 1;
}

/** A multipart POST of files ([name, text]) and fields. */
function upload(parts: Record<string, [string, string] | string>): RequestInit {
  const form = new FormData();
  for (const [k, v] of Object.entries(parts)) {
    if (typeof v === "string") form.set(k, v);
    else form.set(k, new Blob([v[1]]), v[0]);
  }
  return { method: "POST", body: form };
}

/** An oot system file of about `bytes` over the project's instances: ten guesses a line, the instances repeated under new ids past the first pass. */
function ootRunOf(dbFile: string, projectId: number, bytes: number): string {
  const db = new Database(dbFile, { readonly: true });
  const rows = db
    .prepare("select l.item as lexelt, i.instance_id as id from instances i join lexelts l on l.id = i.lexelt_id where i.project_id = ? order by i.id")
    .all(projectId) as { lexelt: string; id: string }[];
  db.close();
  const out: string[] = [];
  let size = 0;
  for (let k = 0; size < bytes; k++) {
    const r = rows[k % rows.length];
    const id = k < rows.length ? r.id : `${r.id}x${Math.floor(k / rows.length)}`;
    const line = `${r.lexelt} ${id} ::: ${Array.from({ length: 10 }, (_, g) => `guess${(k * 7 + g) % 997}`).join(";")}`;
    out.push(line);
    size += line.length + 1;
  }
  return out.join("\n") + "\n";
}

/** A responses TSV of `lines` lines: the prefilled annotators' answers on the first instances, each changed. */
function responsesTsvOf(dbFile: string, projectId: number, lines: number): string {
  const db = new Database(dbFile, { readonly: true });
  const rows = db
    .prepare(
      "select u.name as who, l.item as lexelt, i.instance_id as id from responses r join users u on u.id = r.user_id join instances i on i.id = r.instance_ref join lexelts l on l.id = i.lexelt_id where r.project_id = ? and u.name like 'prefill%' order by r.id limit ?",
    )
    .all(projectId, lines) as { who: string; lexelt: string; id: string }[];
  db.close();
  return ["annotator\tlexelt\tinstance\tanswer\tmultiword", ...rows.map((r, k) => `${r.who}\t${r.lexelt}\t${r.id}\tzzimport${k % 97}\t`)].join("\n") + "\n";
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  },
);
