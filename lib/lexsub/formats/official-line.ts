/**
 * score.pl's line patterns for gold and best/oot files, `([\w.]+) (\S+) \:\: (.*)`
 * (`\:\:\:` for oot), matched as Perl matches them — unanchored, leftmost, with
 * Perl's classes (perl-classes.ts: by default its ASCII classes on bytes, \w =
 * [A-Za-z0-9_], \s = [ \t\n\r\f]; or its Unicode classes on characters) — but in
 * linear time (the regular expression backtracks quadratically on a long line
 * of word characters). Pure.
 *
 * Why this is the leftmost match: a match starting at s takes the whole run of
 * [\w.] characters from s (it must be followed by a space, which the class
 * excludes), then the whole run of non-space characters after that space as the
 * id (a shorter id would be followed by a non-space), then needs " :: ". So
 * every start inside one [\w.] run succeeds or fails alike, and it is enough to
 * try each run once, left to right.
 */
import { BYTE_CLASSES, type PerlClasses } from "./perl-classes";

export interface OfficialLine {
  lexeltStart: number;
  lexeltEnd: number;
  idStart: number;
  idEnd: number;
  /** Where the answer (or the gold entries) starts: after the separator's space. */
  restStart: number;
}

/** A character of the lexelt class `[\w.]`. */
function isLexeltChar(text: string, i: number, cls: PerlClasses): boolean {
  return text.charCodeAt(i) === 46 || cls.word(text, i);
}

/** Match `([\w.]+) (\S+) ::(:)? (.*)` against `text`; `colons` is 2 (best, gold) or 3 (oot). */
export function matchOfficialLine(text: string, colons: 2 | 3, cls: PerlClasses = BYTE_CLASSES): OfficialLine | null {
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isLexeltChar(text, i, cls)) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isLexeltChar(text, i, cls)) i++;
    // The run [start, i) is a lexelt if a space, an id and the separator follow.
    if (i < n && text.charCodeAt(i) === 32) {
      const idStart = i + 1;
      let j = idStart;
      while (j < n && !cls.space(text.charCodeAt(j))) j++;
      if (j > idStart && separatorAt(text, j, colons)) {
        return { lexeltStart: start, lexeltEnd: i, idStart, idEnd: j, restStart: j + colons + 2 };
      }
    }
  }
  return null;
}

/** Whether " ::" (or " :::") and a space stand at `at`. */
function separatorAt(text: string, at: number, colons: number): boolean {
  if (at + colons + 2 > text.length || text.charCodeAt(at) !== 32) return false;
  for (let k = 1; k <= colons; k++) if (text.charCodeAt(at + k) !== 58) return false;
  return text.charCodeAt(at + colons + 1) === 32;
}
