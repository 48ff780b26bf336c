/**
 * npm run bench:pages — do the coordinator's pages stay bounded in a
 * CoInCo-sized project? (issue #14, "pages of bounded size"). Seeds a
 * throw-away database: accounts and the corpus through lib/server (as the CLI
 * would), then responses, their history and the save path's counters with raw
 * inserts in one transaction. Starts the production server, signs the
 * coordinator in and fetches each coordinator page (one warm-up, then
 * --runs times): server time to the last byte and HTML size.
 * Targets: < 1 s and < 1 MB each.
 *
 *   npm run bench:pages [-- --dist .next-bench] [--lexelts 2605] [--per-lexelt 6] [--annotators 25]
 *                       [--answers 3] [--runs 3] [--build] [--keep] [--json]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { signIn } from "./lib/auth";
import { LOAD_PASSWORD, seedLoadDb } from "./lib/seed";
import { buildIfNeeded, freePort, Server } from "./lib/server";
import { flag, numberArg, stringArg } from "./lib/setup";
import { openDb } from "../db/client";

const lexeltCount = numberArg("lexelts", "PAGES_LEXELTS", 2605);
const perLexelt = numberArg("per-lexelt", "PAGES_PER_LEXELT", 6);
const annotatorCount = numberArg("annotators", "PAGES_ANNOTATORS", 25);
/** Responses per instance (CoInCo has about six; "some responses"). */
const answersPerInstance = numberArg("answers", "PAGES_ANSWERS", 3);
const runs = numberArg("runs", "PAGES_RUNS", 3);
const log = (s: string) => process.stderr.write(s + "\n");

const WORDS = ["calm", "still", "silent", "hushed", "gentle", "faint", "soft", "muted", "low", "peaceful", "easy", "mild"];

/** Responses, their history and the counters, straight into the database in one transaction. */
function seedResponses(dbFile: string, projectId: number, annotators: Array<{ userId: number }>): number {
  const db = openDb(dbFile);
  const sqlite = db.$client;
  try {
    const rows = sqlite
      .prepare("select i.id as ref, i.lexelt_id as lexeltId from instances i join lexelts l on l.id = i.lexelt_id where i.project_id = ? order by l.position, i.position")
      .all(projectId) as Array<{ ref: number; lexeltId: number }>;
    const insert = sqlite.prepare(
      "insert into responses (project_id, instance_ref, user_id, kind, substitutes, multiword, revision, active_ms, created_at, updated_at) values (?, ?, ?, 'substitutes', ?, null, 1, ?, ?, ?)",
    );
    const history = sqlite.prepare(
      "insert into response_history (response_id, project_id, instance_ref, user_id, kind, substitutes, multiword, revision, source, saved_at) values (?, ?, ?, ?, 'substitutes', ?, null, 1, 'web', ?)",
    );
    const queue = sqlite.prepare(
      "insert into queue_counts (project_id, user_id, lexelt_id, done) values (?, ?, ?, 1) on conflict (user_id, lexelt_id) do update set done = done + 1",
    );
    const perAnnotator = sqlite.prepare(
      "insert into annotator_counts (project_id, user_id, done) values (?, ?, 1) on conflict (project_id, user_id) do update set done = done + 1",
    );
    const start = Date.now() - 30 * 24 * 3600 * 1000;
    let n = 0;
    sqlite.transaction(() => {
      rows.forEach((r, i) => {
        // Later instances get fewer answers: the project is part done.
        const answers = i < rows.length * 0.6 ? answersPerInstance : i < rows.length * 0.8 ? 1 : 0;
        for (let k = 0; k < answers; k++) {
          const a = annotators[(i + k * 7) % annotators.length];
          const subs = JSON.stringify([WORDS[(i + k) % WORDS.length], WORDS[(i * 3 + k) % WORDS.length]].filter((w, j, xs) => xs.indexOf(w) === j));
          const at = start + n * 50;
          const id = Number(insert.run(projectId, r.ref, a.userId, subs, 3000 + ((i * 37 + k * 101) % 40000), at, at).lastInsertRowid);
          history.run(id, projectId, r.ref, a.userId, subs, at);
          queue.run(projectId, a.userId, r.lexeltId);
          perAnnotator.run(projectId, a.userId);
          n++;
        }
      });
    })();
    return n;
  } finally {
    sqlite.close();
  }
}

interface PageFigure {
  page: string;
  path: string;
  status: number;
  /** Milliseconds to the last byte, median over the runs. */
  ms: number;
  maxMs: number;
  bytes: number;
}

async function measure(base: string, cookie: string, page: string, urlPath: string): Promise<PageFigure> {
  const times: number[] = [];
  let bytes = 0;
  let status = 0;
  for (let i = 0; i <= runs; i++) {
    const t = performance.now();
    const res = await fetch(base + urlPath, { headers: { Cookie: cookie }, redirect: "manual" });
    const body = await res.arrayBuffer();
    const elapsed = performance.now() - t;
    status = res.status;
    bytes = body.byteLength;
    if (res.status !== 200) throw new Error(`${page} (${urlPath}) answered ${res.status}`);
    if (i > 0) times.push(elapsed); // the first is a warm-up
  }
  times.sort((a, b) => a - b);
  return { page, path: urlPath, status, ms: times[times.length >> 1], maxMs: times[times.length - 1], bytes };
}

async function main() {
  const distDir = stringArg("dist", "LOAD_DIST_DIR", ".next-bench");
  buildIfNeeded(distDir, flag("build"), log);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-pages-"));
  const dbFile = path.join(dir, "pages.db");
  process.env.LEXGOLD_BCRYPT_COST ??= "4";
  const seeded = await seedLoadDb(dbFile, { annotators: annotatorCount, lexelts: lexeltCount, instancesPerLexelt: perLexelt });
  const t = performance.now();
  const responseCount = seedResponses(dbFile, seeded.projectId, seeded.annotators);
  log(
    `seeded ${seeded.instanceRefs.length} instances in ${lexeltCount} lexelts, ${seeded.annotators.length} annotators in ${(seeded.seedMs / 1000).toFixed(1)} s; ` +
      `${responseCount} responses in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const server = new Server({ distDir, dbFile, secretFile: path.join(dir, "secret"), port: await freePort() });
  try {
    await server.start();
    const cookie = await signIn(server.base, seeded.coordinator, LOAD_PASSWORD);
    const p = `/projects/${seeded.projectId}`;
    const pages: Array<[string, string]> = [
      ["Project overview", p],
      ["Progress", `${p}/progress`],
      ["Team", `${p}/members`],
      ["Gold", `${p}/gold`],
      ["Gold: instances", `${p}/gold?view=instances`],
      ["Gold: review queue (lowest agreement first)", `${p}/gold?view=queue`],
      ["Agreement", `${p}/agreement`],
      ["Scoring", `${p}/scoring`],
    ];
    const figures: PageFigure[] = [];
    for (const [name, urlPath] of pages) {
      const f = await measure(server.base, cookie, name, urlPath);
      figures.push(f);
      log(`  ${name}: ${f.ms.toFixed(0)} ms, ${(f.bytes / 1024).toFixed(0)} KiB`);
    }
    const kib = (b: number) => `${(b / 1024).toFixed(0)} KiB`;
    const lines = [
      `bench:pages — ${new Date().toISOString()}, ${seeded.instanceRefs.length} instances in ${lexeltCount} lexelts, ${seeded.annotators.length} annotators, ${responseCount} responses; median of ${runs} after a warm-up; load average ${os.loadavg()[0].toFixed(1)}`,
      "| page | server time (median / max) | HTML | < 1 s | < 1 MB |",
      "|---|---|---|---|---|",
      ...figures.map(
        (f) => `| ${f.page} | ${f.ms.toFixed(0)} / ${f.maxMs.toFixed(0)} ms | ${kib(f.bytes)} | ${f.ms < 1000 ? "met" : "MISSED"} | ${f.bytes < 1024 * 1024 ? "met" : "MISSED"} |`,
      ),
    ];
    console.log(lines.join("\n"));
    if (flag("json")) console.log(JSON.stringify({ instances: seeded.instanceRefs.length, lexelts: lexeltCount, annotators: annotatorCount, responses: responseCount, figures }));
  } catch (e) {
    console.error(`the server's last lines:\n${server.tail()}`);
    throw e;
  } finally {
    await server.stop();
    if (!flag("keep")) fs.rmSync(dir, { recursive: true, force: true });
    else log(`kept ${dir}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
