/**
 * The corpus's job kinds (#43: the jobs worker takes them from this feature's index): a lexelt XML
 * file and a published dataset (CoInCo, SWORDS, TSAR), each imported into a holding project a
 * slice at a time and published at the end (lexelt-import.ts, dataset-import.ts).
 */
import fs from "node:fs";
import type Database from "better-sqlite3";
import type { JobContext, JobKinds } from "../kernel/job-context";
import { type DatasetFormat, discardDatasetStaging, stagedDatasetImport } from "./dataset-import";
import { discardStaging, stagedLexeltImport } from "./lexelt-import";

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

export const CORPUS_JOB_KINDS: JobKinds = {
  "lexelt-xml": lexeltXmlImport,
  dataset: datasetImport,
};
