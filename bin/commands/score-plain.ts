/**
 * `lexgold score SYSTEM GOLD [-t best|oot] [--json] [-q]` — the scorer's most
 * common call — without loading commander or the other commands: bin/lexgold.cjs
 * (and bin/cli.ts, run on its own) tries it first, and it answers only when
 * the arguments are in exactly these forms and the fast lane answers for the files (see
 * lib/scorers/semeval2007/fast.ts). Otherwise it returns false and the full command
 * (score.ts) runs, which prints the same for the same files. With a
 * 15,000-item file most of the time is then Node's own start.
 */
import fs from "node:fs";
import v8 from "node:v8";
import { scoreFast } from "./score-files";
import { exitWithError } from "../output";
import { Out, printFastScore } from "./score-output";
import { CliError, fileIsGzip } from "./util";
// bin/lexgold.cjs loads this module first, on its own: it installs the output guard from here.
export { guardOutput } from "../output";

/** Report an error scorePlain threw, as the CLI reports any, and exit (this module's CliError is its own). */
export function exitWithPlainError(err: unknown): never {
  exitWithError(err, CliError);
}

interface PlainArgs {
  system: string;
  gold: string;
  type: "best" | "oot";
  json: boolean;
  quiet: boolean;
  utf8: boolean;
}

/** The arguments after `score`, when they are two file names and only -t/--type best|oot, --json, -q/--quiet, --utf8; else null. */
export function plainArgs(args: readonly string[]): PlainArgs | null {
  const files: string[] = [];
  let type: "best" | "oot" = "best";
  let json = false;
  let quiet = false;
  let utf8 = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "-t" || a === "--type") {
      const t = args[++i];
      if (t !== "best" && t !== "oot") return null;
      type = t;
    } else if (a === "--json") json = true;
    else if (a === "-q" || a === "--quiet") quiet = true;
    else if (a === "--utf8") utf8 = true;
    else if (a.length > 0 && !a.startsWith("-")) files.push(a);
    else return null;
  }
  if (files.length !== 2) return null;
  return { system: files[0], gold: files[1], type, json, quiet, utf8 };
}

/** Score through the fast lane and print as `lexgold score` does; false (nothing printed) when it does not apply. */
export function scorePlain(args: readonly string[]): boolean {
  if (process.env.LEXGOLD_SCORE_LANE === "full") return false;
  const a = plainArgs(args);
  if (!a) return false;
  // A gzipped file: the full command unzips it first, then scores it through the lane.
  if (fileIsGzip(a.system) || fileIsGzip(a.gold)) return false;
  tuneForShortRun(a.system, a.gold);
  const fast = scoreFast(a.system, a.gold, a.type, a.system, a.gold, a.utf8 ? "utf8" : "bytes");
  // Read as bytes, files the UTF-8 reading could score differently: the full command adds that reading's figures.
  if (fast && !a.utf8 && fast.utf8CouldDiffer) return false;
  if (!fast) {
    // The lane declined these files: the full command (score.ts) would only try it again, reading
    // them a second time. Its documented switch sends it straight to the full reader.
    process.env.LEXGOLD_SCORE_LANE = "full";
    return false;
  }
  const out = new Out();
  try {
    printFastScore(fast, a.system, a.gold, a.type, a, out);
  } finally {
    out.flush();
  }
  return true;
}

/** Files together at most this large (some 40,000 best items) make a short run. */
export const SHORT_RUN_BYTES = 8 << 20;
/** V8's optimizing compiler without inlining or loop peeling: it compiles the lane's loops in about half the time. */
export const SHORT_RUN_V8_FLAGS = "--max-inlined-bytecode-size=0 --no-turbo-loop-peeling";

/**
 * A short run (a 15,000-item file) spends most of its scoring time in the
 * lane's loops before V8 has compiled them: the interpreter runs them for
 * thousands of lines while the optimizing compiler works on them in the
 * background (for 20 ms and more on a slow machine). Cheaper compiles finish
 * sooner, which more than pays for the less inlined code on such a run (46 ms
 * of scoring became 32 ms here); on a large one the better code wins, so this
 * is for short runs only, and only in this process (the CLI's). Set before
 * the lane runs: V8 reads the flags when it compiles a function.
 */
export function tuneForShortRun(system: string, gold: string): void {
  let bytes: number;
  try {
    bytes = fs.statSync(system).size + fs.statSync(gold).size;
  } catch {
    return; // the scorer reports the unreadable file
  }
  if (bytes <= SHORT_RUN_BYTES) v8.setFlagsFromString(SHORT_RUN_V8_FLAGS);
}
