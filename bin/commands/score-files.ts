/**
 * The file edge of the SemEval-2007 scorer for the command line (node only:
 * reads files; lib/scorers stays pure). `forEachLine` reads a file line by
 * line for `lexgold score`, so a million-item system file is never held in
 * memory: only the scoring key is; `scoreFast` feeds the fast lane
 * (lib/scorers/semeval2007/fast.ts) pieces of whole lines.
 */
import fs from "node:fs";
import { type Diagnostic } from "../../lib/lexsub/diagnostics";
import { FastKey, type FastScore, FastScorer } from "../../lib/scorers/semeval2007/fast";
import { type Reading } from "../../lib/scorers/semeval2007/rules";

/** An unreadable file, with a one-line message naming it. */
export class FileReadError extends Error {}

function readError(name: string, e: unknown): FileReadError {
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : code === "EACCES" ? "permission denied" : (e as Error).message;
  return new FileReadError(`cannot read ${name}: ${why}`);
}

/** A read(2) that failed in `readPieces`. */
class ReadFailure extends Error {
  constructor(readonly cause: unknown) {
    super("read failed");
  }
}

/** Bytes read at a time; a longer line grows the buffer. */
const CHUNK = 1 << 16;

/**
 * Read an open file in pieces of whole lines, synchronously (read(2) into one
 * reused buffer): `piece(buf, end)` for each buf[0, end) ending with a "\n",
 * then `last(buf, end)` for the bytes after the final "\n" (perhaps none). A
 * line longer than the buffer grows it. Either callback answering false stops
 * the reading (false). A failed read throws a ReadFailure (its cause the
 * system's error); what the callbacks throw passes as it is.
 */
function readPieces(fd: number, size: number, piece: (buf: Buffer, end: number) => boolean, last: (buf: Buffer, end: number) => boolean): boolean {
  let buf = Buffer.allocUnsafe(size);
  let have = 0;
  for (;;) {
    let n: number;
    try {
      n = fs.readSync(fd, buf, have, buf.length - have, null);
    } catch (e) {
      throw new ReadFailure(e);
    }
    const end = have + n;
    if (n === 0) return last(buf, end);
    const nl = buf.lastIndexOf(10, end - 1);
    if (nl < 0) {
      // No newline yet: keep reading after what we have, in a larger buffer when full.
      if (end === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, end);
        buf = bigger;
      }
      have = end;
      continue;
    }
    if (!piece(buf, nl + 1)) return false;
    have = end - nl - 1;
    buf.copy(buf, 0, nl + 1, end);
  }
}

/**
 * Call `fn` with each line of a UTF-8 file (without its "\n"; a "\r" is kept
 * for the readers to report), reading 64 KiB at a time.
 *
 * Synchronous underneath (`readPieces`; each piece decoded once up to its
 * last newline; a newline byte never falls inside a UTF-8 sequence, so no
 * character is cut): no stream, promise or microtask per chunk, which is most
 * of a small file's cost. It holds the thread until the file is read: for the
 * CLI and worker threads, not a request handler.
 */
export async function forEachLine(path: string, fn: (line: string) => void, name = path): Promise<void> {
  let fd: number;
  try {
    fd = fs.openSync(path, "r");
  } catch (e) {
    throw readError(name, e);
  }
  try {
    readPieces(
      fd,
      CHUNK,
      (buf, end) => {
        const s = buf.toString("utf8", 0, end - 1);
        let start = 0;
        let nl: number;
        while ((nl = s.indexOf("\n", start)) >= 0) {
          fn(s.slice(start, nl));
          start = nl + 1;
        }
        fn(start === 0 ? s : s.slice(start));
        return true;
      },
      (buf, end) => {
        if (end > 0) fn(buf.toString("utf8", 0, end));
        return true;
      },
    );
  } catch (e) {
    if (e instanceof ReadFailure) throw readError(name, e.cause);
    throw e;
  } finally {
    fs.closeSync(fd);
  }
}

/** Gold files larger than this are streamed into the full scorer's key rather than read whole (see `scoreFast`). */
const FAST_GOLD_LIMIT = 1 << 29;

/** The fast lane's answer: the gold's diagnostics and |T|, and the system file's score. */
export interface FastFileScore {
  goldDiagnostics: Diagnostic[];
  total: number;
  score: FastScore;
  /** Whether the two readings read both files alike (perl-classes.ts `readingsAgreeOn`): the gold's lines the full reader took, and the system's lines outside the lane's form. */
  readingsAgree: boolean;
  /** Where they may not, whether the UTF-8 reading could change a figure (readings.ts, over the lines the lane met). */
  utf8CouldDiffer: boolean;
}

/**
 * best or oot in the default reading through the scorer's fast lane
 * (lib/scorers/semeval2007/fast.ts): the gold read whole as bytes, the system file in
 * pieces of whole lines. null when either file has a line outside the lane's
 * form, cannot be read, or the gold is very large: then score with
 * `ScoreRun`, which gives the same answer wherever this one answers (and
 * reports unreadable files). Holds the thread until done, like `forEachLine`.
 */
export function scoreFast(system: string, gold: string, type: "best" | "oot", systemName = system, goldName = gold, reading: Reading = "bytes"): FastFileScore | null {
  let key: FastKey | null;
  let fd: number;
  try {
    if (fs.statSync(gold).size > FAST_GOLD_LIMIT) return null;
    // A system file of CoInCo's size or so that the lane would give up on is the full reader's from
    // the start: the lane would build the gold's key only to give up at that line.
    if (fs.statSync(system).size <= PRESCAN_LIMIT && laneDeclines(fs.readFileSync(system))) return null;
    key = FastKey.build(fs.readFileSync(gold), { type, goldName, systemName, decode: decodeUtf8, reading });
    if (!key) return null;
    fd = fs.openSync(system, "r");
  } catch {
    return null;
  }
  try {
    const scorer = new FastScorer(key);
    const size = Math.min(FAST_CHUNK, fs.fstatSync(fd).size + 1);
    if (!readPieces(fd, size, (buf, end) => scorer.push(buf, 0, end), (buf, end) => scorer.pushLast(buf, 0, end))) return null;
    const readingsAgree = key.readingsAgree && scorer.readingsAgree;
    return { goldDiagnostics: key.diagnostics, total: key.totalInT, score: scorer.finish(), readingsAgree, utf8CouldDiffer: !readingsAgree && key.odd.couldDiffer(type) };
  } catch (e) {
    // An unreadable system file: the full reader reports it.
    if (e instanceof ReadFailure || (e as NodeJS.ErrnoException).code) return null;
    throw e;
  } finally {
    fs.closeSync(fd);
  }
}

/** System files read whole for `laneDeclines` at most (a larger one goes to the lane, which gives up where it must). */
const PRESCAN_LIMIT = 16 << 20;
/** What a repair reads otherwise, so the lane gives up on it: a CR (CRLF line ends), a space or tab beside a ";". */
const DECLINED = /\r|[ \t];|;[ \t]/;

/**
 * Whether the fast lane would surely give up on this system file (fast.ts): a line
 * a repair reads otherwise, CRLF line ends or spaces around a guess. Any other line
 * outside its form (a byte outside ASCII, a lexelt holding a space) it reads with the
 * full reader's reader and scores itself.
 */
export function laneDeclines(bytes: Uint8Array): boolean {
  return DECLINED.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
}

/** A line the fast lane hands the full reader, decoded as `forEachLine` decodes. */
function decodeUtf8(bytes: Uint8Array, from: number, to: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8", from, to);
}

/** Bytes of a system file read at a time by the fast lane. */
const FAST_CHUNK = 1 << 22;
