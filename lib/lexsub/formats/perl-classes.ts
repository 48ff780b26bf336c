/**
 * The character classes score.pl's patterns use — `\w`, `\s`, `\d` — in the
 * two ways Perl can read a file. Pure.
 *
 * - **bytes** (`perl score.pl …`, the official run): Perl reads the file as
 *   bytes, and its classes are ASCII: `\w` = [A-Za-z0-9_], `\s` = space, \t,
 *   \n, \r, \f, `\d` = [0-9]. Every byte of a non-ASCII character is outside
 *   them all (`métodos` holds the word `todos`; `façade.n` the lexelt `ade.n`).
 * - **utf8** (`perl -CSD score.pl …`): Perl decodes the files as UTF-8 and its
 *   classes are Unicode's, by character (Perl 5.36, perlrecharclass): `\w` =
 *   \p{Alphabetic}, marks, \p{Nd}, connector punctuation and the joiners
 *   U+200C/U+200D; `\s` = \p{White_Space} (with \v, U+0085 and U+00A0); `\d` =
 *   \p{Nd} (`٣` is a digit, and numifies as Perl does: 0). Perl 5.36 knows
 *   Unicode 14; the characters assigned since then (in this engine's tables, not
 *   Perl's) are in no class, as in Perl 5.36 (`NEWER_THAN_PERL`). Checked for
 *   every code point against `perl -CSD` 5.36 (test/scorers/semeval2007/utf8.test.ts).
 *
 * The readers (gold.ts, official-line.ts, the system reader) scan strings by
 * UTF-16 code unit; a class answers for the character at `text[i]`, and both
 * units of a surrogate pair answer for their pair, so a run of class
 * characters has the same bounds by unit as by character. Which reading a
 * scorer uses is decided in lib/scorers/semeval2007/rules.ts (`readingFor`).
 */

export type Reading = "bytes" | "utf8";

export interface PerlClasses {
  readonly reading: Reading;
  /** `\w` at text[i]. */
  word(text: string, i: number): boolean;
  /** `\s` for the code unit c (every whitespace character is in the BMP). */
  space(c: number): boolean;
  /** `\d` at text[i]. */
  digit(text: string, i: number): boolean;
  /** How many code units the character at text[i] takes (1, or 2 for a surrogate pair). */
  width(text: string, i: number): number;
}

function asciiWord(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** Perl's classes on bytes (ASCII). */
export const BYTE_CLASSES: PerlClasses = {
  reading: "bytes",
  word: (text, i) => asciiWord(text.charCodeAt(i)),
  space: (c) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12,
  digit: (text, i) => {
    const c = text.charCodeAt(i);
    return c >= 48 && c <= 57;
  },
  width: () => 1,
};

const WORD = 1;
const SPACE = 2;
const DIGIT = 4;
const WORD_RE = /^[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]$/u;
const SPACE_RE = /^\p{White_Space}$/u;
const DIGIT_RE = /^\p{Nd}$/u;

/**
 * The word and digit characters of this engine's Unicode tables (Node 20 and
 * later: Unicode 15 to 17) that were assigned after Unicode 14, Perl 5.36's
 * version: hex code points and ranges. None is whitespace.
 */
const NEWER_THAN_PERL = [
  "88f 897 c5c cdc cf3 ece 1acf-1add 1ae0-1aeb 1c89-1c8a a7cb-a7cf a7d2 a7d4 a7da-a7dc a7f1 105c0-105f3",
  "10940-10959 10d40-10d65 10d69-10d6d 10d6f-10d85 10ec2-10ec7 10efa-10eff 1123f-11241 11380-11389",
  "1138b 1138e 11390-113b5 113b7-113c0 113c2 113c5 113c7-113ca 113cc-113d3 113e1-113e2 116d0-116e3",
  "11b60-11b67 11bc0-11be0 11bf0-11bf9 11db0-11ddb 11de0-11de9 11f00-11f10 11f12-11f3a 11f3e-11f42",
  "11f50-11f5a 1342f 13440-13455 13460-143fa 16100-16139 16d40-16d6c 16d70-16d79 16ea0-16eb8",
  "16ebb-16ed3 16ff2-16ff6 187f8-187ff 18cff 18d09-18d1e 18d80-18df2 1b132 1b155 1ccf0-1ccf9",
  "1df25-1df2a 1e030-1e06d 1e08f 1e4d0-1e4f9 1e5d0-1e5fa 1e6c0-1e6de 1e6e0-1e6f5 1e6fe-1e6ff",
  "2b739-2b73f 2cea2-2cead 2ebf0-2ee5d 31350-33479",
].join(" ");

let newer: Uint32Array | null = null;

/** Whether cp is in NEWER_THAN_PERL (binary search over [from, to] pairs). */
function newerThanPerl(cp: number): boolean {
  if (!newer) {
    const parts = NEWER_THAN_PERL.split(" ");
    newer = new Uint32Array(parts.length * 2);
    parts.forEach((p, k) => {
      const [a, b] = p.split("-");
      newer![2 * k] = parseInt(a, 16);
      newer![2 * k + 1] = parseInt(b ?? a, 16);
    });
  }
  let lo = 0;
  let hi = newer.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (cp < newer[2 * mid]) hi = mid - 1;
    else if (cp > newer[2 * mid + 1]) lo = mid + 1;
    else return true;
  }
  return false;
}

function classify(cp: number): number {
  if (newerThanPerl(cp)) return 0;
  const s = String.fromCodePoint(cp);
  return (WORD_RE.test(s) ? WORD : 0) | (SPACE_RE.test(s) ? SPACE : 0) | (DIGIT_RE.test(s) ? DIGIT : 0);
}

/** The BMP's classes, each worked out on first use (UNKNOWN until then; ASCII from the start). */
const UNKNOWN = 255;
const bmp = new Uint8Array(65536).fill(UNKNOWN);
for (let c = 0; c < 128; c++) bmp[c] = (asciiWord(c) ? WORD : 0) | (c === 32 || (c >= 9 && c <= 13) ? SPACE : 0) | (c >= 48 && c <= 57 ? DIGIT : 0);
const astral = new Map<number, number>();

/** The classes of BMP code unit c (not a surrogate). */
function bmpClasses(c: number): number {
  const k = bmp[c];
  return k !== UNKNOWN ? k : (bmp[c] = classify(c));
}

/** The classes of the character at text[i]: a surrogate pair's for either of its units; a lone surrogate (U+FFFD once decoded) none. */
function classesAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0xd800 || c > 0xdfff) return bmpClasses(c);
  let cp = -1;
  if (c <= 0xdbff) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) cp = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
  } else {
    const h = text.charCodeAt(i - 1);
    if (h >= 0xd800 && h <= 0xdbff) cp = (h - 0xd800) * 0x400 + (c - 0xdc00) + 0x10000;
  }
  if (cp < 0) return 0;
  let k = astral.get(cp);
  if (k === undefined) astral.set(cp, (k = classify(cp)));
  return k;
}

/** Perl's Unicode classes on characters (`perl -CSD`). */
export const UTF8_CLASSES: PerlClasses = {
  reading: "utf8",
  word: (text, i) => (classesAt(text, i) & WORD) !== 0,
  space: (c) => (c < 128 ? c === 32 || (c >= 9 && c <= 13) : c < 0xd800 || c > 0xdfff ? (bmpClasses(c) & SPACE) !== 0 : false),
  digit: (text, i) => (classesAt(text, i) & DIGIT) !== 0,
  width: (text, i) => {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) return 1;
    const d = text.charCodeAt(i + 1);
    return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
  },
};

/** The classes of a reading. */
export function perlClasses(reading: Reading): PerlClasses {
  return reading === "utf8" ? UTF8_CLASSES : BYTE_CLASSES;
}

/**
 * The number Perl makes of a `\d+` match (a count): its leading ASCII digits
 * (`12` → 12), 0 when there are none (`٣`: under -CSD a digit, but Perl's
 * numification reads only ASCII digits).
 */
export function perlDigits(digits: string): number {
  let n = 0;
  while (n < digits.length && digits.charCodeAt(n) >= 48 && digits.charCodeAt(n) <= 57) n++;
  return n === digits.length ? Number(digits) : n === 0 ? 0 : Number(digits.slice(0, n));
}

/**
 * Whether the two readings read `text` alike: it is ASCII with no vertical tab
 * (the one ASCII character whose class differs: `\s` read as UTF-8, not in the
 * byte reading's). Only a text failing this can score differently as UTF-8.
 */
export function readingsAgreeOn(text: string): boolean {
  return !DIFFERS.test(text);
}

const DIFFERS = /[^\x00-\x0a\x0c-\x7f]/;
