/**
 * The bcrypt worker's entry: bundled by scripts/build-workers.mjs and run by
 * lib/server/runtime/hash-pool.ts in worker threads (tinypool), each thread at
 * nice 10 (Linux keeps the nice value per thread), so page requests get the
 * CPU first.
 */
import os from "node:os";
import bcrypt from "bcryptjs";

try {
  os.setPriority(0, 10);
} catch {
  /* not permitted: run at normal priority */
}

export type HashTask = { op: "hash"; password: string; cost: number } | { op: "compare"; password: string; hash: string };

/** One hash or compare (tinypool calls the default export with each task). */
export default function hashTask(job: HashTask): string | boolean {
  return job.op === "hash" ? bcrypt.hashSync(job.password, job.cost) : bcrypt.compareSync(job.password, job.hash);
}
