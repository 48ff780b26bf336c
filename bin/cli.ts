/**
 * lexgold CLI entry point. Argument parsing and file I/O only: every command
 * calls into lib/. Commands live one module each under bin/commands/; each
 * loads what its action needs with `await import()` inside the action, so
 * `--help` (and `score`) never load the database layer. bin/lexgold runs the
 * bundle of this file (scripts/build-cli.mjs).
 */
import { Command, CommanderError } from "commander";
import { commands } from "./commands/index";
import { CliError } from "./commands/util";

/**
 * Output closed early (`lexgold user list | head -1`): stop quietly, exit 0, as
 * a reader that has had enough is no failure. Any other write error (a full
 * disk) is one line on stderr, exit 1. Once, here, for every command.
 */
function onOutputError(this: NodeJS.WriteStream, e: NodeJS.ErrnoException): void {
  if (e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED") process.exit(0);
  if (this !== process.stderr) {
    try {
      process.stderr.write(`lexgold: cannot write the output: ${e.message}\n`);
    } catch {
      // stderr is gone too
    }
  }
  process.exit(1);
}
process.stdout.on("error", onOutputError);
process.stderr.on("error", onOutputError);

const program = new Command();
program
  .name("lexgold")
  .description("Build lexical-substitution gold standards and score systems against them.")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

for (const register of commands) register(program);

async function main(): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander has already printed its message (help, or a usage error).
      process.exit(err.exitCode);
    }
    if (err instanceof CliError) {
      process.stderr.write(`lexgold: ${err.message}\n`);
      process.exit(err.exitCode);
    }
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`lexgold: ${msg.split("\n")[0]}\n`);
    if (process.env.LEXGOLD_DEBUG) console.error(err);
    process.exit(1);
  }
}

void main();
