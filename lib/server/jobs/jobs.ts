/**
 * Jobs: heavy work (imports of large files, and any kind registered in
 * lib/server/jobs/jobs-kinds.ts) run in a worker thread, never on the request thread.
 *
 * - `startJob` checks the caller and the cap on their queued uploads
 *   (upload-quota.ts), records a `jobs` row (queued) and returns at once. Jobs
 *   wait in a queue where projects take turns (fair-queue.ts, #27 finding 10):
 *   LEXGOLD_JOB_THREADS run at a time (default 1: the request thread keeps the
 *   other core), plus one of the QUICK_JOB_KINDS in a lane of its own, in
 *   worker threads of the runtime (pool.ts; the entry is jobs-worker.ts, built
 *   with the app) at a lower CPU priority. The worker opens its own SQLite
 *   connection, writes in short transactions and records its progress, outcome
 *   and report in the row.
 * - Each job has a time limit (LEXGOLD_JOB_TIME_LIMIT_S, default 1800) and a
 *   heap limit (LEXGOLD_JOB_HEAP_MB, default 2048): over either, its thread is
 *   ended, the job fails with a message naming the limit, and what it had
 *   written and not published (its holding project) is deleted in slices.
 * - Pages poll `getJob` / `listJobs` (a small JSON route); jobs survive the page
 *   being left. `cancelJob` asks a running job to stop at its next slice.
 * - `recoverJobs` (at server start, instrumentation.ts): jobs a killed process
 *   left queued or running are marked failed and the rows they had written but
 *   not published (their holding projects) are deleted in slices.
 *
 * How to add a kind: see lib/server/jobs/jobs-kinds.ts (each feature registers its own kinds).
 */
import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { jobs, projects, users } from "../../../db/schema";
import { type Actor, actorUserId, requireProject } from "../kernel/actor";
import { NotFoundError } from "../kernel/errors";
import { discardDatasetStaging } from "../corpus";
import { checkUploadRoom, FairQueue, LimitError, WorkerPool } from "../runtime";
import { inputFiles, runJobOn } from "./jobs-run";
import { setting } from "../../config";

type JobState = "queued" | "running" | "done" | "failed" | "cancelled";

export interface JobView {
  id: number;
  projectId: number;
  kind: string;
  state: JobState;
  done: number;
  total: number;
  message: string;
  /** The kind's report when done; { details } when failed. */
  report: unknown;
  fileName: string | null;
  createdBy: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  cancelRequested: boolean;
}

function jobThreads(): number {
  return setting("LEXGOLD_JOB_THREADS");
}

/**
 * Kinds that take seconds at most and for which someone waits on the page (storing an uploaded run
 * or gold): they have a lane of their own beside the LEXGOLD_JOB_THREADS lanes, so that they never
 * wait for an import of tens of MB to end.
 */
export const QUICK_JOB_KINDS: ReadonlySet<string> = new Set(["scoring-run", "scoring-gold"]);

/**
 * A model's runs (lib/server/models, issue #41): mostly waiting on a model's server, for minutes or hours.
 * They have lanes and threads of their own, with their own time limit (LEXGOLD_MODEL_JOB_TIME_LIMIT_S), so
 * that an import never waits for a run and a run is not cut off at an import's limit.
 */
const MODEL_JOB_KINDS: ReadonlySet<string> = new Set(["model-run", "model-measures"]);
/** Model runs at once per process (projects taking turns). */
const MODEL_LANES = 2;

interface JobsRuntime {
  /** Every kind but the quick ones: LEXGOLD_JOB_THREADS at once, projects taking turns. */
  queue: FairQueue;
  /** The quick kinds: one at a time, projects taking turns. */
  quick: FairQueue;
  /** A model's runs: MODEL_LANES at once, projects taking turns, in modelPool. */
  models: FairQueue;
  pool: WorkerPool;
  modelPool: WorkerPool;
  /** Deletions of failed jobs' holding projects still going on (jobsIdle waits for them). */
  discards: Set<Promise<void>>;
}
// On globalThis: Next may load this module once per server bundle; one queue per process.
const g = globalThis as unknown as { lexgoldJobRuntime?: JobsRuntime };
function runtime(): JobsRuntime {
  return (g.lexgoldJobRuntime ??= {
    queue: new FairQueue(jobThreads),
    quick: new FairQueue(() => 1),
    pool: new WorkerPool({
      worker: "jobs",
      what: "The job",
      runtime: "worker_threads",
      threads: jobThreads() + 1,
      heapMb: setting("LEXGOLD_JOB_HEAP_MB"),
      heapVar: "LEXGOLD_JOB_HEAP_MB",
      timeMs: setting("LEXGOLD_JOB_TIME_LIMIT_S") * 1000,
      timeVar: "LEXGOLD_JOB_TIME_LIMIT_S",
    }),
    models: new FairQueue(() => MODEL_LANES),
    modelPool: new WorkerPool({
      worker: "jobs",
      what: "The model run",
      runtime: "worker_threads",
      threads: MODEL_LANES,
      heapMb: setting("LEXGOLD_JOB_HEAP_MB"),
      heapVar: "LEXGOLD_JOB_HEAP_MB",
      timeMs: setting("LEXGOLD_MODEL_JOB_TIME_LIMIT_S") * 1000,
      timeVar: "LEXGOLD_MODEL_JOB_TIME_LIMIT_S",
    }),
    discards: new Set(),
  });
}

/** Stop the job workers and forget the runtime, so that the next job reads the limits again (tests). */
export async function resetJobRuntime(): Promise<void> {
  await jobsIdle();
  const r = g.lexgoldJobRuntime;
  g.lexgoldJobRuntime = undefined;
  await r?.pool.destroy();
  await r?.modelPool.destroy();
}

/** The queues jobs wait in (tests listen to their starts). */
export function jobQueues(): { queue: FairQueue; quick: FairQueue; models: FairQueue } {
  const r = runtime();
  return { queue: r.queue, quick: r.quick, models: r.models };
}

/** Queue job `id` of `kind`, projects taking turns. */
function enqueue(db: Db, id: number, projectId: number, kind: string): void {
  const r = runtime();
  const q = QUICK_JOB_KINDS.has(kind) ? r.quick : MODEL_JOB_KINDS.has(kind) ? r.models : r.queue;
  q.push(`${db.$client.name}\u0000${projectId}`, String(id), () => runOne(db, id, MODEL_JOB_KINDS.has(kind) ? r.modelPool : r.pool));
}

async function runOne(db: Db, id: number, pool: WorkerPool): Promise<void> {
  // A database in memory (tests): no other connection can open it, so the job runs here, in slices.
  if (db.$client.memory) return runJobOn(db.$client, id).catch((e) => finishFailed(db, id, `The job stopped: ${(e as Error).message}`));
  try {
    await pool.run({ dbFile: db.$client.name, jobId: id });
  } catch (e) {
    // Over its time or heap (LimitError says which), or the worker could not start.
    finishFailed(db, id, e instanceof LimitError ? e.message : `The job stopped: ${(e as Error).message}`);
    return;
  }
  // The worker records the outcome; one it could not record is a failure.
  finishFailed(db, id, "The job stopped unexpectedly; nothing it wrote is visible.");
}

function finishFailed(db: Db, id: number, message: string): void {
  const row = db.select({ state: jobs.state, staging: jobs.stagingProjectId, input: jobs.input }).from(jobs).where(eq(jobs.id, id)).get();
  if (!row || (row.state !== "running" && row.state !== "queued")) return;
  db.update(jobs).set({ state: "failed", message, finishedAt: new Date(), stagingProjectId: null }).where(eq(jobs.id, id)).run();
  removeInputFile(row.input);
  if (row.staging !== null) {
    const discards = runtime().discards;
    const p = discardInSlices(db, row.staging).finally(() => discards.delete(p));
    discards.add(p);
  }
}

function removeInputFile(input: string): void {
  try {
    for (const f of inputFiles(JSON.parse(input) as Record<string, unknown>)) if (f.startsWith(uploadDir())) fs.rmSync(f, { force: true });
  } catch {
    /* nothing to remove */
  }
}

/** Delete a holding project's rows a slice at a time, yielding to requests between slices. */
async function discardInSlices(db: Db, stagingProjectId: number): Promise<void> {
  for (const _ of discardDatasetStaging(db.$client, stagingProjectId)) await new Promise((r) => setTimeout(r, 2));
}

/** Where uploads wait for their job (deleted by the job when it ends). */
export function uploadDir(): string {
  return path.join(os.tmpdir(), "lexgold-uploads");
}

/** A fresh temp file name for an upload. */
export function uploadPath(): string {
  fs.mkdirSync(uploadDir(), { recursive: true, mode: 0o700 });
  return path.join(uploadDir(), `${Date.now()}-${crypto.randomBytes(8).toString("hex")}`);
}

/** The bytes of the uploads a job's input names (its `path` and `paths`). */
function inputBytes(input: Record<string, unknown>): number {
  let n = 0;
  for (const f of inputFiles(input)) {
    try {
      n += fs.statSync(f).size;
    } catch {
      /* not there */
    }
  }
  return n;
}

/**
 * Queue a job of `kind` for a project (coordinators of the project only); returns it at once.
 * Refused with QueueFullError (429) when the caller's queued uploads and this one's files would
 * be over their cap (upload-quota.ts); the caller deletes the files then, as on any refusal.
 */
export function startJob(db: Db, actor: Actor, projectId: number, kind: string, input: Record<string, unknown>): JobView {
  requireProject(db, actor, projectId, { coordinator: true });
  const createdBy = actor && actor.kind === "user" ? actorUserId(actor) : null;
  const uploadBytes = inputBytes(input);
  // Checked and recorded in one write transaction: two processes cannot both pass the cap.
  const row = db.$client
    .transaction(() => {
      checkUploadRoom(db, actor, uploadBytes);
      return db
        .insert(jobs)
        .values({ projectId, kind, input: JSON.stringify(uploadBytes > 0 ? { ...input, uploadBytes } : input), createdBy, message: "Waiting to start…" })
        .returning({ id: jobs.id })
        .get();
    })
    .immediate();
  enqueue(db, row.id, projectId, kind);
  return getJob(db, actor, row.id);
}

function view(r: typeof jobs.$inferSelect & { creator: string | null }): JobView {
  let fileName: string | null = null;
  try {
    const f = (JSON.parse(r.input) as { fileName?: unknown }).fileName;
    fileName = typeof f === "string" ? f : null;
  } catch {
    fileName = null;
  }
  return {
    id: r.id,
    projectId: r.projectId,
    kind: r.kind,
    state: r.state,
    done: r.done,
    total: r.total,
    message: r.message,
    report: r.report ? JSON.parse(r.report) : null,
    fileName,
    createdBy: r.creator,
    createdAt: r.createdAt.getTime(),
    startedAt: r.startedAt?.getTime() ?? null,
    finishedAt: r.finishedAt?.getTime() ?? null,
    cancelRequested: r.cancelRequested,
  };
}

function selectJobs(db: Db) {
  return db
    .select({
      id: jobs.id,
      projectId: jobs.projectId,
      kind: jobs.kind,
      state: jobs.state,
      cancelRequested: jobs.cancelRequested,
      done: jobs.done,
      total: jobs.total,
      message: jobs.message,
      input: jobs.input,
      report: jobs.report,
      stagingProjectId: jobs.stagingProjectId,
      createdBy: jobs.createdBy,
      createdAt: jobs.createdAt,
      startedAt: jobs.startedAt,
      finishedAt: jobs.finishedAt,
      creator: users.name,
    })
    .from(jobs)
    .leftJoin(users, eq(users.id, jobs.createdBy));
}

/** One job, for the coordinators of its project (others: 401 / 403 / 404 as for the project). */
export function getJob(db: Db, actor: Actor, jobId: number): JobView {
  const r = Number.isInteger(jobId) ? selectJobs(db).where(eq(jobs.id, jobId)).get() : undefined;
  if (!r) throw new NotFoundError("No such job.");
  // Non-members are told the project does not exist, as everywhere (no job id leaks its project).
  requireProject(db, actor, r.projectId, { coordinator: true });
  return view(r);
}

/** The project's jobs, newest first (unfinished ones and the last `limit` finished). */
export function listJobs(db: Db, actor: Actor, projectId: number, opts: { kinds?: string[]; limit?: number } = {}): JobView[] {
  requireProject(db, actor, projectId, { coordinator: true });
  const where = opts.kinds?.length ? and(eq(jobs.projectId, projectId), inArray(jobs.kind, opts.kinds)) : eq(jobs.projectId, projectId);
  return selectJobs(db)
    .where(where)
    .orderBy(desc(jobs.id))
    .limit(opts.limit ?? 10)
    .all()
    .map(view);
}

/** Cancel a job: a queued one at once, a running one at its next slice (its rows are discarded). */
export function cancelJob(db: Db, actor: Actor, jobId: number): JobView {
  const j = getJob(db, actor, jobId);
  if (j.state === "queued") {
    const r = runtime();
    for (const q of [r.queue, r.quick, r.models]) q.remove((label) => label === String(jobId));
    const row = db.select({ input: jobs.input }).from(jobs).where(eq(jobs.id, jobId)).get();
    const cancelled = db
      .update(jobs)
      .set({ state: "cancelled", message: "Cancelled before it started; nothing was imported.", finishedAt: new Date() })
      .where(and(eq(jobs.id, jobId), eq(jobs.state, "queued")))
      .run();
    // Its upload goes with it, unless another server process started the job meanwhile: then it is asked to stop.
    if (cancelled.changes === 1) {
      if (row) removeInputFile(row.input);
    } else db.update(jobs).set({ cancelRequested: true }).where(and(eq(jobs.id, jobId), eq(jobs.state, "running"))).run();
  } else if (j.state === "running") {
    db.update(jobs).set({ cancelRequested: true }).where(eq(jobs.id, jobId)).run();
  }
  return getJob(db, actor, jobId);
}

/** Resolves when no job is queued or running in this process, nor a failed one's rows being deleted (tests, the CLI). */
export async function jobsIdle(): Promise<void> {
  const r = runtime();
  while (r.queue.running + r.queue.queued + r.quick.running + r.quick.queued + r.models.running + r.models.queued + r.discards.size > 0) {
    await Promise.all([r.queue.whenIdle(), r.quick.whenIdle(), r.models.whenIdle(), ...r.discards]);
  }
}

/**
 * At server start: jobs a killed process left unfinished are marked failed, and
 * every holding project (rows written by an import that never published) is
 * deleted in slices. Returns when the marking is done; the deletion goes on in
 * the background, between requests.
 */
export function recoverJobs(db: Db): Promise<void> {
  const stale = db.select({ id: jobs.id, kind: jobs.kind, input: jobs.input }).from(jobs).where(inArray(jobs.state, ["queued", "running"])).all();
  if (stale.length > 0) {
    // A model's run keeps what it answered (lib/server/models/run.ts): it goes on when started again.
    const ran = (s: (typeof stale)[number]) => MODEL_JOB_KINDS.has(s.kind);
    for (const [ids, message] of [
      [stale.filter((s) => !ran(s)).map((s) => s.id), "The server stopped before this job finished; nothing it wrote is visible."],
      [stale.filter(ran).map((s) => s.id), "The server stopped before this run finished; what it answered is kept: start it again to go on."],
    ] as const) {
      if (ids.length > 0) db.update(jobs).set({ state: "failed", message, finishedAt: new Date(), stagingProjectId: null }).where(inArray(jobs.id, [...ids])).run();
    }
    for (const s of stale) removeInputFile(s.input);
  }
  const holders = db.select({ id: projects.id }).from(projects).where(isNotNull(projects.stagingFor)).all();
  return (async () => {
    for (const h of holders) await discardInSlices(db, h.id);
  })();
}

/** What a route asks of `answerWithJob`: the job, whether to wait for it, and how to answer when it is done. */
export interface JobRequest {
  kind: string;
  input: Record<string, unknown>;
  /** Answer when the job ends (scripts' `?wait=1`, uploads scored at once) rather than at once with the job. */
  wait: boolean;
  /** Uploads the job reads (and deletes when it ends): deleted here when it cannot start. */
  files?: string[];
  /** The answer when the job is done (default: 200 with the job and its report). */
  done?: (report: unknown, job: JobView) => Response;
}

/**
 * The one way a route starts a job and answers with it (#43). Without `wait`: 202 with the job at
 * once (the page follows it). With `wait`, the answer when it ends: done — `done(report)`, or 200
 * with the job and its report; failed — 400, cancelled — 409, each with the job's message, the
 * fields its refusal marks (`errors`) and its details. Waiting polls the job row (waitForJob),
 * never holding the request thread. Who asks is checked by startJob before anything is queued.
 */
export async function answerWithJob(db: Db, actor: Actor, projectId: number, ask: JobRequest): Promise<Response> {
  let job: JobView;
  try {
    job = startJob(db, actor, projectId, ask.kind, ask.input);
  } catch (e) {
    for (const f of ask.files ?? []) fs.rmSync(f, { force: true });
    throw e;
  }
  if (!ask.wait) return Response.json({ ok: true, job }, { status: 202 });
  const j = await waitForJob(db, actor, job.id);
  if (j.state === "done") return ask.done ? ask.done(j.report, j) : Response.json({ ok: true, job: j, report: j.report });
  const refusal = (j.report ?? {}) as { details?: string[]; errors?: Record<string, string> };
  return Response.json({ ok: false, message: j.message, errors: refusal.errors, details: refusal.details ?? [], job: j }, { status: j.state === "failed" ? 400 : 409 });
}

/**
 * The job once it has ended (done, failed or cancelled), polling its row every 100 ms: never
 * holding the request thread. Who asks is checked at once (a refusal throws here, not in the promise).
 */
export function waitForJob(db: Db, actor: Actor, jobId: number): Promise<JobView> {
  const ended = (j: JobView) => j.state === "done" || j.state === "failed" || j.state === "cancelled";
  const first = getJob(db, actor, jobId);
  if (ended(first)) return Promise.resolve(first);
  return (async () => {
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const j = getJob(db, actor, jobId);
      if (ended(j)) return j;
    }
  })();
}
