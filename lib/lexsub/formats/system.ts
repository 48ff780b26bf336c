/**
 * System answer files (seed 000 §2.2.2, §2.2.3, §2.2.5):
 *
 *   best:  severely.r 127 :: seriously;badly
 *   oot:   severely.r 127 ::: seriously;badly;gravely
 *   mw:    cross.n 54 :: cross section
 *
 * best and oot: exactly one space each side of the lexelt/id separator, as the
 * official scorer requires. The answer is split on `;` as Perl splits (trailing
 * empty fields dropped, `a;;b` is three guesses) and each guess is normalised as
 * the official scorer normalises it (`normalizeGuess`). mw: any spacing around
 * `::`; the answer is the whole rest of the line.
 *
 * Where the official scorer misbehaves, this reader tolerates and warns:
 * CRLF endings (the official keeps the `\r` in the last guess) and spaces
 * around `;` or at the end of the line (the official keeps them in the guess).
 * A guess with such spaces keeps its written form and also carries its trimmed
 * form in `alternatives`; the scorer uses the trimmed form only when the
 * written one matches nothing in the gold, so files the official scorer reads
 * correctly score the same. An empty answer gives no guesses (not attempted).
 * Lines matching no format are errors naming file and line.
 *
 * Streaming: `SystemReader.push` takes one line at a time. Pure: strings in,
 * records out.
 */
import { type Diagnostic, DiagnosticLog, diag, splitLines } from "../../scoring/diagnostics";

export type SystemKind = "best" | "oot" | "mw";

export interface SystemLine {
  /** The lexelt as written (not used for matching: items are keyed by id alone). */
  lexelt: string;
  id: string;
  /** The answer as written after the separator (a CRLF's `\r` removed). */
  answer: string;
  /**
   * best/oot: the guesses, each normalised as the official scorer normalises it
   * (empty when the answer is empty). mw: the answer with its first apostrophe
   * removed, as one element (empty when the answer is blank).
   */
  guesses: string[];
  /**
   * null when no guess has spaces around it; else, per guess, the normalised
   * form of the guess with the spaces removed (null for a guess without spaces).
   */
  alternatives: (string | null)[] | null;
  /** 1-based line number. */
  line: number;
}

export interface SystemParseResult {
  lines: SystemLine[];
  diagnostics: Diagnostic[];
}

// The answer runs to the end of the line, whatever it holds (Perl's "." takes a stray "\r" too).
const BEST = /^(\S+) (\S+) :: ([^\n]*)$/;
const OOT = /^(\S+) (\S+) ::: ([^\n]*)$/;
const MW = /^(\S+)[ \t]+(\S+)[ \t]*::[ \t]*([^\n]*)$/;
const PATTERN: Record<SystemKind, RegExp> = { best: BEST, oot: OOT, mw: MW };
const EXAMPLE: Record<SystemKind, string> = {
  best: "lexelt id :: guess;guess",
  oot: "lexelt id ::: guess;guess;...",
  mw: "lexelt id :: multiword",
};

const NON = /^non[ \t\n\r\f\v-]([^\n]*)$/;
const SPACE_AT_EDGE = /^\s|\s$/;
const NON_BLANK = /\S/;

/** JavaScript's \s, by code unit. */
function isSpace(c: number): boolean {
  return (
    c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

/**
 * The common best/oot line `lexelt id :: answer` (`:::` for oot) read without
 * a regular expression: the index where the answer starts, or -1 when the line
 * needs the full pattern (which then decides).
 */
function splitSystemLine(text: string, oot: boolean): number {
  const a = text.indexOf(" ");
  if (a <= 0) return -1;
  const b = text.indexOf(" ", a + 1);
  if (b <= a + 1) return -1;
  for (let i = 0; i < b; i++) if (i !== a && text.charCodeAt(i) <= 32) return -1;
  const colons = oot ? 3 : 2;
  for (let i = 1; i <= colons; i++) if (text.charCodeAt(b + i) !== 58) return -1;
  if (text.charCodeAt(b + colons + 1) !== 32) return -1;
  return b + colons + 2;
}

/**
 * A guess as the official (key release) scorer normalises it: `non-x` and
 * `non x` become `nonx`; every hyphen becomes a space; the first apostrophe is
 * removed. Matching is case-sensitive: case is kept.
 */
export function normalizeGuess(guess: string): string {
  let s = guess;
  if (s.startsWith("non")) {
    const m = NON.exec(s);
    if (m) s = "non" + m[1];
  }
  if (s.includes("-")) s = s.replace(/-/g, " ");
  if (s.includes("'")) s = s.replace("'", "");
  return s;
}

export interface SystemReaderOptions {
  /** How many diagnostics of one kind to list before summarising (default 10). */
  limit?: number;
}

/**
 * Reads a system file one line at a time: `push` each line's text (without
 * its `\n`) and get the record, or null for a blank or refused line; `finish`
 * returns the diagnostics.
 */
export class SystemReader {
  private lineNo = 0;
  private crlf = 0;
  private readonly log: DiagnosticLog;
  /** Lines that matched the format. */
  matched = 0;
  /** Non-blank lines that matched no format. */
  refused = 0;

  constructor(
    readonly file: string,
    readonly kind: SystemKind,
    options: SystemReaderOptions = {},
  ) {
    this.log = new DiagnosticLog(options.limit ?? 10);
  }

  /** Lines pushed so far. */
  get lines(): number {
    return this.lineNo;
  }

  push(raw: string): SystemLine | null {
    const n = ++this.lineNo;
    let text = raw;
    if (text.charCodeAt(text.length - 1) === 13) {
      text = text.slice(0, -1);
      if (this.crlf++ === 0) this.warn("crlf", n, "CRLF line ending read as LF (the official scorer would keep the \\r in the last guess)");
    }
    if (n === 1 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      this.warn("bom", n, "byte-order mark ignored");
    }
    let lexelt: string;
    let id: string;
    let answer: string;
    const at = this.kind === "mw" ? -1 : splitSystemLine(text, this.kind === "oot");
    if (at >= 0) {
      const a = text.indexOf(" ");
      lexelt = text.slice(0, a);
      id = text.slice(a + 1, text.indexOf(" ", a + 1));
      answer = text.slice(at);
    } else {
      const m = PATTERN[this.kind].exec(text);
      if (!m) {
        if (NON_BLANK.test(text)) this.refuse(text, n);
        return null;
      }
      [, lexelt, id, answer] = m;
    }
    this.matched++;
    if (this.kind === "mw") return this.mwLine(lexelt, id, answer, n);

    if (!NON_BLANK.test(answer)) {
      this.empty(n);
      return { lexelt, id, answer, guesses: [], alternatives: null, line: n };
    }
    // Perl's split(';'): trailing empty fields dropped.
    let end = answer.length;
    while (end > 0 && answer.charCodeAt(end - 1) === 59) end--;
    const guesses: string[] = [];
    let alternatives: (string | null)[] | null = null;
    let from = 0;
    while (from < end) {
      let semi = answer.indexOf(";", from);
      if (semi < 0 || semi > end) semi = end;
      const f = answer.slice(from, semi);
      guesses.push(normalizeGuess(f));
      if (f.length > 0 && (isSpace(f.charCodeAt(0)) || isSpace(f.charCodeAt(f.length - 1)))) {
        if (!alternatives) alternatives = [];
        alternatives[guesses.length - 1] = normalizeGuess(f.trim());
      }
      from = semi + 1;
    }
    if (guesses.length === 0) this.empty(n);
    if (alternatives) {
      for (let i = 0; i < guesses.length; i++) if (alternatives[i] === undefined) alternatives[i] = null;
      this.log.add(
        "spaces",
        diag("warning", this.file, n, `spaces around ";" or at the end of the answer (${clip(answer)}); a guess is matched as written, else without the spaces`),
        "lines with spaces around guesses",
      );
    }
    return { lexelt, id, answer, guesses, alternatives, line: n };
  }

  /** The diagnostics so far, with a summary line for each kind over the limit. */
  finish(): Diagnostic[] {
    if (this.crlf > 1) this.log.add("crlf-total", diag("warning", this.file, 0, `${this.crlf} lines had CRLF endings, read as LF`));
    return this.log.finish();
  }

  private mwLine(lexelt: string, id: string, answer: string, n: number): SystemLine {
    if (answer.trim() === "") {
      this.empty(n);
      return { lexelt, id, answer, guesses: [], alternatives: null, line: n };
    }
    const written = answer.replace("'", "");
    let alternatives: (string | null)[] | null = null;
    if (SPACE_AT_EDGE.test(answer)) {
      alternatives = [answer.trim().replace("'", "")];
      this.log.add(
        "spaces",
        diag("warning", this.file, n, `spaces at the end of the answer (${clip(answer)}); matched as written, else without the spaces`),
        "lines with spaces around the answer",
      );
    }
    return { lexelt, id, answer, guesses: [written], alternatives, line: n };
  }

  private empty(n: number): void {
    this.log.add(
      "empty",
      diag("warning", this.file, n, "empty answer: the item is not attempted (the official scorer would reuse the previous line's answer)"),
      "lines with an empty answer",
    );
  }

  private refuse(text: string, n: number): void {
    this.refused++;
    let hint = "";
    if (this.kind === "best" && OOT.test(text)) hint = " (an oot line, with ':::': is this an oot file?)";
    else if (this.kind === "oot" && BEST.test(text)) hint = " (a best line, with '::': is this a best file?)";
    this.log.add(
      "format",
      diag("error", this.file, n, `not a ${this.kind} line${hint}; expected "${EXAMPLE[this.kind]}": ${clip(text)}; line skipped`),
      `lines in no ${this.kind} format`,
    );
  }

  private warn(kind: string, line: number, message: string): void {
    this.log.add(kind, diag("warning", this.file, line, message));
  }
}

function clip(s: string): string {
  return JSON.stringify(s.length > 60 ? s.slice(0, 57) + "..." : s);
}

/** Parse a whole system file. */
export function parseSystem(text: string, file: string, kind: SystemKind, options: SystemReaderOptions = {}): SystemParseResult {
  const reader = new SystemReader(file, kind, options);
  const lines: SystemLine[] = [];
  for (const l of splitLines(text)) {
    const r = reader.push(l.crlf ? l.text + "\r" : l.text);
    if (r) lines.push(r);
  }
  return { lines, diagnostics: reader.finish() };
}
