/**
 * The one worker runtime behind jobs, derivations and bcrypt (#28): a tinypool
 * pool of worker threads or child processes running a bundle of
 * lib/server/runtime/worker-files.ts, with a time limit and a heap limit per
 * task (#27 finding 10). Jobs and derivations reach it through a FairQueue
 * (fair-queue.ts) that takes turns between projects and decides how many run
 * at once; bcrypt's compares go straight to tinypool's own queue.
 *
 * - Threads get V8's `resourceLimits` (old generation); a child process gets
 *   `--max-old-space-size`. A task over its heap kills its worker (V8 cannot
 *   recover a heap at its limit); the task fails with `LimitError` naming the
 *   limit, and the next task gets a fresh worker.
 * - A task over its time is stopped the same way (tinypool terminates the
 *   thread, or kills the process) and fails with `LimitError`.
 * - Workers stay up between tasks (unref'd, so they never keep a process
 *   alive), up to `idleMs` idle: tearing down a worker that has just held a
 *   large heap costs the thread that does it.
 * - Lower CPU priority: a child process gets the spec's `nice` on every thread
 *   from its first instruction (a preload); a thread worker lowers itself in its
 *   entry. See derive-worker.ts for why derivations run in a child process.
 *
 * The pool's file is resolved on first use (a missing production bundle fails
 * that task, not the server's start).
 */
import "server-only";
import { Tinypool } from "tinypool";
import { type WorkerName, workerFile } from "./worker-files";
import { environment } from "../../config";
import { LimitReachedError } from "../kernel/errors";

/** A task stopped for going over its time or memory: its message says which limit, how to raise it and what else to do. */
export class LimitError extends LimitReachedError {}

export interface PoolSpec {
  /** The worker (a bundle of worker-files.ts), or a JavaScript file of its own (tests). */
  worker: WorkerName | { file: string };
  /** What the tasks are called in messages ("The derivation", "The job"). */
  what: string;
  runtime: "worker_threads" | "child_process";
  /** Workers at most (the queue in front decides how many tasks run). */
  threads: number;
  /** Workers kept when idle (default 0). */
  minThreads?: number;
  /** Heap limit in MB (old generation), and the variable that sets it ("" when none does). */
  heapMb: number;
  heapVar: string;
  /** Time limit per task in ms (0: none), and the variable that sets it. */
  timeMs: number;
  timeVar: string;
  idleMs?: number;
  workerData?: unknown;
  env?: Record<string, string>;
  /**
   * A child process's nice value from its first instruction (Linux; elsewhere its main thread, where
   * permitted): set by a preload (`lowerPriorityFirst`) before Node reads tinypool's entry or the bundle. A
   * worker entry that lowers itself does so only once its bundle is read and run, and the derivation bundle,
   * read at the server's priority, was what a page loading meanwhile waited for.
   */
  nice?: number;
}

/**
 * The `--import` preload that sets every thread of the process to `nice` (Linux keeps the value per thread:
 * /proc/self/task lists them; threads started later inherit it). A data: URL, so there is no file to find in
 * the checkout, the bundle directory or the cache. Not permitted, or no /proc: the thread it can, as it can.
 */
function lowerPriorityFirst(nice: number): string {
  const n = Math.trunc(nice);
  const code = `import fs from "node:fs"; import os from "node:os";
let tids = ["0"]; try { tids = fs.readdirSync("/proc/self/task"); } catch {}
for (const t of tids) { try { if (os.getPriority(Number(t)) < ${n}) os.setPriority(Number(t), ${n}); } catch {} }`;
  return `data:text/javascript,${encodeURIComponent(code)}`;
}

export class WorkerPool {
  private pool: Promise<Tinypool> | null = null;
  /** The pool once made (null before, and after `destroy`). */
  private made: Tinypool | null = null;
  /** A worker of those up now has answered a task (`isWarm`). */
  private answered = false;

  constructor(private readonly spec: PoolSpec) {}

  private tinypool(): Promise<Tinypool> {
    const s = this.spec;
    this.pool ??= (typeof s.worker === "string" ? workerFile(s.worker) : Promise.resolve(s.worker.file)).then(
      (filename) =>
        new Tinypool({
          filename,
          runtime: s.runtime,
          minThreads: s.minThreads ?? 0,
          maxThreads: Math.max(1, s.threads),
          idleTimeout: s.idleMs ?? 10 * 60_000,
          ...(s.runtime === "child_process"
            ? { execArgv: [`--max-old-space-size=${s.heapMb}`, ...(s.nice ? ["--import", lowerPriorityFirst(s.nice)] : [])], serialization: "advanced" as const, env: { ...stringEnv(), ...s.env } }
            : { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: s.heapMb }, env: s.env }),
          workerData: s.workerData,
        }),
    );
    const asked = this.pool;
    asked.then(
      (tp) => {
        if (this.pool === asked) this.made = tp;
      },
      () => (this.pool = null),
    );
    return asked;
  }

  /** Whether a worker is up or starting (none before the first task, nor once every worker has left after `idleMs` idle). */
  hasWorker(): boolean {
    return this.pool !== null && (this.made === null || this.made.threads.length > 0);
  }

  /**
   * Whether a worker is up and has answered since it started: a task asked for now does not wait for a start
   * (a child process's start is hundreds of ms at a lower priority, seconds while the machine is busy).
   */
  isWarm(): boolean {
    return this.answered && this.made !== null && this.made.threads.length > 0;
  }

  /** Run `task` on a worker (at once when one is free, else in tinypool's order); its answer. */
  async run<T>(task: unknown): Promise<T> {
    const s = this.spec;
    const pool = await this.tinypool();
    // No worker up (none yet, or all left idle): the one this task starts has answered nothing yet.
    if (pool.threads.length === 0) this.answered = false;
    const ac = new AbortController();
    let timedOut = false;
    const timer =
      s.timeMs > 0
        ? setTimeout(() => {
            timedOut = true;
            ac.abort();
          }, s.timeMs)
        : null;
    timer?.unref();
    try {
      const answer = (await pool.run(task, timer ? { signal: ac.signal } : {})) as T;
      this.answered = true;
      return answer;
    } catch (e) {
      if (timedOut) {
        throw new LimitError(
          `${s.what} was stopped after ${seconds(s.timeMs)} s, its time limit (${s.timeVar}); nothing it would have written was kept. ` +
            `Send less at once (fewer or smaller files), or raise ${s.timeVar}.`,
          "time",
        );
      }
      throw this.explain(e);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /** A worker lost to its heap limit, said plainly; other errors as they are. */
  private explain(e: unknown): unknown {
    const s = this.spec;
    const err = e as { code?: string; message?: string };
    const raise = s.heapVar ? `, or raise ${s.heapVar} (now ${s.heapMb})` : "";
    const heap = `${s.what} needed more than ${s.heapMb} MB of memory, its limit${s.heapVar ? ` (${s.heapVar})` : ""}, and was stopped; nothing it would have written was kept. Send less at once (fewer or smaller files)${raise}.`;
    if (err?.code === "ERR_WORKER_OUT_OF_MEMORY") return new LimitError(heap, "heap");
    // A child process at its heap limit aborts (V8 cannot go on); tinypool sees it exit.
    if (s.runtime === "child_process" && /exited unexpectedly/.test(err?.message ?? "")) {
      return new LimitError(
        `${s.what} stopped: its process exited, most likely over its memory limit of ${s.heapMb} MB${s.heapVar ? ` (${s.heapVar})` : ""}; nothing it would have written was kept. ` +
          `Send less at once (fewer or smaller files)${raise}.`,
        "heap",
      );
    }
    return e;
  }

  /** Stop every worker (tests). */
  async destroy(): Promise<void> {
    const p = this.pool;
    this.pool = null;
    this.made = null;
    this.answered = false;
    if (p) await (await p).destroy();
  }
}

/** Milliseconds as seconds for a message: whole seconds from 10 s up. */
function seconds(ms: number): string {
  return ms >= 10_000 ? String(Math.round(ms / 1000)) : String(Number((ms / 1000).toFixed(2)));
}

function stringEnv(): Record<string, string> {
  return environment();
}
