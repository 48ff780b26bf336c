/**
 * lexgold CLI entry point. Argument parsing and file I/O only: every command
 * calls into lib/. Commands live one module each under bin/commands/ and are
 * parsed by commander (bin/program.ts), loaded here only when needed: the most
 * common call, `lexgold score SYSTEM GOLD [-t best|oot]`, is tried first
 * without them (commands/score-plain.ts). Each command loads what its action
 * needs with `await import()` inside the action, so `--help` (and `score`)
 * never load the database layer. bin/lexgold runs the bundle of this file
 * (scripts/build-cli.mjs).
 */
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

async function main(): Promise<void> {
  try {
    if (process.argv[2] === "score") {
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
