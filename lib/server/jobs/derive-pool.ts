/**
 * Gold, mwgold, agreement and the scoring derivations off the request thread
 * (issue #14): the jobs of lib/server/jobs/derive-jobs.ts run in a child process
 * (derive-worker.ts, built with the app: see worker-files.ts) that opens its
 * own read-only connection to the same WAL file, so a request only awaits the
 * answer while saves go on. The process keeps results under the project's data
 * version, so repeated page loads do not recompute.
 *
 * Per server process (#27 finding 10, and its info item: there were two idle
 * derivation processes per server process, one per copy of this module that
 * Next's bundles loaded; the state now lives on globalThis):
 * - one derivation process, started on first use and ended after a minute idle (its memory with it, #39);
 * - projects take turns (FairQueue): at most one derivation of a project runs
 *   at a time, and a second process starts only when another project's
 *   derivation would otherwise wait behind a running one; it exits after a
 *   minute idle. A nine-file ranking upload of one project no longer holds up
 *   another project's gold download;
 * - each derivation has a time limit (LEXGOLD_DERIVE_TIME_LIMIT_S, default 300)
 *   and a heap limit (LEXGOLD_DERIVE_HEAP_MB, default 1024, the process's
 *   --max-old-space-size): over either, the process is ended and the request
 *   fails with a message naming the limit (a derivation writes nothing);
 * - uploads carried by a derivation (ranking, SENSEVAL) count toward their
 *   user's cap of queued upload bytes (upload-quota.ts) until it ends.
 *
 * An in-memory database (tests) or LEXGOLD_DERIVE_THREADS=0 runs the job
 * in-process instead, after yielding once. Errors keep their class (AuthError,
 * NotFoundError, InputError) so routes and pages answer as before.
 */
import "server-only";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import type { Db } from "../../../db/client";
import { requireProject } from "../kernel/actor";
import { DERIVE_NICE, type DeriveJob, type DeriveResult, carriesUpload, isLight, runDeriveJob } from "./derive-jobs";
import { AuthError, InputError, NotFoundError } from "../kernel/errors";
import { SLICE, stringSlices, textStream } from "../kernel/stream";
import type { DeriveAnswer, WorkerError } from "./derive-worker";
import { FairQueue, holdUploadBytes, WorkerPool } from "../runtime";
import { setting } from "../../config";
import { catchUp, computeAlphaSnapshot, queuedProjects } from "../derived/actor-free";
import { computeBoardOthers, type GoldSource, type ItemsQuery, keepBoardGoldFacts, keepRunGoldFacts, runsWithoutItems, type ScoreBoard, type ScoreMode, writeItemsOfStoredRun } from "../scoring";
import type { Actor } from "../kernel/actor";

/** Derivation processes at most per server process (one per project at a time). */
const DERIVE_PROCESSES = 2;

interface DeriveRuntime {
  queue: FairQueue;
  pool: WorkerPool;
  inFlight: Map<string, Promise<unknown>>;
}
const g = globalThis as unknown as { lexgoldDerive?: DeriveRuntime };
/** This process's derivation runtime (one, whichever bundle asks). */
export function deriveRuntime(): DeriveRuntime {
  return (g.lexgoldDerive ??= {
    queue: new FairQueue(() => DERIVE_PROCESSES, 1),
    pool: new WorkerPool({
      worker: "derive",
      what: "The derivation",
      runtime: "child_process",
      threads: DERIVE_PROCESSES,
      // Each process leaves after a minute idle, its memory with it (#39: a whole scoring or α's bootstrap
      // leaves a heap of hundreds of MB behind), and is started again at the next derivation.
      minThreads: 0,
      idleMs: 60_000,
      heapMb: setting("LEXGOLD_DERIVE_HEAP_MB"),
      heapVar: "LEXGOLD_DERIVE_HEAP_MB",
      timeMs: setting("LEXGOLD_DERIVE_TIME_LIMIT_S") * 1000,
      timeVar: "LEXGOLD_DERIVE_TIME_LIMIT_S",
      // derive-worker.ts's value, from the process's start: the page that starts it is not kept waiting by its start.
      nice: DERIVE_NICE,
    }),
    inFlight: new Map(),
  });
}

/** Stop the derivation processes and forget the runtime, so that the next derivation reads the limits again (tests). */
export async function resetDeriveRuntime(): Promise<void> {
  const r = g.lexgoldDerive;
  g.lexgoldDerive = undefined;
  if (r) {
    await r.queue.whenIdle();
    await r.pool.destroy();
  }
}

function rehydrate(e: WorkerError): Error {
  if (e.kind === "auth") return new AuthError(e.message, e.status === 401 ? 401 : 403);
  if (e.kind === "notFound") return new NotFoundError(e.message);
  if (e.kind === "input") return new InputError(e.message, e.fieldErrors ?? {}, e.details ?? []);
  const err = new Error(e.message);
  if (e.stack) err.stack = `${e.stack}\n    (in the derivation process)`;
  return err;
}

/** A worker's answer before its spilled texts are read back. */
interface Raw {
  value: unknown;
  files?: Record<string, string>;
}

/** Put back an answer's large texts, which the worker wrote to temporary files (see derive-worker.ts), and delete the files. */
async function readSpilled(value: Record<string, unknown>, files: Record<string, string>): Promise<unknown> {
  try {
    for (const [k, file] of Object.entries(files)) value[k] = await fs.promises.readFile(file, "utf8");
    return value;
  } finally {
    for (const file of Object.values(files)) await fs.promises.unlink(file).catch(() => {});
  }
}

/** The bytes of the uploads a job carries (ranking and SENSEVAL inputs hold them as byte arrays, text, or files on disk: `path`). */
function uploadBytesOf(job: DeriveJob): number {
  if (!carriesUpload(job)) return 0;
  let n = 0;
  const walk = (v: unknown, depth: number) => {
    if (depth > 4 || v === null || typeof v !== "object") {
      if (typeof v === "string") n += v.length;
      return;
    }
    if (ArrayBuffer.isView(v)) n += v.byteLength;
    else if (typeof (v as { path?: unknown }).path === "string") {
      try {
        n += fs.statSync((v as { path: string }).path).size;
      } catch {
        /* gone */
      }
    } else for (const x of Object.values(v as Record<string, unknown>)) walk(x, depth + 1);
  };
  walk((job as { input?: unknown }).input, 0);
  return n;
}

/** Run `job` in the derivation process when its project's turn comes: the value and its spilled files. */
function runOnWorker(db: Db, job: DeriveJob): Promise<Raw> {
  const rt = deriveRuntime();
  const file = path.resolve(db.$client.name);
  const release = holdUploadBytes(db, job.actor, uploadBytesOf(job));
  const p = rt.queue.run(`${file}\u0000${job.projectId}`, job.op, async () => {
    const answer = await rt.pool.run<DeriveAnswer>({ file, job });
    if ("error" in answer) throw rehydrate(answer.error);
    return answer;
  });
  return p.finally(release);
}

/**
 * Whether a job for a file database is computed here rather than in the derivation process: a light kind (the
 * Scoring board and a run's figures page, added up from the kept outcomes: 60–120 ms for two runs of 1,000,000
 * lines) while no derivation process is up and answering — none, or one still starting. The process leaves after
 * a minute idle and runs at nice 10; a look that waited for its start (the one it started, or one another page
 * started a moment before: the Progress tab's charts) took 1.5–2.5 s while 800 saves a second were served
 * (bench:pages, the Scoring page's first load at 100,000 instances).
 */
export function derivesHere(job: DeriveJob): boolean {
  return isLight(job) && !deriveRuntime().pool.isWarm();
}

/** Whether jobs for this database run in the derivation process (a file database, and not turned off). */
export function derivesOnWorker(db: Db): boolean {
  const file = db.$client.name;
  return setting("LEXGOLD_DERIVE_THREADS") && !db.$client.memory && file !== "" && file !== ":memory:";
}

/**
 * Run a derivation job: in the derivation process for a file database, else
 * in-process. Who asks is checked here first (so a refusal costs no trip to the
 * worker) and again by the job.
 */
export async function derive<J extends DeriveJob>(db: Db, job: J): Promise<DeriveResult<J>> {
  requireProject(db, job.actor, job.projectId, { coordinator: true });
  // What the derivation reads of the kept figures (#39) is caught up with first, as a page does.
  await catchUp(db, job.projectId);
  if (!derivesOnWorker(db)) {
    await new Promise((r) => setImmediate(r));
    return runDeriveJob(db, job);
  }
  const read = (r: Raw) => (r.files ? readSpilled(r.value as Record<string, unknown>, r.files) : r.value);
  // The same job already out (a reload while the first is computing): share its answer. Never an upload's.
  if (carriesUpload(job)) return (await read(await runOnWorker(db, job))) as DeriveResult<J>;
  const rt = deriveRuntime();
  if (derivesHere(job)) {
    // Started for the next one, unless it is starting: the same job, its answer dropped (it warms the process for what it will be asked).
    if (!rt.pool.hasWorker()) runOnWorker(db, job).catch((e) => console.error("lexgold: starting the derivation process failed:", e));
    await new Promise((r) => setImmediate(r));
    return runDeriveJob(db, job);
  }
  const key = `${path.resolve(db.$client.name)}\u0000${JSON.stringify(job)}`;
  let p = rt.inFlight.get(key);
  if (!p) {
    p = runOnWorker(db, job)
      .then(read)
      .finally(() => rt.inFlight.delete(key));
    rt.inFlight.set(key, p);
  }
  return (await p) as DeriveResult<J>;
}

/**
 * A derivation's answer if it comes within `ms`, else null: the derivation goes on (and its answer is
 * kept as the kind keeps answers), so a page renders without it now and has it on a later load. For
 * what a page shows beside its own figures (the Progress charts), which must not hold the page while
 * the derivation process starts or is busy (#39: the charts' first load after a start, 0.9–1.2 s at
 * 100,000 instances).
 */
export async function deriveWithin<J extends DeriveJob>(db: Db, job: J, ms: number): Promise<DeriveResult<J> | null> {
  const answer = derive(db, job);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((r) => (timer = setTimeout(() => r(null), ms)));
  const first = await Promise.race([answer, late]).finally(() => clearTimeout(timer));
  // An answer after the page rendered is kept by the derivation process; its failure is reported, not thrown at nobody.
  if (first === null) answer.catch((e) => console.error("lexgold: a derivation the page did not wait for failed:", e));
  return first;
}

/**
 * Bring a project's queued derived figures up to date in the background (the applier,
 * lib/server/derived/queue.ts startApplier): in the derivation process, at a lower CPU priority,
 * a second of work per task until the queue is empty; each task takes its project's turn like a
 * derivation. In-process (an in-memory database, LEXGOLD_DERIVE_THREADS=0) through the write lock,
 * a slice at a time. No actor: the server's own work, answering nothing to anyone.
 */
async function drainDerivations(db: Db, projectId: number): Promise<void> {
  if (!derivesOnWorker(db)) {
    while ((await catchUp(db, projectId)) > 0) await new Promise((r) => setTimeout(r, 5));
    return;
  }
  const rt = deriveRuntime();
  const file = path.resolve(db.$client.name);
  for (;;) {
    const answer = await rt.queue.run(`${file}\u0000${projectId}`, "drain", () => rt.pool.run<DeriveAnswer>({ file, drain: projectId }));
    if ("error" in answer) throw rehydrate(answer.error);
    if (!(answer.value as { more: boolean }).more) return;
  }
}

/**
 * The applier's work (lib/server/derived/queue.ts startApplier, every second): each project's queued
 * figures brought up to date (projects side by side, each taking its turn), then the items of runs
 * stored before #39 written, one run at a time — all in the derivation process.
 */
export async function applyPending(db: Db): Promise<void> {
  await Promise.all(queuedProjects(db).map((p) => drainDerivations(db, p)));
  for (const runId of runsWithoutItems(db)) await writeRunItems(db, runId);
}

/** Write the items and outcomes of a run stored before #39 (run-store.ts writeItemsOfStoredRun), in the derivation process. */
async function writeRunItems(db: Db, runId: number): Promise<void> {
  if (!derivesOnWorker(db)) {
    await new Promise((r) => setImmediate(r));
    writeItemsOfStoredRun(db, runId);
    return;
  }
  const rt = deriveRuntime();
  const file = path.resolve(db.$client.name);
  const answer = await rt.queue.run(`${file}\u0000run:${runId}`, "run-items", () => rt.pool.run<DeriveAnswer>({ file, runItems: runId }));
  if ("error" in answer) throw rehydrate(answer.error);
}

/**
 * The turn of a project's computations in the background (α, whole scorings): apart from its pages'
 * derivations, so that a page's derivation (Progress's charts, a download) runs in the other
 * derivation process instead of waiting for a bootstrap of tens of seconds; one at a time per project.
 */
function backgroundKey(file: string, projectId: number): string {
  return `${file}\u0000${projectId}\u0000background`;
}

const alphaRunning = ((globalThis as unknown as { lexgoldAlpha?: Map<string, Promise<void>> }).lexgoldAlpha ??= new Map());

/**
 * Compute Krippendorff's α and the bootstrap intervals over the project's kept items, and keep
 * them (lib/server/derived/agreement.ts computeAlphaSnapshot): in the derivation process, taking
 * the project's turn like a derivation; at most one per project at a time in this process (a
 * second call shares it). Resolves when they are kept. Coordinators of the project only.
 */
export async function refreshAgreementAlpha(db: Db, actor: Actor, projectId: number): Promise<void> {
  requireProject(db, actor, projectId, { coordinator: true });
  const file = derivesOnWorker(db) ? path.resolve(db.$client.name) : `memory:${projectId}`;
  const key = `${file}\u0000${projectId}`;
  let p = alphaRunning.get(key);
  if (!p) {
    p = (async () => {
      if (!derivesOnWorker(db)) {
        await new Promise((r) => setImmediate(r));
        computeAlphaSnapshot(db, projectId);
        return;
      }
      const rt = deriveRuntime();
      const answer = await rt.queue.run(backgroundKey(file, projectId), "alpha", () => rt.pool.run<DeriveAnswer>({ file, alpha: projectId }));
      if ("error" in answer) throw rehydrate(answer.error);
    })().finally(() => alphaRunning.delete(key));
    alphaRunning.set(key, p);
  }
  return p;
}

const othersRunning = ((globalThis as unknown as { lexgoldBoardOthers?: Map<string, Promise<void>> }).lexgoldBoardOthers ??= new Map());

/**
 * Score a gold's runs whole in the derivation process and keep each run's repaired and UTF-8
 * figures (lib/server/scoring/board.ts computeBoardOthers): the Scoring board shows them beside the
 * kept figures, with their time. At most one per gold at a time in this process. Coordinators of the project only.
 */
export async function refreshScoringOthers(db: Db, actor: Actor, projectId: number, source: GoldSource): Promise<void> {
  requireProject(db, actor, projectId, { coordinator: true });
  const file = derivesOnWorker(db) ? path.resolve(db.$client.name) : "memory";
  const key = `${file}\u0000${projectId}\u0000${source.kind === "project" ? "project" : source.id}`;
  let p = othersRunning.get(key);
  if (!p) {
    p = (async () => {
      if (!derivesOnWorker(db)) {
        await new Promise((r) => setImmediate(r));
        computeBoardOthers(db, actor, projectId, source);
        return;
      }
      const rt = deriveRuntime();
      const answer = await rt.queue.run(backgroundKey(file, projectId), "others", () => rt.pool.run<DeriveAnswer>({ file, others: { actor, projectId, source } }));
      if ("error" in answer) throw rehydrate(answer.error);
    })().finally(() => othersRunning.delete(key));
    othersRunning.set(key, p);
  }
  return p;
}

/** The runs are scored whole again in the background when the board finds that scoring this much older than a change. */
const OTHERS_AUTO_MS = 10 * 60_000;

/**
 * The Scoring board as the page and its results route show it: score.pl's figures added up from the
 * outcomes kept per id (#39), or, in another mode, every run scored whole here (cached until the data
 * or the runs change); and beside them each run's repaired and UTF-8 figures and intervals from a whole
 * scoring in the background — started when a run has none yet or
 * when the last is stale and old, and never waited for (#39: the page says it is being computed).
 * Coordinators of the project only.
 */
export async function scoringBoardView(db: Db, actor: Actor, projectId: number, source: GoldSource, mode: ScoreMode): Promise<ScoreBoard> {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  await catchUp(db, projectId);
  // A stored gold's facts kept here (once), where writing is allowed; the kept outcomes are added up in the derivation process.
  keepBoardGoldFacts(db, project, source);
  const board = (await derive(db, { op: "keptBoard", actor, projectId, source, mode })) ?? (await derive(db, { op: "scoreBoard", actor, projectId, source, mode }));
  const o = board.others;
  if (!o || board.runs.length === 0) return board;
  const old = o.computedAt === null || (o.stale && Date.now() - o.computedAt > OTHERS_AUTO_MS);
  if (!o.missing && !old) return board;
  refreshScoringOthers(db, actor, projectId, source).catch((e) => console.error("lexgold: scoring the runs whole failed:", e));
  return { ...board, others: { ...o, computing: true } };
}

/**
 * A run's figures page from the outcomes kept per id, as the JSON text the run's route answers, added up in the
 * derivation process (a run of 1,000,000 lines held a serving process for tens of ms); null when the kept outcomes
 * cannot give it (the run is then scored whole). Coordinators of the project only.
 */
export async function keptRunDetailText(db: Db, actor: Actor, projectId: number, runId: number, mode: ScoreMode, query: ItemsQuery): Promise<string | null> {
  const project = requireProject(db, actor, projectId, { coordinator: true });
  keepRunGoldFacts(db, project, runId);
  return (await derive(db, { op: "keptRunDetail", actor, projectId, runId, mode, query }))?.text ?? null;
}

/** The fields of a job's answer that hold text. */
type TextField<J extends DeriveJob> = { [K in keyof NonNullable<DeriveResult<J>>]: NonNullable<DeriveResult<J>>[K] extends string ? K : never }[keyof NonNullable<DeriveResult<J>>];

/**
 * A download from a derivation: the answer without its `field`, and that field's
 * text as a stream of UTF-8 bytes. When the worker wrote the text to a
 * temporary file (a large one), the file itself is streamed and then deleted:
 * the text never becomes one string on the request thread, which decoding and
 * re-encoding tens of MB held for 80–180 ms. Not shared between callers.
 */
export async function deriveDownload<J extends DeriveJob, K extends TextField<J>>(
  db: Db,
  job: J,
  field: K,
): Promise<{ value: Omit<NonNullable<DeriveResult<J>>, K>; body: ReadableStream<Uint8Array> }> {
  requireProject(db, job.actor, job.projectId, { coordinator: true });
  await catchUp(db, job.projectId);
  if (!derivesOnWorker(db)) {
    const value = (await derive(db, job)) as NonNullable<DeriveResult<J>>;
    return { value, body: textStream(stringSlices((value as Record<K, unknown>)[field] as string)) };
  }
  const { value, files } = await runOnWorker(db, job);
  const own = files?.[field as string];
  const rest = files ? Object.fromEntries(Object.entries(files).filter(([k]) => k !== field)) : {};
  const v = (Object.keys(rest).length > 0 ? await readSpilled(value as Record<string, unknown>, rest) : value) as NonNullable<DeriveResult<J>>;
  if (!own) return { value: v, body: textStream(stringSlices((v as Record<K, unknown>)[field] as string)) };
  const stream = fs.createReadStream(own, { highWaterMark: SLICE });
  stream.on("close", () => fs.promises.unlink(own).catch(() => {}));
  return { value: v, body: Readable.toWeb(stream) as ReadableStream<Uint8Array> };
}
