/**
 * Gold and mwgold files (seed 000 §2.2.1, §2.2.4):
 *
 *   bright.a 1 :: intelligent 3;clever 3;smart 1;
 *   take.v 29 :: take place 5;
 *
 * One line per item: lexelt, id, `::`, then `substitute count;` entries. Entries
 * are read exactly as the official scorer reads them (reference §2), so that
 * scores match it to the last digit: an entry is the leftmost match of
 * `(\w[\w' -\s]+) (\d+)` — a substitute starts with a word character and has at
 * least two characters, so `x 1` is not read; a character outside that class
 * makes the match start after it (`11.27 kilograms 1` → `27 kilograms`); spaces
 * inside or at the end of a substitute are kept. Each entry the official scorer
 * would read differently from how it is written gets a warning with its line.
 *
 * Lines matching no format are errors (the official scorer skips them silently);
 * CRLF endings and a byte-order mark are tolerated with a warning; an id given
 * twice is an error (items are keyed by id alone). Pure: strings in, records out.
 */
import { type Diagnostic, DiagnosticLog, diag, splitLines } from "../diagnostics";
import { type OfficialLine, matchOfficialLine } from "./official-line";

export type GoldKind = "gold" | "mwgold";

export interface GoldEntry {
  /** The substitute (or multiword) as read, verbatim (apostrophes kept). */
  substitute: string;
  count: number;
}

export interface GoldLine {
  /** The lexelt item verbatim, e.g. "bright.a" or "stand.n.v". */
  lexelt: string;
  id: string;
  /** The entries read, in file order (gold files are sorted by count, descending). */
  entries: GoldEntry[];
  /** The line's fields as score.pl counts them (for its T rule); see `GoldReader.fields`. */
  fields?: FieldInfo;
  /** 1-based line number in the file. */
  line: number;
}

export interface GoldParseResult {
  lines: GoldLine[];
  diagnostics: Diagnostic[];
}

/**
 * gold lines are read with score.pl's pattern (official-line.ts: unanchored,
 * so `e commerce.a 5 :: …` reads with the lexelt `commerce.a`); mwgold:
 * `lexelt id :: rest` with any spacing before `::`.
 */
const MWGOLD_LINE = /^(\S+)[ \t]+(\S+)[ \t]*:: ?(.*)$/;
/** The official scorer's entry pattern, unanchored (Perl's \s on bytes: no \v, no Unicode spaces). */
const ENTRY = /(\w[\w' \t\n\r\f-]+) (\d+)/;
/** The same pattern read as UTF-8 text (`perl -CSD`): `\w` is every letter, mark, digit and connector. */
const UTF8_ENTRY = /([\p{L}\p{M}\p{Nd}\p{Pc}][\p{L}\p{M}\p{Nd}\p{Pc}' \t\n\r\f-]+) (\d+)/u;

export interface GoldReaderOptions {
  /** How many diagnostics of one kind to list before summarising (default 10). */
  limit?: number;
  /**
   * Refuse a line whose id was seen before (default true). A caller that keeps
   * its own id index (the scoring key) turns this off to hold the ids once.
   */
  checkRepeats?: boolean;
}

/**
 * Reads a gold or mwgold file one line at a time (so a large gold can be
 * streamed): `push` each line's text (without its `\n`) and get the record,
 * or null for a blank or refused line; `finish` returns the diagnostics.
 * `scan` is the allocation-light form the scoring key uses.
 */
export class GoldReader {
  private lineNo = 0;
  private readonly firstLine = new Map<string, number>();
  private readonly log: DiagnosticLog;
  private crlf = 0;
  /** Lines read, and lines skipped as in no format. */
  read = 0;
  skipped = 0;
  /** Whether the current line ended in CRLF (score.pl keeps the \r: see `readEntries`). */
  cr = false;
  private readonly checkRepeats: boolean;
  /**
   * After a successful `scanLine`: the line's text (CR and BOM removed), where
   * its lexelt ends, where its id starts and ends, where the entries start, and
   * its number.
   */
  text = "";
  lexeltStart = 0;
  lexeltEnd = 0;
  idStart = 0;
  idEnd = 0;
  restStart = 0;
  line = 0;
  /** After `scan` (or `scanEntries`): the entries read, as parallel arrays (reused between lines: only the first `entries` count). */
  readonly subs: string[] = [];
  readonly counts: number[] = [];
  entries = 0;
  /**
   * After `scanEntries`: the line's `;`-separated fields as score.pl counts
   * them (Perl's split: trailing empty fields dropped), and for each entry read
   * the field it came from (`entryField`); `fields` says, per field, whether it
   * holds the letters "pn" (score.pl drops such fields before anything else).
   */
  readonly fields: FieldInfo = { count: 0, pn: [], entryField: [], text: [] };

  constructor(
    readonly file: string,
    readonly kind: GoldKind = "gold",
    options: GoldReaderOptions = {},
  ) {
    this.log = new DiagnosticLog(options.limit ?? 10);
    this.checkRepeats = options.checkRepeats ?? true;
  }

  /** Lines pushed so far. */
  get lines(): number {
    return this.lineNo;
  }

  /** Number the next line pushed `line` (for re-reading kept lines of a file under their own numbers). */
  seek(line: number): void {
    this.lineNo = line - 1;
  }

  /** The current line's lexelt. */
  get lexelt(): string {
    return this.text.slice(this.lexeltStart, this.lexeltEnd);
  }

  /** The current line's id. */
  get id(): string {
    return this.text.slice(this.idStart, this.idEnd);
  }

  push(raw: string): GoldLine | null {
    if (!this.scan(raw)) return null;
    const entries: GoldEntry[] = new Array(this.entries);
    for (let i = 0; i < this.entries; i++) entries[i] = { substitute: this.subs[i], count: this.counts[i] };
    const f = this.fields;
    const fields: FieldInfo = { count: f.count, pn: f.pn.slice(0, f.count), entryField: f.entryField.slice(0, this.entries), text: f.text.slice(0, f.count) };
    return { lexelt: this.lexelt, id: this.id, entries, line: this.line, fields };
  }

  /**
   * Read one line into `lexelt`, `id`, `line`, `subs` and `counts`; false for
   * a blank line or a refused one (reported).
   */
  scan(raw: string): boolean {
    if (!this.scanLine(raw)) return false;
    this.scanEntries();
    return true;
  }

  /** Read one line's lexelt and id (not yet its entries: see `scanEntries`); false for a blank or refused line. */
  scanLine(raw: string): boolean {
    const n = ++this.lineNo;
    let text = raw;
    this.cr = text.charCodeAt(text.length - 1) === 13;
    if (this.cr) {
      text = text.slice(0, -1);
      if (this.crlf++ === 0) this.warn("crlf", n, "CRLF line ending read as LF", "lines with CRLF endings");
    }
    if (n === 1 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      this.warn("bom", n, "byte-order mark ignored");
    }
    const restStart = this.kind === "gold" ? splitGoldLine(text) : -1;
    if (restStart >= 0) {
      this.lexeltStart = 0;
      this.lexeltEnd = text.indexOf(" ");
      this.idStart = this.lexeltEnd + 1;
      this.idEnd = text.indexOf(" ", this.idStart);
      this.restStart = restStart;
    } else {
      if (!NON_BLANK.test(text)) return false;
      let m: OfficialLine | null;
      if (this.kind === "gold") m = matchOfficialLine(text, 2);
      else {
        const r = MWGOLD_LINE.exec(text);
        m = r && { lexeltStart: 0, lexeltEnd: r[1].length, idStart: text.indexOf(r[2], r[1].length), idEnd: 0, restStart: text.length - r[3].length };
        if (m) m.idEnd = m.idStart + r![2].length;
      }
      if (!m) {
        // score.pl skips a line its pattern does not match; so does lexgold, saying so.
        this.skipped++;
        this.log.add(
          "format",
          diag("warning", this.file, n, `not a ${this.kind} line (expected "lexelt id :: substitute count;..."); skipped, as score.pl skips it: ${clip(text)}`),
          `lines in no ${this.kind} format (skipped)`,
        );
        return false;
      }
      this.lexeltStart = m.lexeltStart;
      this.lexeltEnd = m.lexeltEnd;
      this.idStart = m.idStart;
      this.idEnd = m.idEnd;
      this.restStart = m.restStart;
    }
    this.read++;
    this.text = text;
    if (this.checkRepeats) {
      const id = this.id;
      const first = this.firstLine.get(id);
      if (first !== undefined) {
        this.repeated(id, n, first);
        return false;
      }
      this.firstLine.set(id, n);
    }
    this.line = n;
    return true;
  }

  /** Read the current line's entries into `subs`, `counts` and `entries`, reporting what reads oddly. */
  scanEntries(): void {
    this.entries = readEntries(this.text, this.restStart, this.subs, this.counts, this.file, this.line, this.log, this.fields, this.cr);
  }

  /** Report line `line` as repeating the id first given at line `first` (the line is not used). */
  repeated(id: string, line: number, first: number): void {
    this.log.add("repeat", diag("error", this.file, line, `id ${id} is repeated (first at line ${first}); ids must be unique`), "repeated ids");
  }

  /** The diagnostics so far, with a summary line for each kind over the limit. */
  finish(): Diagnostic[] {
    if (this.crlf > 1) this.log.add("crlf-total", diag("warning", this.file, 0, `${this.crlf} lines had CRLF endings, read as LF`));
    if (this.read === 0 && this.skipped > 0) {
      this.log.add("empty", diag("error", this.file, 0, `no line is in the ${this.kind} format (${this.skipped} line${this.skipped === 1 ? "" : "s"} skipped): is this a ${this.kind} file?`));
    }
    return this.log.finish();
  }

  private warn(kind: string, line: number, message: string, plural?: string): void {
    this.log.add(kind, diag("warning", this.file, line, message), plural);
  }
}

const NON_BLANK = /\S/;

/** A gold line's fields, as `GoldReader.fields` describes them (arrays reused between lines). */
export interface FieldInfo {
  count: number;
  /** Per field: whether it holds "pn". */
  pn: boolean[];
  /** Per entry read: the index of its field. */
  entryField: number[];
  /** Per field: its text, or null for a field read as a plain `word… count` entry. */
  text: (string | null)[];
}

/**
 * The common gold line `lexelt id :: rest` read without a regular expression:
 * the index where `rest` starts, or -1 when the line needs the full pattern
 * (which then decides). Only plain lines take this path: no whitespace in the
 * lexelt and id but the single spaces, nothing but printable text after.
 */
function splitGoldLine(text: string): number {
  const a = text.indexOf(" ");
  if (a <= 0) return -1;
  const b = text.indexOf(" ", a + 1);
  if (b <= a + 1 || text.charCodeAt(b + 1) !== 58 || text.charCodeAt(b + 2) !== 58) return -1;
  // The lexelt all of [\w.] (so score.pl's match starts at the line's start), the id no space.
  for (let i = 0; i < a; i++) if (!isLexeltChar(text.charCodeAt(i))) return -1;
  for (let i = a + 1; i < b; i++) if (text.charCodeAt(i) <= 32) return -1;
  return text.charCodeAt(b + 3) === 32 ? b + 4 : -1;
}

/** A character of score.pl's lexelt class `[\w.]` (ASCII). */
function isLexeltChar(c: number): boolean {
  return isWord(c) || c === 46;
}

/**
 * Read the `sub n;sub n;` part of a line (from `start`) as the official scorer
 * does: split on `;` (trailing empty fields dropped), each field read with the
 * entry pattern — directly when the field is plainly `word… digits`, else with
 * the pattern itself, so both give the official reading.
 */
function readEntries(
  text: string,
  start: number,
  subs: string[],
  counts: number[],
  file: string,
  line: number,
  log: DiagnosticLog,
  fields: FieldInfo,
  cr: boolean,
): number {
  let k = 0;
  let f = 0;
  let end = text.length;
  while (end > start && text.charCodeAt(end - 1) === 59) end--; // trailing ";" (empty fields)
  let from = start;
  while (from < end) {
    let semi = text.indexOf(";", from);
    if (semi < 0 || semi > end) semi = end;
    const pn = hasPn(text, from, semi);
    fields.pn[f] = pn;
    const sp = plainEntry(text, from, semi);
    if (sp > 0) {
      fields.text[f] = null;
      subs[k] = text.slice(from, sp);
      let c = 0;
      for (let i = sp + 1; i < semi; i++) c = c * 10 + (text.charCodeAt(i) - 48);
      fields.entryField[k] = f;
      counts[k++] = c;
    } else {
      const field = text.slice(from, semi);
      fields.text[f] = field;
      if (readEntry(field, subs, counts, k, file, line, log)) fields.entryField[k++] = f;
    }
    f++;
    from = semi + 1;
  }
  // With a CRLF ending score.pl splits "…;\r": the `;`s at the end no longer end
  // the line, so each makes one more (unreadable) field, counted for T.
  if (cr) {
    // Perl keeps leading empty fields: a rest of only `;`s (";\r") splits into "" and "\r",
    // and a rest of nothing ("\r") into "\r" alone — one field more than the `;`s above.
    if (end === start) {
      fields.pn[f] = false;
      fields.text[f++] = text.length === start ? "\r" : "";
    }
    for (let i = end; i < text.length; i++) {
      fields.pn[f] = false;
      fields.text[f++] = i === text.length - 1 ? "\r" : "";
    }
  }
  fields.count = f;
  return k;
}

/** The letters that mark a field score.pl drops (what it then drops is the scorer's rule: lib/scorers/semeval2007/rules.ts). */
export const PN = "pn";
const PN_0 = PN.charCodeAt(0);
const PN_1 = PN.charCodeAt(1);

/** Whether text[from, to) holds the letters PN (looked for only there: a long line has many fields). */
function hasPn(text: string, from: number, to: number): boolean {
  for (let i = from; i + 1 < to; i++) if (text.charCodeAt(i) === PN_0 && text.charCodeAt(i + 1) === PN_1) return true;
  return false;
}

/**
 * The count score.pl reads from the first field of a gold line to decide
 * whether the item is in T: the digits of the leftmost match of
 * `[\w'-\s]+ (\d+)` (looser than the entry pattern: any start, one character
 * is enough), or 0 when nothing matches. In linear time, as `officialEntry`.
 */
export function looseCount(field: string): number {
  const m = runMatch(field, false, 1);
  return m ? Number(field.slice(m.space + 1, m.end)) : 0;
}

/**
 * The leftmost match of `X[class]+ (\d+)` in `field`, where the class is the
 * entry pattern's `[\w' \t\n\r\f-]` and X is a word character (`wordStart`,
 * the entry pattern) or any class character (the loose count): where it
 * starts, where its last " digit" space is (at least `minBefore` characters
 * in), and where the digits end. A match lies inside one run of the class; in
 * a run it starts at the first allowed character and, the class being greedy,
 * ends at the run's last " digit".
 */
function runMatch(field: string, wordStart: boolean, minBefore: number): { start: number; space: number; end: number } | null {
  const n = field.length;
  let i = 0;
  while (i < n) {
    if (!isEntryChar(field.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i;
    while (end < n && isEntryChar(field.charCodeAt(end))) end++;
    let start = i;
    if (wordStart) while (start < end && !isWord(field.charCodeAt(start))) start++;
    for (let j = end - 2; j >= start + minBefore; j--) {
      const d = field.charCodeAt(j + 1);
      if (field.charCodeAt(j) === 32 && d >= 48 && d <= 57) {
        let e = j + 1;
        while (e < end && field.charCodeAt(e) >= 48 && field.charCodeAt(e) <= 57) e++;
        return { start, space: j, end: e };
      }
    }
    i = end;
  }
  return null;
}

/**
 * For a field `text[from, to)` that is a word character, then only characters
 * of the entry class, a space and digits (at most 15), with no space just
 * before that space: the index of that last space. Else 0.
 */
function plainEntry(text: string, from: number, to: number): number {
  // The last space, looked for only where it may be (lastIndexOf would scan back
  // to the line's start for every field: quadratic on a long line of short fields).
  let sp = to - 1;
  const stop = Math.max(from, to - 16);
  while (sp >= stop && text.charCodeAt(sp) !== 32) sp--;
  if (sp < stop) return 0;
  if (sp < from + 2 || sp >= to - 1 || to - sp > 16 || !isWord(text.charCodeAt(from)) || text.charCodeAt(sp - 1) <= 32) return 0;
  for (let i = sp + 1; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return 0;
  }
  for (let i = from + 1; i < sp; i++) {
    const c = text.charCodeAt(i);
    if (!isWord(c) && c !== 32 && c !== 39 && c !== 45) return 0;
  }
  return sp;
}

function isWord(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

/** A character of the entry pattern's substitute class `[\w' \t\n\r\f-]`. */
function isEntryChar(c: number): boolean {
  return isWord(c) || c === 32 || c === 39 || c === 45 || c === 9 || c === 10 || c === 13 || c === 12;
}

/**
 * `ENTRY.exec(field)` in linear time (the regular expression backtracks
 * quadratically on a long field with no ` digit` in it): the same match, as
 * `[whole, substitute, digits]` with `index`, or null. A match lies inside one
 * run of the substitute class; in a run it starts at the first word character
 * and its substitute ends at the run's last ` digit`, at least two characters in.
 */
export function officialEntry(field: string): { 0: string; 1: string; 2: string; index: number } | null {
  const m = runMatch(field, true, 2);
  if (!m) return null;
  return { 0: field.slice(m.start, m.end), 1: field.slice(m.start, m.space), 2: field.slice(m.space + 1, m.end), index: m.start };
}

/** One field read with the official entry pattern into place `k`, with a warning where it reads differently from how it is written; false when not read. */
function readEntry(field: string, subs: string[], counts: number[], k: number, file: string, line: number, log: DiagnosticLog): boolean {
  const m = officialEntry(field);
  if (!m) {
    log.add(
      "unread",
      diag("warning", file, line, `entry "${field}" is not read (a substitute starts with a letter or digit and has at least two characters); skipped, as the official scorer does`),
      "entries not read",
    );
    return false;
  }
  const substitute = m[1];
  if (m[2].length > 15) {
    // Such a count reads as a huge float or Infinity, and every score from it as NaN.
    log.add(
      "count",
      diag("error", file, line, `entry ${clip(field)} has a count of ${m[2].length} digits; a count has at most 15`),
      "entries with counts too large",
    );
    return false;
  }
  const count = Number(m[2]);
  if (m.index !== 0 || m[0].length !== field.length) {
    log.add("partial", diag("warning", file, line, `entry "${field}" is read as "${substitute}" ${count}, as the official scorer reads it`), "entries read in part");
  } else if (/\s$/.test(substitute)) {
    log.add(
      "space",
      diag("warning", file, line, `substitute "${substitute}" ends with a space; kept, as the official scorer keeps it (only an answer with the same space matches it)`),
      "substitutes ending with a space",
    );
  }
  subs[k] = substitute;
  counts[k] = count;
  return true;
}

/** Perl's `split(';', s)`: trailing empty fields are dropped; an empty string gives none. */
export function perlSplit(s: string, sep: string): string[] {
  const parts = s.split(sep);
  let end = parts.length;
  while (end > 0 && parts[end - 1] === "") end--;
  return end === parts.length ? parts : parts.slice(0, end);
}

function clip(s: string): string {
  return JSON.stringify(s.length > 60 ? s.slice(0, 57) + "..." : s);
}

/** Parse a whole gold or mwgold file. */
export function parseGold(text: string, file: string, kind: GoldKind = "gold", options: GoldReaderOptions = {}): GoldParseResult {
  const reader = new GoldReader(file, kind, options);
  const lines: GoldLine[] = [];
  for (const l of splitLines(text)) {
    const r = reader.push(l.crlf ? l.text + "\r" : l.text);
    if (r) lines.push(r);
  }
  return { lines, diagnostics: reader.finish() };
}

/** Parse an mwgold file (same line format, multiwords instead of substitutes). */
export function parseMwGold(text: string, file: string, options: GoldReaderOptions = {}): GoldParseResult {
  return parseGold(text, file, "mwgold", options);
}

/**
 * Write one gold (or mwgold) line in the official files' form,
 * `lexelt id :: sub n;sub n;`, entries sorted by count (descending; equal
 * counts keep their order). Throws if an entry could not be read back as
 * written (a `;` or line break in it, a count that is not a positive integer,
 * or a substitute the official entry pattern would read differently: byte by
 * byte for plain ASCII, as UTF-8 text for any other). Writes NFC.
 */
export function formatGoldLine(lexelt: string, id: string, entries: readonly GoldEntry[]): string {
  if (!/^\S+$/.test(lexelt) || !/^\S+$/.test(id)) throw new Error(`gold line: lexelt and id must be non-empty with no spaces: ${JSON.stringify([lexelt, id])}`);
  const sorted = entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => b.e.count - a.e.count || a.i - b.i)
    .map(({ e }) => e);
  let s = `${lexelt} ${id} ::`;
  sorted.forEach((e, k) => {
    // Written as UTF-8 NFC, accents and all (never folded); plain ASCII must read back byte by byte too.
    const substitute = e.substitute.normalize("NFC");
    const field = `${substitute} ${e.count}`;
    const m = (/^[\x00-\x7f]*$/.test(field) ? ENTRY : UTF8_ENTRY).exec(field);
    if (!Number.isInteger(e.count) || e.count < 1 || field.includes(";") || !m || m.index !== 0 || m[1] !== substitute || Number(m[2]) !== e.count) {
      throw new Error(`gold line ${lexelt} ${id}: entry ${JSON.stringify(field)} cannot be written so the scorer reads it back`);
    }
    s += `${k === 0 ? " " : ""}${field};`;
  });
  return s;
}
