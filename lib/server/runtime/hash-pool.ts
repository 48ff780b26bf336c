/**
 * bcrypt on worker threads, so a burst of sign-ins never holds up the request
 * thread (bcryptjs's own async mode still runs on it, in 100 ms slices).
 * A small fixed pool (LEXGOLD_HASH_THREADS, default: the cores but one, at
 * least one) of the runtime's workers (pool.ts; the entry is hash-worker.ts,
 * built with the app) takes jobs in order; a worker that dies is replaced and
 * its job fails. The threads run at a lower CPU priority than the request
 * thread (nice 10, Linux).
 */
import "server-only";
import os from "node:os";
import { setting } from "../../config";
import type { HashTask } from "./hash-worker";
import { WorkerPool } from "./pool";

export function hashThreads(): number {
  const v = setting("LEXGOLD_HASH_THREADS");
  if (v !== undefined) return v;
  return Math.max(1, (os.availableParallelism?.() ?? os.cpus().length) - 1);
}

// On globalThis: Next may load this module once per server bundle; one pool per process.
const g = globalThis as unknown as { lexgoldHashPool?: WorkerPool };
function thePool(): WorkerPool {
  return (g.lexgoldHashPool ??= new WorkerPool({
    worker: "hash",
    what: "The password check",
    runtime: "worker_threads",
    threads: hashThreads(),
    // One thread stays (a sign-in never waits for a thread to start); the others leave after 10 minutes idle.
    minThreads: 1,
    idleMs: 10 * 60_000,
    heapMb: 64,
    heapVar: "",
    timeMs: 0,
    timeVar: "",
  }));
}

function run<T extends string | boolean>(task: HashTask): Promise<T> {
  return thePool().run<T>(task);
}

export async function hashOnPool(password: string, cost: number): Promise<string> {
  return run<string>({ op: "hash", password, cost });
}

export async function compareOnPool(password: string, hash: string): Promise<boolean> {
  return run<boolean>({ op: "compare", password, hash });
}
