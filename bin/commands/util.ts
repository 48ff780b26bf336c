import fs from "node:fs";
import os from "node:os";
import nodePath from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
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

/** The name a data file goes by in messages: `-` is standard input. */
export function inputName(path: string): string {
  return path === "-" ? "stdin" : path;
}

/** Standard input, read once (a second `-` gets the same bytes). */
let stdinBytes: Buffer | null = null;

function readStdinBytes(): Buffer {
  if (stdinBytes) return stdinBytes;
  if (process.stdin.isTTY) throw new CliError(`"-" reads standard input, which is a terminal here: pipe the file in (… | lexgold …)`);
  try {
    stdinBytes = fs.readFileSync(0);
  } catch (e) {
    throw new CliError(`cannot read standard input: ${(e as Error).message}`);
  }
  return stdinBytes;
}

/** Whether bytes open with gzip's magic number (1f 8b). */
function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * A data file's bytes: `-` is standard input, and a gzipped file (known by its
 * magic bytes, whatever its name) is unzipped. Fails with a one-line error naming it.
 */
export function readBytes(path: string): Uint8Array {
  let bytes: Buffer;
  if (path === "-") bytes = readStdinBytes();
  else {
    try {
      bytes = fs.readFileSync(path);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new CliError(`cannot read ${path}: ${code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (e as Error).message}`);
    }
  }
  if (!isGzip(bytes)) return bytes;
  try {
    return zlib.gunzipSync(bytes);
  } catch (e) {
    throw new CliError(`cannot unzip ${inputName(path)}: ${(e as Error).message}`);
  }
}

/** A data file's text (as readBytes reads it; bytes that are not UTF-8 read as U+FFFD). */
export function readText(path: string): string {
  return Buffer.from(readBytes(path)).toString("utf8");
}

/** Whether a file opens with gzip's magic bytes (false when it cannot be read). */
export function fileIsGzip(path: string): boolean {
  try {
    const fd = fs.openSync(path, "r");
    try {
      const head = Buffer.alloc(2);
      return isGzip(head.subarray(0, fs.readSync(fd, head, 0, 2, 0)));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

/** Temporary copies made by `localFile`, removed when the process exits. */
let tempDir: string | null = null;

/**
 * A plain file holding the data a command line names, for readers that read a
 * file by its path, in pieces and more than once (`lexgold score`): the path
 * itself for a plain file; for `-` (standard input) or a gzipped file (by its
 * magic bytes) a temporary copy, unzipped, removed at exit.
 */
export async function localFile(path: string): Promise<string> {
  // An unreadable file is the reader's to report.
  if (path !== "-" && !fileIsGzip(path)) return path;
  if (tempDir === null) {
    const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), "lexgold-"));
    tempDir = dir;
    process.on("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  const copy = nodePath.join(tempDir, `${fs.readdirSync(tempDir).length}`);
  // Standard input is read whole (readBytes unzips it); a file is unzipped as it is copied.
  if (path === "-") fs.writeFileSync(copy, readBytes("-"));
  else {
    try {
      await pipeline(fs.createReadStream(path), zlib.createGunzip(), fs.createWriteStream(copy));
    } catch (e) {
      throw new CliError(`cannot unzip ${path}: ${(e as Error).message}`);
    }
  }
  return copy;
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
