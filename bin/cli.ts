/**
 * lexgold CLI entry point. Argument parsing and file I/O only: every command
 * calls into lib/. Commands live one module each under bin/commands/ and are
 * parsed by commander (bin/program.ts), loaded here only when needed: the most
 * common call, `lexgold score SYSTEM GOLD [-t best|oot]`, is tried first
 * without them (commands/score-plain.ts). Each command loads what its action
 * needs with `await import()` inside the action, so `--help` (and `score`)
 * never load the database layer. bin/lexgold (bin/lexgold.cjs) imports the
 * bundle of this file (scripts/build-cli.mjs) and calls `main`, after trying
 * the plain score call itself.
 */
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { exitWithError, guardOutput } from "./output";

/**
 * Run the command in process.argv. `plainTried`: bin/lexgold.cjs has already
 * offered the arguments to the plain score call, which declined.
 */
export async function main(options: { plainTried?: boolean } = {}): Promise<void> {
  guardOutput();
  try {
    if (process.argv[2] === "score" && !options.plainTried) {
      const { scorePlain } = await import("./commands/score-plain");
      if (scorePlain(process.argv.slice(3))) return;
    }
    const { buildProgram, CommanderError } = await import("./program");
    try {
      await buildProgram().parseAsync(process.argv);
    } catch (err) {
      // commander has already printed its message (help, or a usage error).
      if (err instanceof CommanderError) process.exit(err.exitCode);
      throw err;
    }
  } catch (err) {
    // Loaded here, not at the top: the plain score path needs nothing else first.
    const { CliError } = await import("./commands/util");
    exitWithError(err, CliError);
  }
}

// Run directly (`node dist-cli/lexgold.mjs`, or bin/cli.ts through tsx); bin/lexgold.cjs imports it and calls main.
if (isMainModule()) void main();

function isMainModule(): boolean {
  try {
    return !!process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}
