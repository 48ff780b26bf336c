/**
 * Output closed early (`lexgold user list | head -1`): stop quietly, exit 0, as
 * a reader that has had enough is no failure. Any other write error (a full
 * disk) is one line on stderr, exit 1. Installed once per process, for every
 * command, by whichever part of the CLI runs first (bin/lexgold.cjs's plain
 * score call, or bin/cli.ts).
 */
const GUARDED = Symbol.for("lexgold.output-guarded");

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

export function guardOutput(): void {
  const p = process as unknown as Record<symbol, boolean>;
  if (p[GUARDED]) return;
  p[GUARDED] = true;
  process.stdout.on("error", onOutputError);
  process.stderr.on("error", onOutputError);
}

/**
 * Report a failed command and exit: a CliError (passed in, as each bundle has
 * its own class) with its message and exit code, anything else with its first
 * line (the stack with LEXGOLD_DEBUG) and exit 1.
 */
export function exitWithError(err: unknown, cliError: abstract new (...args: never[]) => Error & { exitCode: number }): never {
  if (err instanceof cliError) {
    process.stderr.write(`lexgold: ${err.message}\n`);
    process.exit(err.exitCode);
  }
  const msg = err instanceof Error ? err.message : String(err);
  process.stderr.write(`lexgold: ${msg.split("\n")[0]}\n`);
  if (process.env.LEXGOLD_DEBUG) console.error(err);
  process.exit(1);
}
