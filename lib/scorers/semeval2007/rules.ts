/**
 * score.pl's rules (key release; ../shared/reference/official-scorer.md), each
 * decided here and nowhere else. Every reader of the scorer calls these: the
 * key builder (key.ts) and the system reader (system.ts) on strings, the
 * scorer (substitution.ts) on its items, and the byte-level fast lane
 * (fast.ts) on bytes — which only tokenises a line and hands its numbers and
 * code units to the functions below. The functions work on numbers and code
 * units (a string's `charCodeAt`, a file's bytes) so that both can call them
 * without making a string per line. Pure.
 *
 * - **pn**: score.pl drops every gold field holding the letters "pn" (so
 *   "sharpness 2" goes with "pn 2"); the repaired reading drops only the entry
 *   `pn` (`dropsEntry`).
 * - **T**: an item is in T when two or more entries remain, or one whose
 *   count is 2 or more (`inT`); score.pl counts fields, the repaired reading
 *   readable entries — the caller says which it counts.
 * - **|H_i| and the mode**: |H_i| is the sum of the counts (`humanResponses`);
 *   the mode is the first entry unless another has the same count; counts that
 *   rise somewhere mean the line is not sorted (`modeOf`).
 * - **Normalisation of a guess** (`normalizeGuess`, `normalizeUnits`): `non-x`
 *   and `non x` become `nonx`; every hyphen becomes a space; the first
 *   apostrophe is removed; case is kept.
 * - **Matching**: a gold substitute matches a guess as written, or with spaces
 *   for its hyphens (`spacedForm`, `matchesSpaced`); the mode is hit only as
 *   written, unless repaired (`modeHit`).
 * - **An item's score** (`itemScore`, `OOT_LIMIT`): best divides the credit by
 *   the number of guesses; oot scores the first ten guesses and does not.
 * - **Which system lines count** (`lineVerdict`): a line for an id outside T is
 *   ignored; the first line for an id wins; an item of T with no readable gold
 *   entry is never attempted.
 * - **How the files' characters are read** (`readingFor`, `classesOf`):
 *   score.pl as it runs reads bytes, so its `\w`, `\s` and `\d` are ASCII
 *   (`métodos 2` reads as `todos 2`); `perl -CSD score.pl` reads UTF-8 text,
 *   with Unicode's classes on characters. The readers take the classes from
 *   here (lib/lexsub/formats/perl-classes.ts defines them) and decide nothing
 *   about characters themselves.
 */
import { PN } from "../../lexsub/formats/gold";
import { BYTE_CLASSES, type PerlClasses, type Reading, perlClasses } from "../../lexsub/formats/perl-classes";

export type { Reading };

/** The character classes of a reading: Perl's on bytes ("bytes", score.pl as it runs) or on UTF-8 characters ("utf8", `perl -CSD`). */
export function classesOf(reading: Reading = "bytes"): PerlClasses {
  return perlClasses(reading);
}

/**
 * The reading a project's files are scored with by default, from its language
 * (a BCP 47 tag): English keeps score.pl's own byte reading, the one its
 * published figures come from; any other language is read as UTF-8 text, as
 * `perl -CSD score.pl` reads it (its words are mostly outside ASCII). A tag
 * that is empty or unreadable counts as English.
 */
export function readingFor(language: string | null | undefined): Reading {
  const primary = (language ?? "").trim().toLowerCase().split(/[-_]/)[0];
  return primary === "" || primary === "en" ? "bytes" : "utf8";
}

/** PN (the letters the gold reader marks a field for; the entry the repaired reading drops): its code units, for a byte reader's test for a field score.pl would drop (compared in its loop: no call per byte). */
export const PN_0 = PN.charCodeAt(0);
export const PN_1 = PN.charCodeAt(1);

/**
 * Whether an entry is dropped before anything else: score.pl drops its whole
 * field when the field holds "pn" (`fieldHoldsPn`, known when the line's
 * fields were read); the repaired reading, or an entry whose fields are not
 * known, only the entry `pn`.
 */
export function dropsEntry(substitute: string, fieldHoldsPn: boolean, byField: boolean): boolean {
  return byField ? fieldHoldsPn : substitute === PN;
}

/** T: whether an item with `entries` entries (or fields, as score.pl counts them), the first counting `firstCount`, is scored. */
export function inT(entries: number, firstCount: number): boolean {
  return entries >= 2 || (entries === 1 && firstCount >= 2);
}

/** `modeOf`'s answer: the first entry is the mode. */
export const HAS_MODE = 1;
/** `modeOf`'s answer: the counts are not in descending order (worth a warning; the mode is still the first entry's). */
export const UNSORTED = 2;

/** The mode of the entries with counts[from, to) (at least one): HAS_MODE unless another entry has the first's count; UNSORTED when a count rises. */
export function modeOf(counts: ArrayLike<number>, from: number, to: number): number {
  const first = counts[from];
  let flags = HAS_MODE;
  for (let i = from + 1; i < to; i++) {
    const c = counts[i];
    if (c === first) flags &= ~HAS_MODE;
    if (c > counts[i - 1]) flags |= UNSORTED;
  }
  return flags;
}

/** |H_i|: the sum of the entries' counts[from, to). */
export function humanResponses(counts: ArrayLike<number>, from: number, to: number): number {
  let hu = 0;
  for (let i = from; i < to; i++) hu += counts[i];
  return hu;
}

const HYPHEN = 45;
const SPACE = 32;
const APOSTROPHE = 39;

/** Code units normalisation may change anywhere in a guess (see also `nonPrefix`). */
export const NORMALISED_UNITS: readonly number[] = [HYPHEN, APOSTROPHE];

/** Whether c is what score.pl's `/^non[\s-]/` takes after "non" (a hyphen, or Perl's \s: on bytes with \v; read as UTF-8, any Unicode space). */
function nonSeparator(c: number, cls: PerlClasses): boolean {
  return c === HYPHEN || c === SPACE || (c >= 9 && c <= 13) || (cls !== BYTE_CLASSES && cls.space(c));
}

/** Whether code units c0..c3 begin `non-x` / `non x` (the separator is dropped; a guess, read from one line, holds no line break). */
export function nonPrefix(c0: number, c1: number, c2: number, c3: number, cls: PerlClasses = BYTE_CLASSES): boolean {
  return c0 === 110 && c1 === 111 && c2 === 110 && nonSeparator(c3, cls);
}

/**
 * Normalise the guess src[from, to) into out[0, n), returning n: `non-x` /
 * `non x` → `nonx`, every hyphen a space, the first apostrophe removed. `out`
 * must hold `to - from` units.
 */
export function normalizeUnits(src: Uint8Array | Uint16Array, from: number, to: number, out: Uint8Array | Uint16Array, cls: PerlClasses = BYTE_CLASSES): number {
  const skip = to - from >= 4 && nonPrefix(src[from], src[from + 1], src[from + 2], src[from + 3], cls) ? from + 3 : -1;
  let apostrophe = false;
  let n = 0;
  for (let i = from; i < to; i++) {
    if (i === skip) continue;
    const c = src[i];
    if (c === APOSTROPHE && !apostrophe) {
      apostrophe = true;
      continue;
    }
    out[n++] = c === HYPHEN ? SPACE : c;
  }
  return n;
}

let unitsIn = new Uint16Array(64);
let unitsOut = new Uint16Array(64);

/** A guess as the official scorer normalises it (`normalizeUnits`, on a string), read with `cls` (default: bytes). */
export function normalizeGuess(guess: string, cls: PerlClasses = BYTE_CLASSES): string {
  const len = guess.length;
  if (len < 4 || !nonPrefix(guess.charCodeAt(0), guess.charCodeAt(1), guess.charCodeAt(2), guess.charCodeAt(3), cls)) {
    if (guess.indexOf("-") < 0 && guess.indexOf("'") < 0) return guess;
  }
  if (len > unitsIn.length) {
    unitsIn = new Uint16Array(2 * len);
    unitsOut = new Uint16Array(2 * len);
  }
  for (let i = 0; i < len; i++) unitsIn[i] = guess.charCodeAt(i);
  const n = normalizeUnits(unitsIn, 0, len, unitsOut, cls);
  let s = "";
  for (let i = 0; i < n; i += 4096) s += String.fromCharCode.apply(null, unitsOut.subarray(i, Math.min(n, i + 4096)) as unknown as number[]);
  return s;
}

/** A gold substitute as score.pl keeps it: its first apostrophe removed (as a guess's, `normalizeUnits`). */
export function withoutFirstApostrophe(substitute: string): string {
  return substitute.indexOf("'") >= 0 ? substitute.replace("'", "") : substitute;
}

/** Whether a gold entry is written `non x` / `non-x`: score.pl never matches it (answers become `nonx`); repaired, `nonx` matches it. */
export function isNonEntry(substitute: string, cls: PerlClasses = BYTE_CLASSES): boolean {
  return substitute.length >= 4 && nonPrefix(substitute.charCodeAt(0), substitute.charCodeAt(1), substitute.charCodeAt(2), substitute.charCodeAt(3), cls);
}

/** The form a hyphenated gold substitute also matches: spaces for its hyphens (score.pl's norms table). */
export function spacedForm(substitute: string): string {
  return substitute.replace(/-/g, " ");
}

/** Whether gold code unit `gold` matches guess code unit `guess` in the spaced form (equal, or a hyphen for a space). */
export function matchesSpaced(gold: number, guess: number): boolean {
  return gold === guess || (gold === HYPHEN && guess === SPACE);
}

/** Whether a guess that matched entry `entry` (`exact`: as written) hits the mode: entry 0 of an item with a mode, as written (score.pl) or in any form (repaired). */
export function modeHit(entry: number, hasMode: boolean, exact: boolean, repaired: boolean): boolean {
  return entry === 0 && hasMode && (exact || repaired);
}

/** Guesses scored per item by oot (the rest are dropped). */
export const OOT_LIMIT = 10;

/** An item's score from its credit (Σ freq(g) / |H_i| over the guesses scored): best divides by every guess given, oot does not. */
export function itemScore(oot: boolean, credit: number, guesses: number): number {
  return oot ? credit : credit / guesses;
}

/** `lineVerdict`'s answers. */
export const COUNTS = 0;
export const OUTSIDE_T = 1;
export const ANSWERED = 2;
export const UNSCORABLE = 3;

/**
 * Which system lines count, for item `o` (−1: its id is not in T) on line
 * `line`: OUTSIDE_T (ignored), ANSWERED (an earlier line for the id won:
 * ignored), UNSCORABLE (in T with no readable gold entry, |H_i| = 0: never
 * attempted), else COUNTS. `answeredAt` holds each item's first line (0 =
 * not yet), and is updated here.
 */
export function lineVerdict(o: number, line: number, answeredAt: Uint32Array, humanResponses: number): number {
  if (o < 0) return OUTSIDE_T;
  if (answeredAt[o] !== 0) return ANSWERED;
  answeredAt[o] = line || 1;
  return humanResponses === 0 ? UNSCORABLE : COUNTS;
}
