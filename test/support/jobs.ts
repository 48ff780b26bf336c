/** Jobs in tests: an upload waiting for its job, and a job run to its end. */
import fs from "node:fs";
import type { Db } from "../../db/client";
import type { Actor } from "../../lib/server/kernel/actor";
import { getJob, jobsIdle, startJob, uploadPath, type JobView } from "../../lib/server/jobs/jobs";

/** `bytes` written where uploads wait for their job; the path. */
export function upload(bytes: string | Uint8Array): string {
  const p = uploadPath();
  fs.writeFileSync(p, bytes);
  return p;
}

/** Start a job of `kind` as the fixture's coordinator and wait until every job has ended; the job then. */
export async function run(f: { db: Db; coord: Actor; project: { id: number } }, kind: string, input: Record<string, unknown>): Promise<JobView> {
  const job = startJob(f.db, f.coord, f.project.id, kind, input);
  await jobsIdle();
  return getJob(f.db, f.coord, job.id);
}
