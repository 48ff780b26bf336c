/**
 * How Python 3 reads a text file, for the reference scripts' parity
 * (tsar_eval.py, swords' eval.py). Pure.
 */
import { type Diagnostic, diag } from "../../lexsub/diagnostics";

// Python 3's str.strip() is py3Strip in ./pyfloat (one list of Python's whitespace).

/**
 * Python's `open(path).readlines()` (universal newlines): `\n`, `\r\n` and a
 * lone `\r` each end a line; a final line without an end counts; no empty line
 * after a final line end. Lines are given without their end, numbered from 1.
 */
export function pyReadLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let start = 0;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    out.push({ line: ++n, text: text.slice(start, i) });
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    start = i + 1;
  }
  if (start < text.length) out.push({ line: ++n, text: text.slice(start) });
  return out;
}

/** The 1-based line (universal newlines) a byte offset of UTF-8 bytes falls on. */
function lineOfByte(bytes: Uint8Array, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) {
    if (bytes[i] === 10) n++;
    else if (bytes[i] === 13) {
      n++;
      if (bytes[i + 1] === 10 && i + 1 < offset) i++;
    }
  }
  return n;
}

/**
 * The byte offset where strict UTF-8 decoding fails (Python's 'utf-8' codec:
 * no overlong forms, no surrogates, nothing above U+10FFFF), or -1.
 */
export function invalidUtf8At(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i;
      if (k === 1 ? c < lo || c > hi : c < 0x80 || c > 0xbf) return i;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * Bytes decoded as Python 3's `open(path)` decodes a UTF-8 file: strictly (a
 * file that is not UTF-8 stops the scripts with UnicodeDecodeError), a leading
 * byte-order mark kept as U+FEFF (the 'utf-8' codec keeps it). Not UTF-8: an
 * error naming the file, the line and the byte offset, and no text.
 */
export function decodePythonUtf8(bytes: Uint8Array, file: string): { text: string | null; diagnostics: Diagnostic[] } {
  const bad = invalidUtf8At(bytes);
  if (bad >= 0) {
    const hex = bytes[bad].toString(16).padStart(2, "0");
    return {
      text: null,
      diagnostics: [diag("error", file, lineOfByte(bytes, bad), `not UTF-8: byte 0x${hex} at byte offset ${bad} (Python stops here with UnicodeDecodeError); nothing was scored`)],
    };
  }
  return { text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes), diagnostics: [] };
}
