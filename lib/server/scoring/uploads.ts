/**
 * Reading the Scoring page's uploads (system runs, golds, SENSEVAL files): decoding with the size,
 * gzip, UTF-8 and NUL checks, the run type a file name implies, and the limits and names the other
 * parts share (runs.ts, golds.ts, scores.ts, senseval.ts).
 *
 * A gzip file (told by its magic bytes, whatever its name) is unzipped first, bounded as the dataset
 * imports bound theirs: the unzipped text is held to the same limit as a plain file, and the
 * unzipping stops as soon as it passes it (a small file that unzips to gigabytes costs no more than
 * the limit). `readUpload` streams: the file is read, unzipped and decoded in pieces, so a 70 MB file
 * never holds the thread that reads it for more than one piece.
 */
import "server-only";
import { Readable } from "node:stream";
import { createGunzip, gunzipSync } from "node:zlib";
import { setting } from "../../config";
import { InputError } from "../kernel/errors";

export type RunType = "best" | "oot" | "mw";

/** Largest system, gold or SENSEVAL file accepted, as sent and as unzipped (LEXGOLD_MAX_RUN_BYTES, lib/config). */
export const MAX_RUN_BYTES = setting("LEXGOLD_MAX_RUN_BYTES");
/** Longest run name. */
export const MAX_RUN_NAME = 80;

export interface NamedText {
  name: string;
  text: string;
}

// ---------------------------------------------------------------------------
// Reading uploads

/** The run type a file name implies: `.best`, `.oot`, `.mw` (also `x.best.txt`, `x.best.gz`), else null. */
export function typeFromFileName(fileName: string): RunType | null {
  const m = /\.(best|oot|mw)(?:\.txt)?(?:\.gz)?$/i.exec(fileName.trim());
  return m ? (m[1].toLowerCase() as RunType) : null;
}

/** A file's name without a `.gz` ending (the name the unzipped text goes by). */
export function withoutGz(fileName: string): string {
  return fileName.replace(/\.gz$/i, "");
}

/** gzip's magic bytes. */
export function isGzip(head: Uint8Array): boolean {
  return head.byteLength >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

const emptyError = (name: string, field: string, zipped: boolean) =>
  new InputError(`${name}: ${zipped ? "unzipped, " : ""}the file is empty; nothing was saved.`, { [field]: "The file is empty." });

const tooBigError = (name: string, field: string, size: number | null, zipped: boolean) =>
  new InputError(
    zipped
      ? `${name}: unzips to more than the limit of ${mb(MAX_RUN_BYTES)}; nothing was saved.`
      : `${name}: ${mb(size!)} is over the limit of ${mb(MAX_RUN_BYTES)}; nothing was saved.`,
    { [field]: zipped ? `Unzips to more than ${mb(MAX_RUN_BYTES)}.` : `Over the ${mb(MAX_RUN_BYTES)} limit.` },
  );

const gzipError = (name: string, field: string, e: unknown) =>
  new InputError(`${name}: not a readable gzip file (${(e as Error)?.message ?? String(e)}); nothing was saved.`, { [field]: "Not a readable gzip file." });

const utf8Error = (name: string, field: string, line: number, zipped: boolean) =>
  new InputError(`${name}:${line}: ${zipped ? "unzipped, " : ""}not UTF-8 text; nothing was saved.`, { [field]: "Not UTF-8 text." });

/** Count the lines up to `end` of `text`, plus `before`. */
function lineAt(before: number, text: string, end: number): number {
  let n = before;
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Refused when the text holds a NUL character (a binary file); `line` is the line the text starts on. */
function checkNul(name: string, field: string, text: string, line = 1): void {
  const nul = text.indexOf("\0");
  if (nul >= 0) {
    throw new InputError(`${name}:${lineAt(line, text, nul)}: a NUL character: this is not a text file; nothing was saved.`, { [field]: "Not a text file." });
  }
}

/** The line of the first byte that is not UTF-8 in `bytes` (decoded loosely), counting from `line`. */
function badByteLine(bytes: Uint8Array, line: number): number {
  const loose = new TextDecoder("utf-8").decode(bytes);
  return lineAt(line, loose, Math.max(0, loose.indexOf("\uFFFD")));
}

/**
 * Decode an uploaded file held in memory: refused when empty, over the size limit
 * (as sent, or unzipped for a gzip file), not a readable gzip file, not UTF-8 or
 * holding NUL characters (a binary file). `field` names the form field the message
 * belongs to; the name of a gzip file's text loses its `.gz`. For a file on disk or in a request, `readUpload` does the same in pieces.
 */
export function decodeUpload(fileName: string, bytes: Uint8Array, field = "file"): NamedText {
  const name = fileName.trim() || field;
  if (bytes.byteLength === 0) throw emptyError(name, field, false);
  if (bytes.byteLength > MAX_RUN_BYTES) throw tooBigError(name, field, bytes.byteLength, false);
  const zipped = isGzip(bytes);
  let data = bytes;
  if (zipped) {
    try {
      data = gunzipSync(bytes, { maxOutputLength: MAX_RUN_BYTES });
    } catch (e) {
      if (e instanceof RangeError || (e as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw tooBigError(name, field, null, true);
      throw gzipError(name, field, e);
    }
    if (data.byteLength === 0) throw emptyError(name, field, true);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch {
    throw utf8Error(name, field, badByteLine(data, 1), zipped);
  }
  checkNul(name, field, text);
  return { name: zipped ? withoutGz(name) : name, text };
}

/** The upload's bytes: a File of a request's form, or a file on disk opened as a Blob (`fs.openAsBlob`). */
export type UploadSource = Pick<Blob, "size" | "slice" | "stream">;

/**
 * `decodeUpload` in pieces, for a file in a request or on disk: the same checks
 * and messages, but the bytes are read, unzipped (gzip by its magic bytes) and
 * decoded a piece at a time, and reading stops at the first piece past the limit.
 * The name of a gzip file's text loses its `.gz`.
 */
export async function readUpload(fileName: string, source: UploadSource, field = "file"): Promise<NamedText> {
  const parts: string[] = [];
  for await (const piece of uploadPieces(fileName, source, field)) parts.push(piece);
  return { name: uploadName(fileName, await isGzipSource(source), field), text: parts.join("") };
}

/** The name an upload's text goes by: its own, a gzip file's without `.gz`. */
export function uploadName(fileName: string, zipped: boolean, field = "file"): string {
  const name = fileName.trim() || field;
  return zipped ? withoutGz(name) : name;
}

/** Whether an upload is gzip (its magic bytes). */
export async function isGzipSource(source: UploadSource): Promise<boolean> {
  return source.size >= 2 && isGzip(new Uint8Array(await source.slice(0, 2).arrayBuffer()));
}

/**
 * An upload's text in pieces, as it is read, unzipped and decoded, with readUpload's checks
 * (refused, naming the file and line, past the limit, not UTF-8, holding NUL, empty): a file of
 * tens of MB is never one string (a stored run's slices take the pieces as they come).
 */
export async function* uploadPieces(fileName: string, source: UploadSource, field = "file"): AsyncGenerator<string> {
  const name = fileName.trim() || field;
  if (source.size === 0) throw emptyError(name, field, false);
  if (source.size > MAX_RUN_BYTES) throw tooBigError(name, field, source.size, false);
  const zipped = await isGzipSource(source);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let bytes = 0;
  let lines = 1;
  const input = Readable.fromWeb(source.stream() as import("node:stream/web").ReadableStream<Uint8Array>);
  const stream = zipped ? input.pipe(createGunzip()) : input;
  try {
    for await (const piece of stream as AsyncIterable<Uint8Array>) {
      bytes += piece.byteLength;
      if (bytes > MAX_RUN_BYTES) throw tooBigError(name, field, bytes, zipped);
      let text: string;
      try {
        text = decoder.decode(piece, { stream: true });
      } catch {
        throw utf8Error(name, field, badByteLine(piece, lines), zipped);
      }
      checkNul(name, field, text, lines);
      lines = lineAt(lines, text, text.length);
      if (text !== "") yield text;
    }
    let last: string;
    try {
      last = decoder.decode();
    } catch {
      throw utf8Error(name, field, lines, zipped);
    }
    if (last !== "") yield last;
  } catch (e) {
    if (e instanceof InputError) throw e;
    if (zipped) throw gzipError(name, field, e);
    throw e;
  } finally {
    input.destroy();
  }
  if (bytes === 0) throw emptyError(name, field, zipped);
}

/**
 * The checks of `decodeUpload` on a text already in hand (a library caller's): refused when
 * empty, over the limit in UTF-8 or holding a NUL character.
 */
export function checkUploadText(fileName: string, text: string, field = "file"): NamedText {
  const name = fileName.trim() || field;
  if (text === "") throw emptyError(name, field, false);
  const size = Buffer.byteLength(text);
  if (size > MAX_RUN_BYTES) throw tooBigError(name, field, size, false);
  checkNul(name, field, text);
  return { name, text };
}

/** A size for messages: "72 MB", "23.8 MB", "4 KB", "1001 bytes". */
function mb(n: number): string {
  const unit = (u: number, name: string) => `${(n / u).toFixed(n % u === 0 ? 0 : 1)} ${name}`;
  return n >= 1048576 ? unit(1048576, "MB") : n >= 1024 && n % 1024 === 0 ? unit(1024, "KB") : n >= 10240 ? unit(1024, "KB") : `${n} bytes`;
}
