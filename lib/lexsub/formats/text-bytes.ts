/**
 * Bytes to text for the corpus importers, reading a few stray bytes the way the
 * file's author most likely wrote them. Released files are UTF-8 with the odd byte
 * left over from a Windows-1252 editor (the full LST, orenmel/lexsub's
 * `lst_all.xml`, has one `0xEF` for `ï` in a name): each such byte is read as
 * Windows-1252 reads it (Latin-1 where the two agree) and reported with its line
 * and byte offset. A file that is mostly not UTF-8 is another encoding, and
 * guessing it byte by byte would store wrong letters: it is refused. Pure.
 */
import { type Diagnostic, diag } from "../diagnostics";

/** Windows-1252's letters for 0x80–0x9F; "" where it assigns none. */
const CP1252_C1 = [
  "€", "", "‚", "ƒ", "„", "…", "†", "‡", "ˆ", "‰", "Š", "‹", "Œ", "", "Ž", "",
  "", "‘", "’", "“", "”", "•", "–", "—", "˜", "™", "š", "›", "œ", "", "ž", "Ÿ",
];

/** A byte that is not UTF-8 as Windows-1252 reads it, or null for its five unassigned bytes. */
function cp1252(byte: number): string | null {
  if (byte >= 0x80 && byte <= 0x9f) return CP1252_C1[byte - 0x80] || null;
  return String.fromCharCode(byte);
}

/** Bad bytes read as Windows-1252 before the file counts as "mostly not UTF-8" (see `decodeTextRepairing`). */
const FEW_BAD_BYTES = 10;

export interface RepairedText {
  /** The text; a bad byte is its Windows-1252 letter (an unassigned one is U+FFFD, and an error). */
  text: string;
  /** One warning per byte read as Windows-1252, with its line, offset and what it became. */
  repairs: Diagnostic[];
  /** Why the bytes cannot be read (the file is then refused; the text is for finding further problems only). */
  errors: Diagnostic[];
}

const hex = (b: number) => `0x${b.toString(16).toUpperCase().padStart(2, "0")}`;

/** Length of the UTF-8 sequence starting at `i`, or 0 when none starts there (shortest form, no surrogates). */
function sequenceAt(b: Uint8Array, i: number): number {
  const c = b[i];
  const cont = (k: number) => i + k < b.length && (b[i + k] & 0xc0) === 0x80;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    const c1 = b[i + 1];
    if (c === 0xe0 && c1 < 0xa0) return 0;
    if (c === 0xed && c1 > 0x9f) return 0;
    return 3;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const c1 = b[i + 1];
    if (c === 0xf0 && c1 < 0x90) return 0;
    if (c === 0xf4 && c1 > 0x8f) return 0;
    return 4;
  }
  return 0;
}

/**
 * Decode UTF-8, reading each byte that starts no UTF-8 sequence as Windows-1252
 * (reported). Refused (errors) when more than a few bytes are not UTF-8 and they
 * outnumber the file's UTF-8 letters beyond ASCII (the file is in another
 * encoding), when a bad byte is one Windows-1252 leaves unassigned, or when the
 * file holds NUL bytes (binary, or UTF-16).
 * A byte-order mark is kept (the format's reader decides about it).
 */
export function decodeTextRepairing(bytes: Uint8Array, file: string): RepairedText {
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    let line = 1;
    for (let i = 0; i < nul; i++) if (bytes[i] === 10) line++;
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    return { text, repairs: [], errors: [diag("error", file, line, `not UTF-8 text: NUL bytes (a binary file, or UTF-16 text) from byte offset ${nul}`)] };
  }
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes), repairs: [], errors: [] };
  } catch {
    // Some bytes are not UTF-8: read them one by one below.
  }
  const repairs: Diagnostic[] = [];
  const errors: Diagnostic[] = [];
  const parts: string[] = [];
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let line = 1;
  let from = 0;
  let bad = 0;
  let firstBad = { line: 0, offset: 0 };
  let letters = 0;
  for (let i = 0; i < bytes.length; ) {
    const c = bytes[i];
    if (c < 0x80) {
      if (c === 10) line++;
      i++;
      continue;
    }
    const n = sequenceAt(bytes, i);
    if (n > 0) {
      letters++;
      i += n;
      continue;
    }
    if (bad++ === 0) firstBad = { line, offset: i };
    parts.push(decoder.decode(bytes.subarray(from, i)));
    const read = cp1252(c);
    if (read === null) {
      errors.push(diag("error", file, line, `byte ${hex(c)} at byte offset ${i} is not UTF-8, and Windows-1252 assigns it no letter: save the file as UTF-8`));
      parts.push("\uFFFD");
    } else {
      repairs.push(diag("warning", file, line, `byte ${hex(c)} at byte offset ${i} is not UTF-8: repaired: read as "${read}" (Windows-1252)`));
      parts.push(read);
    }
    i++;
    from = i;
  }
  parts.push(decoder.decode(bytes.subarray(from)));
  if (bad > FEW_BAD_BYTES && bad > letters) {
    return {
      text: parts.join(""),
      repairs: [],
      errors: [
        diag(
          "error",
          file,
          firstBad.line,
          `not UTF-8 text: ${bad} bytes are not UTF-8 (the first, ${hex(bytes[firstBad.offset])}, at byte offset ${firstBad.offset}) against ${letters} UTF-8 letters beyond ASCII, so the file is in another encoding: save it as UTF-8`,
        ),
      ],
    };
  }
  return { text: parts.join(""), repairs, errors };
}
