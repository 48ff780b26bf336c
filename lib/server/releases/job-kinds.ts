/** The releases' job kind (#43: the jobs worker takes it from this feature's index). */
import { type JobContext, type JobKinds, jobDb } from "../kernel/job-context";
import { buildRelease } from "./releases";

/**
 * A release of the project (input: { version, names, notes }, checked by checkReleaseInput before
 * the job was queued): read in one snapshot, written, packed and stored by releases.ts. The
 * report is the release's id, version and SHA-256.
 */
async function releaseJob(ctx: JobContext): Promise<unknown> {
  const { version, names, notes } = ctx.job.input as { version: string; names?: boolean; notes?: boolean };
  await ctx.step(0, 0, `Making release ${version}…`);
  const db = jobDb(ctx);
  const r = await buildRelease(db, ctx.job.projectId, ctx.job.createdBy, { version, names, notes });
  return { id: r.id, version: r.version, sha256: r.archiveSha256, message: `Release ${r.version} is made (${r.fileName}).` };
}

export const RELEASES_JOB_KINDS: JobKinds = { release: releaseJob };
