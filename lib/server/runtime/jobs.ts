/**
 * Jobs: heavy work (imports of large files, and any kind registered in
 * lib/server/jobs-kinds.ts) run in a worker thread, never on the request thread.
 *
 * - `startJob` checks the caller, records a `jobs` row (queued) and returns at
 *   once; a process-wide queue runs LEXGOLD_JOB_THREADS jobs at a time (default 1:
 *   the request thread keeps the other core) in worker threads at a lower CPU
 *   priority, plus one of the QUICK_JOB_KINDS beside them. The worker opens its
 *   own SQLite connection, writes in short transactions and records its progress,
 *   outcome and report in the row.
 * - Pages poll `getJob` / `listJobs` (a small JSON route); jobs survive the page
 *   being left. `cancelJob` asks a running job to stop at its next slice.
 * - `recoverJobs` (at server start, instrumentation.ts): jobs a killed process
 *   left queued or running are marked failed and the rows they had written but
 *   not published (their holding projects) are deleted in slices.
 *
 * The worker is bundled from lib/server/runtime/jobs-worker.ts with esbuild on first
 * use (into node_modules/.cache/lexgold/, so better-sqlite3 resolves from the
 * project's node_modules). How to add a kind: see lib/server/jobs-kinds.ts.
 */
import "server-only";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { and, desc, eq, inArray, isNotNull } from "drizzle-orm";
import { type Db, projectRoot } from "../../../db/client";
import { jobs, projects, users } from "../../../db/schema";
import { type Actor, actorUserId, requireProject } from "../actor";
import { NotFoundError } from "../errors";
import { discardDatasetStaging } from "../dataset-import";
import { inputFiles, runJobOn } from "./jobs-run";

export type JobState = "queued" | "running" | "done" | "failed" | "cancelled";

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

/** Below the request thread's priority (nice 10, Linux), as the hash pool. */
const JOB_NICE = 10;

export function jobThreads(): number {
  const v = Number(process.env.LEXGOLD_JOB_THREADS);
  return Number.isInteger(v) && v > 0 ? v : 1;
}

/**
 * Kinds that take seconds at most and for which someone waits on the page (storing an uploaded run
 * or gold): one of them at a time may run beside the LEXGOLD_JOB_THREADS lanes, so that it never
 * waits for an import of tens of MB to end.
 */
export const QUICK_JOB_KINDS: ReadonlySet<string> = new Set(["scoring-run", "scoring-gold"]);

type Queued = { db: Db; id: number; quick: boolean };
type Runner = { queue: Queued[]; running: number; quickRunning: number; bundle: Promise<string> | null; idle: Array<() => void>; workers: Worker[] };
const g = globalThis as unknown as { lexgoldJobs?: Runner };
function runner(): Runner {
  return (g.lexgoldJobs ??= { queue: [], running: 0, quickRunning: 0, bundle: null, idle: [], workers: [] });
}

/**
 * Remove the worker bundles of server processes that are gone: each process deletes its own at
 * exit, but a killed one (SIGKILL, a crash) cannot. A bundle whose process id is alive is kept.
 */
export function removeStaleBundles(outDir: string): void {
  for (const name of fs.readdirSync(outDir)) {
    const m = /^jobs-worker-(\d+)-[0-9a-f]+\.cjs$/.exec(name);
    if (!m || Number(m[1]) === process.pid) continue;
    try {
      process.kill(Number(m[1]), 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ESRCH") fs.rmSync(path.join(outDir, name), { force: true });
    }
  }
}

/** Build the worker bundle once per process (esbuild, a few hundred ms, off the request thread). */
function workerBundle(): Promise<string> {
  const r = runner();
  r.bundle ??= (async () => {
    const root = projectRoot();
    const outDir = path.join(root, "node_modules", ".cache", "lexgold");
    fs.mkdirSync(outDir, { recursive: true });
    removeStaleBundles(outDir);
    const outfile = path.join(outDir, `jobs-worker-${process.pid}-${crypto.randomBytes(4).toString("hex")}.cjs`);
    const esbuildName = "esbuild";
    const esbuild = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ esbuildName)) as typeof import("esbuild");
    await esbuild.build({
      entryPoints: [path.join(root, "lib", "server", "runtime", "jobs-worker.ts")],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      outfile,
      external: ["better-sqlite3"],
      logLevel: "silent",
      plugins: [
        {
          name: "server-only",
          setup(build) {
            build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "lexgold-empty" }));
            build.onLoad({ filter: /.*/, namespace: "lexgold-empty" }, () => ({ contents: "", loader: "js" }));
          },
        },
      ],
    });
    process.once("exit", () => fs.rmSync(outfile, { force: true }));
    return outfile;
  })();
  r.bundle.catch(() => {
    r.bundle = null;
  });
  return r.bundle;
}

/** Start queued jobs, in order, while a lane is free: LEXGOLD_JOB_THREADS for any kind, plus one for a quick kind. */
function pump(): void {
  const r = runner();
  for (;;) {
    let at = -1;
    let quickLane = false;
    if (r.running - r.quickRunning < jobThreads()) at = r.queue.length > 0 ? 0 : -1;
    else if (r.quickRunning === 0) {
      at = r.queue.findIndex((q) => q.quick);
      quickLane = true;
    }
    if (at < 0) return;
    const [next] = r.queue.splice(at, 1);
    r.running++;
    if (quickLane) r.quickRunning++;
    void runOne(next.db, next.id).finally(() => {
      r.running--;
      if (quickLane) r.quickRunning--;
      pump();
      if (r.running === 0 && r.queue.length === 0) for (const f of r.idle.splice(0)) f();
    });
  }
}

async function runOne(db: Db, id: number): Promise<void> {
  let file: string;
  // A database in memory (tests): no other connection can open it, so the job runs here, in slices.
  if (db.$client.memory) return runJobOn(db.$client, id).catch((e) => finishFailed(db, id, `The job stopped: ${(e as Error).message}`));
  try {
    file = await workerBundle();
  } catch (e) {
    finishFailed(db, id, `The job could not start: ${(e as Error).message}`);
    return;
  }
  // Workers stay up between jobs (unref'd while idle): tearing down a worker that
  // just held a large import's heap would hold up the request thread.
  const r = runner();
  const worker = r.workers.pop() ?? new Worker(file, { workerData: { nice: JOB_NICE } });
  worker.ref();
  await new Promise<void>((resolve) => {
    const onMessage = (m: { done?: number }) => {
      if (m?.done !== id) return;
      done();
      // The worker records the outcome; one it could not record is a failure.
      const row = db.select({ state: jobs.state }).from(jobs).where(eq(jobs.id, id)).get();
      if (row && (row.state === "running" || row.state === "queued")) finishFailed(db, id, "The job stopped unexpectedly; nothing it wrote is visible.");
      worker.unref();
      r.workers.push(worker);
      resolve();
    };
    const onError = (e: Error) => finishFailed(db, id, `The job stopped: ${e.message}`);
    const onExit = () => {
      done();
      finishFailed(db, id, "The job stopped unexpectedly; nothing it wrote is visible.");
      resolve();
    };
    const done = () => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
    };
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage({ dbFile: db.$client.name, jobId: id });
  });
}

function finishFailed(db: Db, id: number, message: string): void {
  const row = db.select({ state: jobs.state, staging: jobs.stagingProjectId, input: jobs.input }).from(jobs).where(eq(jobs.id, id)).get();
  if (!row || (row.state !== "running" && row.state !== "queued")) return;
  db.update(jobs).set({ state: "failed", message, finishedAt: new Date(), stagingProjectId: null }).where(eq(jobs.id, id)).run();
  removeInputFile(row.input);
  if (row.staging !== null) void discardInSlices(db, row.staging);
}

function removeInputFile(input: string): void {
  try {
    for (const f of inputFiles(JSON.parse(input) as Record<string, unknown>)) if (f.startsWith(uploadDir())) fs.rmSync(f, { force: true });
  } catch {
    /* nothing to remove */
  }
}

/** Delete a holding project's rows a slice at a time, yielding to requests between slices. */
export async function discardInSlices(db: Db, stagingProjectId: number): Promise<void> {
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

/** Queue a job of `kind` for a project (coordinators of the project only); returns it at once. */
export function startJob(db: Db, actor: Actor, projectId: number, kind: string, input: Record<string, unknown>): JobView {
  const a = requireProject(db, actor, projectId, { coordinator: true });
  void a;
  const createdBy = actor && actor.kind === "user" ? actorUserId(actor) : null;
  const row = db.insert(jobs).values({ projectId, kind, input: JSON.stringify(input), createdBy, message: "Waiting to start…" }).returning({ id: jobs.id }).get();
  runner().queue.push({ db, id: row.id, quick: QUICK_JOB_KINDS.has(kind) });
  pump();
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
    const r = runner();
    r.queue = r.queue.filter((q) => q.id !== jobId);
    const row = db.select({ input: jobs.input }).from(jobs).where(eq(jobs.id, jobId)).get();
    db.update(jobs).set({ state: "cancelled", message: "Cancelled before it started; nothing was imported.", finishedAt: new Date() }).where(and(eq(jobs.id, jobId), eq(jobs.state, "queued"))).run();
    if (row) removeInputFile(row.input);
  } else if (j.state === "running") {
    db.update(jobs).set({ cancelRequested: true }).where(eq(jobs.id, jobId)).run();
  }
  return getJob(db, actor, jobId);
}

/** Resolves when no job is queued or running in this process (tests, the CLI). */
export function jobsIdle(): Promise<void> {
  const r = runner();
  if (r.running === 0 && r.queue.length === 0) return Promise.resolve();
  return new Promise((resolve) => r.idle.push(resolve));
}

/**
 * At server start: jobs a killed process left unfinished are marked failed, and
 * every holding project (rows written by an import that never published) is
 * deleted in slices. Returns when the marking is done; the deletion goes on in
 * the background, between requests.
 */
export function recoverJobs(db: Db): Promise<void> {
  const stale = db.select({ id: jobs.id, input: jobs.input }).from(jobs).where(inArray(jobs.state, ["queued", "running"])).all();
  if (stale.length > 0) {
    db.update(jobs)
      .set({ state: "failed", message: "The server stopped before this job finished; nothing it wrote is visible.", finishedAt: new Date(), stagingProjectId: null })
      .where(inArray(jobs.id, stale.map((s) => s.id)))
      .run();
    for (const s of stale) removeInputFile(s.input);
  }
  const holders = db.select({ id: projects.id }).from(projects).where(isNotNull(projects.stagingFor)).all();
  return (async () => {
    for (const h of holders) await discardInSlices(db, h.id);
  })();
}

/**
 * The answer of a route that has just started `job` for an upload: 202 with the job at once (the
 * page follows it), or with `wait` (scripts, `?wait=1`) the answer when it ends — 200 with the
 * report, 400 with the refusal and its details, 409 when cancelled. Waiting polls the job row,
 * never holding the request thread.
 */
export function jobResponse(db: Db, actor: Actor, job: Pick<JobView, "id">, wait: boolean): Promise<Response> {
  // Who asks is checked now (a refusal throws here, not in the promise).
  const first = getJob(db, actor, job.id);
  if (!wait) return Promise.resolve(Response.json({ ok: true, job: first }, { status: 202 }));
  return waitForJob(db, actor, job.id).then((j) => {
    if (j.state === "done") return Response.json({ ok: true, job: j, report: j.report });
    return Response.json({ ok: false, message: j.message, details: jobDetails(j), job: j }, { status: j.state === "failed" ? 400 : 409 });
  });
}

/** A failed job's refusal details (its report's `details`). */
export function jobDetails(j: JobView): string[] {
  return (j.report as { details?: string[] } | null)?.details ?? [];
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
