/** Scoring's job kinds (#43: the jobs worker takes them from this feature's index): a system run and a gold, stored from an upload. */
import fs from "node:fs";
import { type JobContext, type JobKinds, jobDb } from "../kernel/job-context";
import { storeGoldUpload } from "./golds";
import { storeRunFile } from "./runs";
import { readUpload } from "./uploads";

/**
 * A system file already on disk stored as a run (input: { path, fileName, type, name, gold, confirm }):
 * read twice in pieces as it is unzipped and decoded — to check it, then to write it a slice at a
 * time with each id's outcome (runs.ts `storeRunFile`, #39) — never one string; between slices the
 * job records its progress and pauses, so annotators' saves get the write lock (#38 finding 5). A
 * run with errors is refused unless `confirm`, writing nothing. The report is what `uploadRun` returns.
 */
async function scoringRunJob(ctx: JobContext): Promise<unknown> {
  const { path, fileName, type, name, gold, confirm } = ctx.job.input as { path: string; fileName: string; type?: string; name?: string; gold?: string; confirm?: boolean };
  await ctx.step(0, 0, `Reading ${fileName}…`);
  const db = jobDb(ctx);
  return storeRunFile(db, ctx.job.projectId, ctx.job.createdBy, { fileName, source: await fs.openAsBlob(path), type, name, gold, confirm: confirm === true }, (done, total) =>
    ctx.step(done, total, `Storing ${fileName}: ${done.toLocaleString("en")} of ${total.toLocaleString("en")} lines…`),
  );
}

type UploadedFile = { path: string; fileName: string } | null;

/**
 * Gold and/or mwgold files already on disk stored for scoring (input: { name, gold, mwgold, paths }),
 * each { path, fileName } or null: read and checked here, as `scoringRunJob`. The report is { id }.
 */
async function scoringGoldJob(ctx: JobContext): Promise<unknown> {
  const { name, gold, mwgold } = ctx.job.input as { name?: string; gold: UploadedFile; mwgold: UploadedFile };
  await ctx.step(0, 0, `Reading ${gold?.fileName ?? mwgold?.fileName ?? "the gold"}…`);
  const read = async (f: UploadedFile, field: string) => (f ? readUpload(f.fileName, await fs.openAsBlob(f.path), field) : null);
  const texts = { gold: await read(gold, "gold"), mwgold: await read(mwgold, "mwgold") };
  const db = jobDb(ctx);
  return { id: storeGoldUpload(db, ctx.job.projectId, ctx.job.createdBy, { name, ...texts }) };
}

export const SCORING_JOB_KINDS: JobKinds = {
  "scoring-run": scoringRunJob,
  "scoring-gold": scoringGoldJob,
};
