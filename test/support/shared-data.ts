/**
 * The real files beside the checkout, in ../shared (the SemEval-2007 task's own files, CoInCo,
 * SWORDS, TSAR/MLSP, the sister tasks' samples). The project's tests pass without them; the suites
 * that compare against them run only when they are there: `describeWithSharedData(files, name, fn)`
 * for a suite (its body, which reads the files, is not run without them), `hasSharedData(file)` as
 * the condition of one test. Either records what was missing and where, and the run ends by naming
 * every suite skipped that way and the file it lacked (test/support/skip-report.ts), so that a green
 * run without ../shared never passes for a full one.
 */
import { appendFileSync, existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** Where the skipped suites are recorded for this run (set by test/support/skip-report.ts). */
export const SKIP_LOG_VAR = "LEXGOLD_TEST_SKIP_LOG";

/** Whether `file` (a path under ../shared) is there; when it is not, its test file's skips are recorded. */
export function hasSharedData(file: string): boolean {
  if (existsSync(file)) return true;
  record(file);
  return false;
}

function record(missing: string): void {
  const log = process.env[SKIP_LOG_VAR];
  const testFile = expect.getState().testPath ?? "";
  if (log) appendFileSync(log, `${JSON.stringify({ testFile, missing })}\n`);
}

/**
 * A suite that reads `files` (paths under ../shared): run as `describe(name, fn)` when they are all
 * there; otherwise skipped without running `fn` (which would read them), its absence recorded.
 */
export function describeWithSharedData(files: string | readonly string[], name: string, fn: () => void): void {
  const missing = [files].flat().filter((f) => !existsSync(f));
  if (missing.length === 0) return void describe(name, fn);
  for (const f of missing) record(f);
  describe.skip(name, () => {
    it(`needs ${missing.map((f) => path.basename(f)).join(", ")} from ../shared`, () => {});
  });
}
