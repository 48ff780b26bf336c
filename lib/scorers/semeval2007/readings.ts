/**
 * Whether score.pl's two readings — bytes (`perl score.pl`) and UTF-8 characters
 * (`perl -CSD score.pl`) — can give different figures for a pair of files, decided
 * cheaply, so a default run computes the UTF-8 reading only where it could differ.
 *
 * A line both readings read alike (`readingsAgreeOn`: ASCII, no vertical tab) is
 * parsed the same by both. Scoring in the default reading is a function of the parsed
 * lines alone (the key's entries, |H_i|, modes and T; the system lines' ids and
 * normalised guesses): the readings' classes decide only the parsing. So when every
 * other line — the few a real file holds, CoInCo's stray `¢` among them — parses the
 * same under both readings, the figures are the same, and the second run is not needed.
 * Those lines are kept (up to a limit) while the files are read once, and parsed both
 * ways here. Pure.
 */
import { readingsAgreeOn } from "../../lexsub/formats/perl-classes";
import { KeyBuilder, type KeyOptions, type ScoringKey } from "./key";
import { SystemReader } from "./system";

/** Lines kept at most, and characters: past either, the check answers "could differ" (the UTF-8 run decides). */
const MAX_LINES = 20_000;
const MAX_CHARS = 4 << 20;

/** The lines of a gold and a system file the two readings may read differently, kept as they are read. */
export class ReadingLines {
  private readonly gold: Array<[number, string]> = [];
  private readonly system: Array<[number, string]> = [];
  private goldLine = 0;
  private systemLine = 0;
  private chars = 0;
  /** Too many to keep: the check gives up. */
  private overflow = false;

  /** The next gold line (as the scorer is fed it: without its "\n", a "\r" kept). */
  noteGold(text: string): void {
    this.note(this.gold, ++this.goldLine, text);
  }

  /** The next system line. */
  noteSystem(text: string): void {
    this.note(this.system, ++this.systemLine, text);
  }

  /** Gold line `line` (for a reader that sees only some lines: the fast lane's full reader). */
  noteGoldAt(line: number, text: string): void {
    this.note(this.gold, line, text);
  }

  /** System line `line` (as noteGoldAt). */
  noteSystemAt(line: number, text: string): void {
    this.note(this.system, line, text);
  }

  /** Whether any line read may be read differently (else the readings agree on both files outright). */
  get any(): boolean {
    return this.overflow || this.gold.length > 0 || this.system.length > 0;
  }

  private note(into: Array<[number, string]>, line: number, text: string): void {
    if (this.overflow || readingsAgreeOn(text)) return;
    if (this.gold.length + this.system.length >= MAX_LINES || (this.chars += text.length) > MAX_CHARS) {
      this.overflow = true;
      into.length = 0;
      return;
    }
    into.push([line, text]);
  }

  /**
   * Whether the UTF-8 reading could score these files differently from the byte
   * reading: false when every kept line parses the same both ways (the gold's
   * items as the key holds them, the system lines' ids and guesses).
   */
  couldDiffer(type: "best" | "oot" | "mw", analysis: KeyOptions = {}): boolean {
    if (this.overflow || type === "mw") return this.any;
    if (!this.any) return false;
    return !sameKeys(this.keyOf("bytes", analysis), this.keyOf("utf8", analysis)) || !this.sameSystemLines(type);
  }

  private keyOf(reading: "bytes" | "utf8", analysis: KeyOptions): ScoringKey {
    const b = new KeyBuilder("gold", { ...analysis, reading });
    for (const [line, text] of this.gold) b.pushAt(line, text);
    return b.finish().key;
  }

  private sameSystemLines(type: "best" | "oot"): boolean {
    const bytes = new SystemReader("system", type, { reading: "bytes" });
    const utf8 = new SystemReader("system", type, { reading: "utf8" });
    for (const [line, text] of this.system) {
      bytes.seek(line);
      utf8.seek(line);
      const a = bytes.push(text);
      const b = utf8.push(text);
      if (a === null || b === null) {
        if (a !== b) return false;
        continue;
      }
      if (a.id !== b.id || JSON.stringify(a.guesses) !== JSON.stringify(b.guesses) || JSON.stringify(a.alternatives) !== JSON.stringify(b.alternatives)) return false;
    }
    return true;
  }
}

/** Two keys of the same lines hold the same items: ids, lexelts, entries as stored, |H_i| and modes, T and TM. */
function sameKeys(a: ScoringKey, b: ScoringKey): boolean {
  if (a.total !== b.total || a.totalWithMode !== b.totalWithMode) return false;
  for (let o = 0; o < a.total; o++) {
    if (a.id(o) !== b.id(o) || a.lexelt(o) !== b.lexelt(o) || a.stored(o) !== b.stored(o) || a.humanResponses(o) !== b.humanResponses(o) || a.mode(o) !== b.mode(o)) return false;
  }
  return true;
}
