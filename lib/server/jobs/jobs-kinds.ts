/**
 * The kinds of job the worker thread runs (lib/server/jobs/jobs.ts runs the worker), gathered from
 * the features that own them (#43): each feature writes its kinds in its own job-kinds.ts and its
 * index exports them as a registry (`JobKinds`, lib/server/kernel/job-context.ts); nothing here
 * reaches into a feature. The worker bundle is built from these imports with esbuild
 * (`server-only` stubbed out); kinds talk to SQLite through better-sqlite3 (`ctx.sqlite`), or
 * through drizzle over it (`jobDb(ctx)`) to reuse a feature's functions.
 *
 * Adding a kind (e.g. a new import):
 *   1. in the feature's job-kinds.ts, write `async function myImport(ctx: JobContext): Promise<unknown>`
 *      that does its work in short transactions on `ctx.sqlite`, calling `await ctx.step(done, total, message)`
 *      between them (records progress, lets saves in, throws JobCancelled if the coordinator
 *      cancelled) and returns the report (stored as JSON, shown when done); throw InputError for a
 *      refusal (its message and details are shown);
 *   2. add it to the feature's registry under its kind name (a feature new to jobs: export its
 *      registry from its index and add it below);
 *   3. start it from a route with `answerWithJob(db, actor, projectId, { kind: "my-kind", input, … })`
 *      (or an action with `startJob`; input: JSON, e.g. the temp file `saveUpload` wrote; the worker
 *      deletes `input.path`, and every file of `input.paths`, when done).
 * If the job writes rows that must stay invisible until it completes, use a holding project as
 * corpus/lexelt-import.ts does, and set `ctx.setStaging(id)` so a killed job's rows are deleted at
 * the next start.
 */
import type { JobHandler } from "../kernel/job-context";
import { ANNOTATE_JOB_KINDS } from "../annotate";
import { CORPUS_JOB_KINDS } from "../corpus";
import { MODELS_JOB_KINDS } from "../models";
import { RELEASES_JOB_KINDS } from "../releases";
import { SCORING_JOB_KINDS } from "../scoring";

export { JobCancelled, type JobContext } from "../kernel/job-context";

export const JOB_KINDS: Record<string, JobHandler> = {
  ...RELEASES_JOB_KINDS,
  ...SCORING_JOB_KINDS,
  ...CORPUS_JOB_KINDS,
  ...ANNOTATE_JOB_KINDS,
  ...MODELS_JOB_KINDS,
};
