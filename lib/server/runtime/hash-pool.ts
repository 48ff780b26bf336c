/**
 * bcrypt on worker threads, so a burst of sign-ins never holds up the request
 * thread (bcryptjs's own async mode still runs on it, in 100 ms slices).
 * A small fixed pool (LEXGOLD_HASH_THREADS, default: the cores but one, at
 * least one) takes jobs in order; a worker that dies is replaced and its job
 * fails. The workers run at a lower CPU priority than the request thread
 * (nice 10, Linux), and load bcryptjs from the project's node_modules.
 */
import "server-only";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { projectRoot } from "../../../db/client";

type Job = { op: "hash"; password: string; cost: number } | { op: "compare"; password: string; hash: string };
interface Pending {
  job: Job;
  resolve: (v: string | boolean) => void;
  reject: (e: Error) => void;
}

const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
const bcrypt = createRequire(workerData.anchor)("bcryptjs");
// Below the request thread: on Linux the nice value is per thread (setpriority on the calling thread).
try { require("node:os").setPriority(0, workerData.nice); } catch {}
parentPort.on("message", (job) => {
  try {
    const result = job.op === "hash" ? bcrypt.hashSync(job.password, job.cost) : bcrypt.compareSync(job.password, job.hash);
    parentPort.postMessage({ result });
  } catch (e) {
    parentPort.postMessage({ error: String(e && e.message || e) });
  }
});
`;

/** The workers' nice value: bcrypt yields the CPU to page requests when both want it. */
const HASH_NICE = 10;

export function hashThreads(): number {
  const v = Number(process.env.LEXGOLD_HASH_THREADS);
  if (Number.isInteger(v) && v > 0) return v;
  return Math.max(1, (os.availableParallelism?.() ?? os.cpus().length) - 1);
}

class HashPool {
  private idle: Worker[] = [];
  private busy = new Map<Worker, Pending>();
  private queue: Pending[] = [];
  private size = 0;

  constructor(private readonly max: number) {}

  run(job: Job): Promise<string | boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  private spawn(): Worker {
    const w = new Worker(WORKER_SOURCE, { eval: true, workerData: { anchor: path.join(projectRoot(), "package.json"), nice: HASH_NICE } });
    w.unref();
    this.size++;
    w.on("message", (m: { result?: string | boolean; error?: string }) => {
      const p = this.busy.get(w);
      this.busy.delete(w);
      this.idle.push(w);
      if (p) {
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.result!);
      }
      this.pump();
    });
    const lost = (e: Error) => {
      const p = this.busy.get(w);
      this.busy.delete(w);
      this.idle = this.idle.filter((x) => x !== w);
      this.size--;
      p?.reject(e);
      this.pump();
    };
    w.on("error", lost);
    w.on("exit", (code) => {
      if (this.busy.has(w) || this.idle.includes(w)) lost(new Error(`bcrypt worker exited (${code})`));
    });
    return w;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const w = this.idle.pop() ?? (this.size < this.max ? this.spawn() : null);
      if (!w) return;
      const p = this.queue.shift()!;
      this.busy.set(w, p);
      w.postMessage(p.job);
    }
  }
}

let pool: HashPool | null = null;
function thePool(): HashPool {
  pool ??= new HashPool(hashThreads());
  return pool;
}

export async function hashOnPool(password: string, cost: number): Promise<string> {
  return (await thePool().run({ op: "hash", password, cost })) as string;
}

export async function compareOnPool(password: string, hash: string): Promise<boolean> {
  return (await thePool().run({ op: "compare", password, hash })) as boolean;
}
