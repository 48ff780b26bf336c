import fs from "node:fs";
import type { Command } from "commander";
import { formatDiagnostic, type Diagnostic } from "../../lib/lexsub/diagnostics";

/** An error the CLI prints as one line `lexgold: message` before exiting non-zero. */
export class CliError extends Error {
  constructor(
    message: string,
    public exitCode = 1,
  ) {
    super(message);
  }
}

/** Read a text file or fail with a one-line error naming it. */
export function readText(path: string): string {
  try {
    return fs.readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${path}: ${code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
}

/** A file's bytes, for readers that decode (and refuse bad UTF-8) themselves. */
export function readBytes(path: string): Uint8Array {
  try {
    return fs.readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${path}: ${code === "ENOENT" ? "no such file" : (e as Error).message}`);
  }
}

export function printDiagnostics(ds: readonly Diagnostic[]): void {
  for (const d of ds) process.stderr.write(formatDiagnostic(d) + "\n");
}

/** Read all of stdin (for passwords piped in). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export type Register = (program: Command) => void;

/** The `--db PATH` option every database command takes. */
export function dbOption(cmd: Command): Command {
  return cmd.option("--db <path>", "SQLite database file (default: $LEXGOLD_DB or data/lexgold.db)");
}

/** Open the database a command names, creating and migrating it as needed. */
export async function openCliDb(opts: { db?: string }) {
  const { openDb, resolveDbPath } = await import("../../db/client");
  return openDb(resolveDbPath(opts.db));
}

/** Run a data-access call, turning its errors into one-line CLI errors. */
export function run<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof Error && "status" in e) throw new CliError(e.message);
    throw e;
  }
}

/**
 * A password piped in: one line (its line break dropped), or the same line twice, as a script
 * answers a command that asks twice on a terminal. Anything else is refused: read whole, two
 * lines became one password with a line break inside, that no sign-in form can type.
 */
function pipedPassword(text: string): string {
  const lines = text.replace(/\r?\n$/, "").split(/\r?\n/);
  if (lines.length === 1 || (lines.length === 2 && lines[0] === lines[1])) return lines[0];
  throw new CliError(
    `stdin holds ${lines.length === 2 ? "two different lines" : `${lines.length} lines`}, and a password is one line: ` +
      `pipe it once (printf '%s\\n' "$PW" | lexgold …); nothing was written.`,
  );
}

/** Read a password: from stdin when piped, else prompted (not echoed) on the terminal. */
export async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return pipedPassword(await readStdin());
  const readline = await import("node:readline");
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    const out = rl as unknown as { _writeToOutput: (s: string) => void; output: NodeJS.WritableStream };
    let prompted = false;
    out._writeToOutput = (s: string) => {
      if (!prompted) {
        out.output.write(s);
        prompted = true;
      }
    };
    rl.question(prompt, (answer) => {
      rl.close();
      process.stderr.write("\n");
      resolve(answer);
    });
  });
}
