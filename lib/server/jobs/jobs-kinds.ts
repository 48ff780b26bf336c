/**
 * The kinds of job the worker thread runs (lib/server/jobs/jobs.ts runs the worker).
 * The worker bundle is built from this file's imports with esbuild (`server-only`
 * stubbed out); kinds talk to SQLite through better-sqlite3 (`ctx.sqlite`), or
 * through drizzle over it to reuse a library module (the responses import).
 *
 * Adding a kind (e.g. a CoInCo or SWORDS import):
 *   1. write `async function myImport(ctx: JobContext): Promise<unknown>` that does
 *      its work in short transactions on `ctx.sqlite`, calling `await ctx.step(done, total, message)`
 *      between them (records progress, lets saves in, throws JobCancelled if the
 *      coordinator cancelled) and returns the report (stored as JSON, shown when done);
 *      throw InputError for a refusal (its message and details are shown);
 *   2. add it to JOB_KINDS below under its kind name;
 *   3. start it from a route or action with `startJob(db, actor, projectId, "my-kind", input)`
 *      (input: JSON, e.g. the temp file `saveUpload` wrote; the worker deletes `input.path`, and every
 *      file of `input.paths`, when done).
 * If the job writes rows that must stay invisible until it completes, use a
 * holding project as lexelt-import.ts does, and set `ctx.setStaging(id)` so a
 * killed job's rows are deleted at the next start.
 */
import fs from "node:fs";
import type Database from "better-sqlite3";
import { type DatasetFormat, discardDatasetStaging, stagedDatasetImport } from "../corpus/dataset-import";
import { discardStaging, stagedLexeltImport } from "../corpus/lexelt-import";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { Db } from "../../../db/client";
import * as schema from "../../../db/schema";
import { immediateByDefault } from "../../../db/immediate";
import { InputError } from "../kernel/errors";
import { decodeResponsesFile, planResponseImport, previewOf, writeResponsePlan } from "../annotate/response-import";
import { storeGoldUpload } from "../scoring/golds";
import { storeRunFile } from "../scoring/runs";
import { readUpload } from "../scoring/uploads";
import { buildRelease } from "../releases/releases";
import { JobCancelled, type JobContext, type JobHandler } from "../kernel/job-context";
import { modelMeasuresJob } from "../models/measures-job";
import { modelRunJob } from "../models/run";

export { JobCancelled, type JobContext };

/**
 * Drive a staged import (lexelt-import.ts, dataset-import.ts) from the worker: progress after each
 * slice (`message` names the step; null skips it), its holding project recorded for recovery, and
 * discarded in slices when the import is refused or cancelled.
 */
async function runStaged<P extends { done: number; total: number }, R>(
  ctx: JobContext,
  steps: Generator<P, R>,
  state: { stagingProjectId: number | null },
  discard: (sqlite: Database.Database, stagingProjectId: number) => Generator<number, void>,
  message: (p: P) => string | null,
): Promise<R> {
  try {
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      ctx.setStaging(state.stagingProjectId);
      const m = message(r.value);
      if (m !== null) await ctx.step(r.value.done, r.value.total, m);
    }
  } catch (e) {
    if (state.stagingProjectId !== null) {
      for (const _ of discard(ctx.sqlite, state.stagingProjectId)) await new Promise((r) => setTimeout(r, 1));
      ctx.setStaging(null);
    }
    throw e;
  }
}

/** A lexelt XML file already on disk (input: { path, fileName, maxBytes }). */
async function lexeltXmlImport(ctx: JobContext): Promise<unknown> {
  const { path, fileName, maxBytes } = ctx.job.input as { path: string; fileName: string; maxBytes: number };
  await ctx.step(0, 0, `Reading ${fileName}…`);
  const bytes = fs.readFileSync(path);
  const state = { stagingProjectId: null as number | null };
  const steps = stagedLexeltImport(
    ctx.sqlite,
    { projectId: ctx.job.projectId, fileName, bytes, importedBy: ctx.job.createdBy, maxBytes, jobId: ctx.job.id },
    state,
  );
  return runStaged(ctx, steps, state, discardStaging, (p) =>
    p.phase === "published"
      ? null
      : p.phase === "parsed"
        ? `Read ${p.total} ${p.total === 1 ? "instance" : "instances"}; checking them against the project…`
        : p.phase === "checked" && p.done === 0 && state.stagingProjectId === null
          ? `Checking instances…`
          : `Writing instances…`,
  );
}

/** A CoInCo, SWORDS or TSAR file already on disk (input: { path, fileName, format, idPrefix?, strict?, onlyLanguage?, maxBytes }). */
async function datasetImport(ctx: JobContext): Promise<unknown> {
  const { path, fileName, format, idPrefix, strict, onlyLanguage, maxBytes } = ctx.job.input as { path: string; fileName: string; format: DatasetFormat; idPrefix?: string; strict?: boolean; onlyLanguage?: string; maxBytes: number };
  await ctx.step(0, 0, `Reading ${fileName}…`);
  const bytes = fs.readFileSync(path);
  const state = { stagingProjectId: null as number | null };
  const steps = stagedDatasetImport(
    ctx.sqlite,
    { input: { format, fileName, bytes, idPrefix, strict: strict === true, onlyLanguage }, projectId: ctx.job.projectId, importedBy: ctx.job.createdBy, maxBytes, jobId: ctx.job.id },
    state,
  );
  return runStaged(ctx, steps, state, discardDatasetStaging, (p) =>
    p.phase === "published" ? null : p.phase === "parsed" ? `Read ${p.total} ${p.total === 1 ? "target" : "targets"}; writing them…` : `Writing targets…`,
  );
}

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
  const db = immediateByDefault(drizzle(ctx.sqlite, { schema })) as unknown as Db;
  const opts = { acceptUnassigned: acceptUnassigned === true, strict: strict === true, expectedToken: write ? (token ?? "") : undefined };
  // The coordinator who started the job (null: the operator) for the crowd participants they may carry.
  const plan = planResponseImport(db, ctx.job.projectId, { fileName, text }, opts, ctx.job.createdBy);
  if (!write) return previewOf(plan, opts.acceptUnassigned, opts.strict);
  await ctx.step(0, plan.writes.length, `Writing ${plan.writes.length} changes…`);
  return writeResponsePlan(db, ctx.job.projectId, plan, opts);
}

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
  const db = immediateByDefault(drizzle(ctx.sqlite, { schema })) as unknown as Db;
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
  const db = immediateByDefault(drizzle(ctx.sqlite, { schema })) as unknown as Db;
  return { id: storeGoldUpload(db, ctx.job.projectId, ctx.job.createdBy, { name, ...texts }) };
}

/**
 * A release of the project (input: { version, names, notes }, checked by checkReleaseInput before
 * the job was queued): read in one snapshot, written, packed and stored by releases.ts. The
 * report is the release's id, version and SHA-256.
 */
async function releaseJob(ctx: JobContext): Promise<unknown> {
  const { version, names, notes } = ctx.job.input as { version: string; names?: boolean; notes?: boolean };
  await ctx.step(0, 0, `Making release ${version}…`);
  const db = immediateByDefault(drizzle(ctx.sqlite, { schema })) as unknown as Db;
  const r = await buildRelease(db, ctx.job.projectId, ctx.job.createdBy, { version, names, notes });
  return { id: r.id, version: r.version, sha256: r.archiveSha256, message: `Release ${r.version} is made (${r.fileName}).` };
}

export const JOB_KINDS: Record<string, JobHandler> = {
  release: releaseJob,
  "scoring-run": scoringRunJob,
  "scoring-gold": scoringGoldJob,
  "lexelt-xml": lexeltXmlImport,
  dataset: datasetImport,
  "responses-preview": (ctx) => responsesJob(ctx, false),
  "responses-import": (ctx) => responsesJob(ctx, true),
  // lib/server/models (issue #41): a model's run over a project, and the Agreement tab's Models section.
  "model-run": modelRunJob,
  "model-measures": modelMeasuresJob,
};
