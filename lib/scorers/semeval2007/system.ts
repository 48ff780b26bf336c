/**
 * System answer files (seed 000 §2.2.2, §2.2.3, §2.2.5):
 *
 *   best:  severely.r 127 :: seriously;badly
 *   oot:   severely.r 127 ::: seriously;badly;gravely
 *   mw:    cross.n 54 :: cross section
 *
 * best and oot lines are read with score.pl's own pattern, unanchored:
 * `([\w.]+) (\S+) :: (.*)` (`:::` for oot), with Perl's ASCII classes — so the
 * lexelt is what that pattern captures (`e-commerce.a` gives `commerce.a`). The
 * answer is split on `;` as Perl splits (trailing empty fields dropped, `a;;b`
 * is three guesses) and each guess is normalised as the official scorer
 * normalises it (`normalizeGuess`, rules.ts). mw: any spacing around `::`; the answer is
 * the whole rest of the line.
 *
 * By default an answer is read exactly as score.pl reads it: a CRLF's `\r`
 * stays in the last guess, spaces around `;` stay in the guesses, an mw
 * answer keeps its apostrophe. With `repaired`, CRLF reads as LF, a guess
 * with such spaces also carries its trimmed form in `alternatives` (used only
 * when the written one matches nothing in the gold), and an mw answer loses
 * its first apostrophe as the gold's does. Either way each such line gets a
 * warning, and a `RepairTracker` notes its id. An empty answer gives no
 * guesses (not attempted). Lines matching no format are errors naming file
 * and line.
 *
 * The character classes are Perl's on bytes (score.pl as it runs) unless the
 * reader is given the UTF-8 reading (`perl -CSD`: Unicode classes on
 * characters, so `façade.n` is a lexelt; rules.ts `classesOf`).
 *
 * Streaming: `SystemReader.push` takes one line at a time. Pure: strings in,
 * records out.
 */
import { type Reading, classesOf, normalizeGuess, withoutFirstApostrophe } from "./rules";
import { BYTE_CLASSES, type PerlClasses } from "../../lexsub/formats/perl-classes";
import { type Diagnostic, DiagnosticLog, diag, splitLines } from "../../lexsub/diagnostics";
import { type RepairTracker } from "./repairs";
import { matchOfficialLine } from "../../lexsub/formats/official-line";

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

// best and oot: score.pl's patterns (official-line.ts); the answer runs to the end of
// the line (Perl's "." takes a "\r" too).
const MW = /^(\S+)[ \t]+(\S+)[ \t]*::[ \t]*([^\n]*)$/;
const EXAMPLE: Record<SystemKind, string> = {
  best: "lexelt id :: guess;guess",
  oot: "lexelt id ::: guess;guess;...",
  mw: "lexelt id :: multiword",
};

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
function splitSystemLine(text: string, oot: boolean, cls: PerlClasses): number {
  const a = text.indexOf(" ");
  if (a <= 0) return -1;
  const b = text.indexOf(" ", a + 1);
  if (b <= a + 1) return -1;
  // The lexelt all of [\w.] (so score.pl's match starts at the line's start), the id no space.
  for (let i = 0; i < a; i++) if (text.charCodeAt(i) !== 46 && !cls.word(text, i)) return -1;
  for (let i = a + 1; i < b; i++) if (text.charCodeAt(i) <= 32 || cls.space(text.charCodeAt(i))) return -1;
  const colons = oot ? 3 : 2;
  for (let i = 1; i <= colons; i++) if (text.charCodeAt(b + i) !== 58) return -1;
  if (text.charCodeAt(b + colons + 1) !== 32) return -1;
  return b + colons + 2;
}

export interface SystemReaderOptions {
  /** How many diagnostics of one kind to list before summarising (default 10). */
  limit?: number;
  /** Apply the documented repairs (CRLF as LF, spaces around guesses, mw apostrophes) instead of reading as score.pl does. */
  repaired?: boolean;
  /** In the default mode: note the ids of lines a repair would read differently. */
  repairs?: RepairTracker;
  /** Read only the lines of these ids (others are counted, not parsed: a repaired pass over the ids a repair touches). */
  only?: ReadonlySet<string>;
  /** Log into this (shared with the scorer's fast lane, which then finishes it) instead of a log of its own. */
  log?: DiagnosticLog;
  /** How Perl reads the file's characters (default "bytes", score.pl as it runs; "utf8": `perl -CSD`). */
  reading?: Reading;
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

  private readonly repaired: boolean;
  private readonly repairs: RepairTracker | undefined;
  private readonly only: ReadonlySet<string> | undefined;
  private readonly cls: PerlClasses;

  constructor(
    readonly file: string,
    readonly kind: SystemKind,
    options: SystemReaderOptions = {},
  ) {
    this.log = options.log ?? new DiagnosticLog(options.limit ?? 10);
    this.repaired = options.repaired === true;
    this.repairs = options.repaired ? undefined : options.repairs;
    this.only = options.only;
    this.cls = classesOf(options.reading);
  }

  /** Lines pushed so far. */
  get lines(): number {
    return this.lineNo;
  }

  /** Number the next line pushed `line` (for re-reading kept lines of a file under their own numbers). */
  seek(line: number): void {
    this.lineNo = line - 1;
  }

  push(raw: string): SystemLine | null {
    const n = ++this.lineNo;
    let text = raw;
    const cr = text.charCodeAt(text.length - 1) === 13;
    if (cr) {
      // score.pl keeps the "\r" in the answer; the repaired reading drops it.
      if (this.repaired) text = text.slice(0, -1);
      if (this.crlf++ === 0) {
        this.warn(
          "crlf",
          n,
          this.repaired
            ? "CRLF line ending read as LF (repaired; score.pl keeps the \\r in the last guess, which then matches nothing)"
            : "CRLF line ending: the \\r stays in the last guess, which then matches nothing, as in score.pl (--repaired reads it as LF)",
        );
      }
    }
    if (n === 1 && text.charCodeAt(0) === 0xfeff) {
      text = text.slice(1);
      this.warn("bom", n, "byte-order mark ignored");
    }
    let lexelt: string;
    let id: string;
    let answer: string;
    const at = this.kind === "mw" ? -1 : splitSystemLine(text, this.kind === "oot", this.cls);
    if (at >= 0) {
      const a = text.indexOf(" ");
      lexelt = text.slice(0, a);
      id = text.slice(a + 1, text.indexOf(" ", a + 1));
      answer = text.slice(at);
    } else {
      if (this.kind === "mw") {
        const m = MW.exec(text);
        if (!m) {
          if (NON_BLANK.test(text)) this.refuse(text, n);
          return null;
        }
        [, lexelt, id, answer] = m;
      } else {
        const m = matchOfficialLine(text, this.kind === "oot" ? 3 : 2, this.cls);
        if (!m) {
          if (NON_BLANK.test(text)) this.refuse(text, n);
          return null;
        }
        lexelt = text.slice(m.lexeltStart, m.lexeltEnd);
        id = text.slice(m.idStart, m.idEnd);
        answer = text.slice(m.restStart);
      }
    }
    if (this.only && !this.only.has(id)) return null;
    this.matched++;
    if (cr && this.repairs) this.repairs.note("crlf", id);
    if (this.kind === "mw") return this.mwLine(lexelt, id, answer, n, cr && !this.repaired);

    if (this.blank(answer)) {
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
      guesses.push(normalizeGuess(f, this.cls));
      // A kept "\r" (CRLF, score.pl's reading) is the CRLF rule's, not a space around a guess.
      const core = cr && !this.repaired && semi === answer.length ? f.slice(0, -1) : f;
      if (core.length > 0 && (isSpace(core.charCodeAt(0)) || isSpace(core.charCodeAt(core.length - 1)))) {
        if (!alternatives) alternatives = [];
        alternatives[guesses.length - 1] = normalizeGuess(f.trim(), this.cls);
      }
      from = semi + 1;
    }
    if (guesses.length === 0) this.empty(n);
    if (alternatives) {
      for (let i = 0; i < guesses.length; i++) if (alternatives[i] === undefined) alternatives[i] = null;
      this.spaces(n, id, answer, `spaces around ";" or at the end of the answer (${clip(answer)})`, "lines with spaces around guesses");
      if (!this.repaired) alternatives = null;
    }
    return { lexelt, id, answer, guesses, alternatives, line: n };
  }

  /** Whether an answer holds only whitespace (Perl's \s, read as UTF-8: U+0085 is a space, U+FEFF is not). */
  private blank(answer: string): boolean {
    if (this.cls === BYTE_CLASSES) return !NON_BLANK.test(answer);
    for (let i = 0; i < answer.length; i++) if (!this.cls.space(answer.charCodeAt(i))) return false;
    return true;
  }

  /** The diagnostics so far, with a summary line for each kind over the limit. */
  finish(): Diagnostic[] {
    if (this.crlf > 1) {
      const how = this.repaired ? "read as LF" : "each \\r kept in the last guess, as in score.pl";
      this.log.add("crlf-total", diag("warning", this.file, 0, `${this.crlf} lines had CRLF endings, ${how}`));
    }
    return this.log.finish();
  }

  private mwLine(lexelt: string, id: string, answer: string, n: number, keptCr: boolean): SystemLine {
    if (this.blank(answer)) {
      this.empty(n);
      return { lexelt, id, answer, guesses: [], alternatives: null, line: n };
    }
    // score.pl strips the gold multiword's first apostrophe but not the answer's.
    const apostrophe = answer.includes("'");
    if (apostrophe && this.repairs) this.repairs.note("mw-apostrophe", id);
    const strip = (s: string) => (this.repaired ? withoutFirstApostrophe(s) : s);
    let alternatives: (string | null)[] | null = null;
    if (SPACE_AT_EDGE.test(keptCr ? answer.slice(0, -1) : answer)) {
      this.spaces(n, id, answer, `spaces at the end of the answer (${clip(answer)})`, "lines with spaces around the answer");
      if (this.repaired) alternatives = [strip(answer.trim())];
    }
    return { lexelt, id, answer, guesses: [strip(answer)], alternatives, line: n };
  }

  /** A line with spaces around its guesses: warned, and noted (default) or given trimmed alternatives (repaired). */
  private spaces(n: number, id: string, answer: string, what: string, plural: string): void {
    this.repairs?.note("spaces", id);
    const how = this.repaired
      ? "a guess is matched as written, else without the spaces (repaired)"
      : "the spaces stay in the guess, as in score.pl, so it matches only a gold entry with the same spaces (--repaired also tries it without them)";
    this.log.add("spaces", diag("warning", this.file, n, `${what}; ${how}`), plural);
  }

  private empty(n: number): void {
    this.log.add("empty", emptyAnswer(this.file, n), EMPTY_ANSWERS);
  }

  private refuse(text: string, n: number): void {
    this.refused++;
    let hint = "";
    if (this.kind === "best" && matchOfficialLine(text, 3)) hint = " (an oot line, with ':::': is this an oot file?)";
    else if (this.kind === "oot" && matchOfficialLine(text, 2)) hint = " (a best line, with '::': is this a best file?)";
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

export const EMPTY_ANSWERS = "lines with an empty answer";

/** A best/oot line with no guess (shared with the scorer's fast lane, score/fast.ts). */
export function emptyAnswer(file: string, line: number): Diagnostic {
  return diag("warning", file, line, "empty answer: the item is not attempted (the official scorer would reuse the previous line's answer)");
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

/** What `sniffSystemKind` found in a file whose name says nothing of its type. */
export interface SystemKindGuess {
  /** null when the content does not settle it (then the user chooses). */
  kind: SystemKind | null;
  /** Why, in a sentence for the user. */
  reason: string;
}

/**
 * The type of a system file read from its content, for a file whose extension
 * says nothing (`BL.out`): `:::` lines make it oot; `::` lines with a `;` in
 * some answer make it best; `::` lines whose answers all hold a space
 * (multiwords) and no `;` make it mw; single words without `;` make it best.
 * A file mixing `::` and `:::` lines, or single words and multiwords with no
 * `;` anywhere, is left to the user. Reads at most `maxLines` non-blank lines.
 */
export function sniffSystemKind(text: string, maxLines = 2000): SystemKindGuess {
  let oot = 0;
  let two = 0;
  let semicolon = 0;
  let multiword = 0;
  let single = 0;
  let seen = 0;
  for (const { text: line } of splitLines(text)) {
    if (!NON_BLANK.test(line)) continue;
    if (++seen > maxLines) break;
    if (matchOfficialLine(line, 3)) {
      oot++;
      continue;
    }
    const m = MW.exec(line.replace(/\r$/, ""));
    if (!m) continue;
    two++;
    const answer = m[3].trim();
    if (answer === "") continue;
    if (answer.includes(";")) semicolon++;
    else if (/\s/.test(answer)) multiword++;
    else single++;
  }
  if (oot > 0 && two === 0) return { kind: "oot", reason: `${oot} line${oot === 1 ? "" : "s"} with ":::"` };
  if (oot > 0) return { kind: null, reason: `both "::" and ":::" lines (${two} and ${oot})` };
  if (two === 0) return { kind: null, reason: "no line in the best, oot or mw format" };
  if (semicolon > 0) return { kind: "best", reason: `"::" lines with guesses separated by ";"` };
  if (multiword > 0 && single === 0) return { kind: "mw", reason: `"::" lines each naming a multiword` };
  if (single > 0 && multiword === 0) return { kind: "best", reason: `"::" lines with one single-word guess each` };
  return { kind: null, reason: `"::" lines with single words and multiwords and no ";": best or mw` };
}
