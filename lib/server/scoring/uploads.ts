/**
 * Reading the Scoring page's uploads (system runs, golds, SENSEVAL files): decoding with the size,
 * UTF-8 and NUL checks, the run type a file name implies, and the limits and names the other
 * parts share (runs.ts, golds.ts, scores.ts, senseval.ts).
 */
import "server-only";
import { setting } from "../../config";
import { InputError } from "../kernel/errors";

export type RunType = "best" | "oot" | "mw";

/** Largest system, gold or SENSEVAL file accepted (LEXGOLD_MAX_RUN_BYTES, default 20 MB). */
export const MAX_RUN_BYTES = setting("LEXGOLD_MAX_RUN_BYTES");
/** Longest run name. */
export const MAX_RUN_NAME = 80;

export interface NamedText {
  name: string;
  text: string;
}

// ---------------------------------------------------------------------------
// Reading uploads

/** The run type a file name implies: `.best`, `.oot`, `.mw` (also `x.best.txt`), else null. */
export function typeFromFileName(fileName: string): RunType | null {
  const m = /\.(best|oot|mw)(?:\.txt)?$/i.exec(fileName.trim());
  return m ? (m[1].toLowerCase() as RunType) : null;
}

/**
 * Decode an uploaded file: refused when empty, over the size limit, not UTF-8
 * or holding NUL characters (a binary file). `field` names the form field the
 * message belongs to.
 */
export function decodeUpload(fileName: string, bytes: Uint8Array, field = "file"): NamedText {
  const name = fileName.trim() || field;
  if (bytes.byteLength === 0) throw new InputError(`${name}: the file is empty; nothing was saved.`, { [field]: "The file is empty." });
  if (bytes.byteLength > MAX_RUN_BYTES) {
    throw new InputError(`${name}: ${mb(bytes.byteLength)} is over the limit of ${mb(MAX_RUN_BYTES)}; nothing was saved.`, {
      [field]: `Over the ${mb(MAX_RUN_BYTES)} limit.`,
    });
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new InputError(`${name}: not UTF-8 text; nothing was saved.`, { [field]: "Not UTF-8 text." });
  }
  const nul = text.indexOf("\0");
  if (nul >= 0) {
    const line = text.slice(0, nul).split("\n").length;
    throw new InputError(`${name}:${line}: a NUL character: this is not a text file; nothing was saved.`, { [field]: "Not a text file." });
  }
  return { name, text };
}

function mb(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1048576).toFixed(n % 1048576 === 0 ? 0 : 1)} MB` : `${Math.ceil(n / 1024)} KB`;
}
