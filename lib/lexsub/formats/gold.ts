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
import { type Diagnostic, DiagnosticLog, diag, splitLines } from "../../scoring/diagnostics";

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
  /** 1-based line number in the file. */
  line: number;
}

export interface GoldParseResult {
  lines: GoldLine[];
  diagnostics: Diagnostic[];
}

/** `lexelt id :: rest`: one space each side of `::` (mwgold allows any spacing before it). */
const GOLD_LINE = /^(\S+) (\S+) :: ?(.*)$/;
const MWGOLD_LINE = /^(\S+)[ \t]+(\S+)[ \t]*:: ?(.*)$/;
/** The official scorer's entry pattern, unanchored (Perl's \s on bytes: no \v, no Unicode spaces). */
const ENTRY = /(\w[\w' \t\n\r\f-]+) (\d+)/;

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
 */
export class GoldReader {
  private lineNo = 0;
  private readonly firstLine = new Map<string, number>();
  private readonly log: DiagnosticLog;
  private crlf = 0;
  private readonly checkRepeats: boolean;

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

  push(raw: string): GoldLine | null {
    const n = ++this.lineNo;
    let text = raw;
    if (text.endsWith("\r")) {
      text = text.slice(0, -1);
      if (this.crlf++ === 0) this.warn("crlf", n, "CRLF line ending read as LF", "lines with CRLF endings");
    }
    if (n === 1 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      this.warn("bom", n, "byte-order mark ignored");
    }
    if (text.trim() === "") return null;
    const m = (this.kind === "gold" ? GOLD_LINE : MWGOLD_LINE).exec(text);
    if (!m) {
      this.log.add(
        "format",
        diag("error", this.file, n, `not a ${this.kind} line (expected "lexelt id :: substitute count;..."): ${clip(text)}`),
        `lines in no ${this.kind} format`,
      );
      return null;
    }
    const [, lexelt, id, rest] = m;
    if (this.checkRepeats) {
      const first = this.firstLine.get(id);
      if (first !== undefined) {
        this.repeated(id, n, first);
        return null;
      }
      this.firstLine.set(id, n);
    }
    return { lexelt, id, entries: readEntries(rest, this.file, n, this.log), line: n };
  }

  /** Report line `line` as repeating the id first given at line `first` (the line is not used). */
  repeated(id: string, line: number, first: number): void {
    this.log.add("repeat", diag("error", this.file, line, `id ${id} is repeated (first at line ${first}); ids must be unique`), "repeated ids");
  }

  /** The diagnostics so far, with a summary line for each kind over the limit. */
  finish(): Diagnostic[] {
    if (this.crlf > 1) this.log.add("crlf-total", diag("warning", this.file, 0, `${this.crlf} lines had CRLF endings, read as LF`));
    return this.log.finish();
  }

  private warn(kind: string, line: number, message: string, plural?: string): void {
    this.log.add(kind, diag("warning", this.file, line, message), plural);
  }
}

/**
 * Read the `sub n;sub n;` part of a line as the official scorer does: split on
 * `;` (a trailing empty field dropped), each field read with the entry pattern.
 */
function readEntries(rest: string, file: string, line: number, log: DiagnosticLog): GoldEntry[] {
  const entries: GoldEntry[] = [];
  const fields = perlSplit(rest, ";");
  for (const field of fields) {
    const m = ENTRY.exec(field);
    if (!m) {
      log.add(
        "unread",
        diag("warning", file, line, `entry "${field}" is not read (a substitute starts with a letter or digit and has at least two characters); skipped, as the official scorer does`),
        "entries not read",
      );
      continue;
    }
    const substitute = m[1];
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
    entries.push({ substitute, count });
  }
  return entries;
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
 * or a substitute the official entry pattern would read differently).
 */
export function formatGoldLine(lexelt: string, id: string, entries: readonly GoldEntry[]): string {
  if (!/^\S+$/.test(lexelt) || !/^\S+$/.test(id)) throw new Error(`gold line: lexelt and id must be non-empty with no spaces: ${JSON.stringify([lexelt, id])}`);
  const sorted = entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => b.e.count - a.e.count || a.i - b.i)
    .map(({ e }) => e);
  let s = `${lexelt} ${id} ::`;
  sorted.forEach((e, k) => {
    const field = `${e.substitute} ${e.count}`;
    const m = ENTRY.exec(field);
    if (!Number.isInteger(e.count) || e.count < 1 || field.includes(";") || !m || m.index !== 0 || m[1] !== e.substitute || Number(m[2]) !== e.count) {
      throw new Error(`gold line ${lexelt} ${id}: entry ${JSON.stringify(field)} cannot be written so the scorer reads it back`);
    }
    s += `${k === 0 ? " " : ""}${field};`;
  });
  return s;
}
