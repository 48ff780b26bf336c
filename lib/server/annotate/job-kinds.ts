/** The responses' job kinds (#43: the jobs worker takes them from this feature's index): a TSV previewed, then imported. */
import fs from "node:fs";
import { type JobContext, type JobKinds, jobDb } from "../kernel/job-context";
import { decodeResponsesFile, planResponseImport, previewOf, writeResponsePlan } from "./response-import";

/**
 * A responses TSV already on disk (input: { path, fileName, acceptUnassigned, strict, token? }):
 * "responses-preview" reports what importing it would do (writing nothing); "responses-import"
 * does it in one transaction, refused unless it would do exactly what the preview with `token`
 * showed and no response it writes changed since. Reading and checking a file of hundreds of
 * thousands of lines takes seconds: here, not on the request thread. The plan and the write use
 * response-import.ts itself (through drizzle on this thread's connection), so the rules are the
 * ones the CLI and the library apply.
 */
async function responsesJob(ctx: JobContext, write: boolean): Promise<unknown> {
  const { path, fileName, acceptUnassigned, strict, token } = ctx.job.input as { path: string; fileName: string; acceptUnassigned?: boolean; strict?: boolean; token?: string };
  await ctx.step(0, 0, `Reading ${fileName}…`);
  const text = decodeResponsesFile(fileName, fs.readFileSync(path));
  await ctx.step(0, 0, `Checking ${fileName} against the project…`);
  const db = jobDb(ctx);
  const opts = { acceptUnassigned: acceptUnassigned === true, strict: strict === true, expectedToken: write ? (token ?? "") : undefined };
  // The coordinator who started the job (null: the operator) for the crowd participants they may carry.
  const plan = planResponseImport(db, ctx.job.projectId, { fileName, text }, opts, ctx.job.createdBy);
  if (!write) return previewOf(plan, opts.acceptUnassigned, opts.strict);
  await ctx.step(0, plan.writes.length, `Writing ${plan.writes.length} changes…`);
  return writeResponsePlan(db, ctx.job.projectId, plan, opts);
}

export const ANNOTATE_JOB_KINDS: JobKinds = {
  "responses-preview": (ctx) => responsesJob(ctx, false),
  "responses-import": (ctx) => responsesJob(ctx, true),
};
