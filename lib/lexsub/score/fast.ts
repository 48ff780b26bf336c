/**
 * The scorer's fast lane: best and oot as score.pl reads them (the default
 * reading, no further analysis, no per-item output), over files in the form
 * almost every file takes, read as bytes — no string, array or object is made
 * per line, and a gold line's fields are kept as offsets into the gold file's
 * bytes.
 *
 * It answers only where the full scorer (run.ts: KeyBuilder, SystemReader,
 * SubstitutionScorer) would take its own shortest paths, and then gives
 * exactly what that scorer gives: the figures (sums in file order, the same
 * divisions), the diagnostics (the same messages, from the same functions), the
 * line counts, and the repaired figures of a default run. Every line outside
 * that form makes it give up — `FastKey.build` answers null, `FastScorer.push`
 * false — and the caller scores with `ScoreRun`, which is always right; this
 * lane only has to agree with it where it answers
 * (test/lexsub/score-fast.test.ts compares the two on random files).
 *
 * The form, as bytes (every byte of a line printable ASCII, LF endings):
 * - gold: `lexelt id :: sub count;sub count;…` with the lexelt of `[\w.]`, a
 *   canonical decimal id (no leading zero, at most nine digits, given once),
 *   each sub of word characters, spaces and hyphens (a word character first,
 *   no space last, at least two characters, not starting "non", no "pn"
 *   anywhere in the entries, given once in the line), a count of at most nine
 *   digits, trailing `;`s allowed, at most 64 entries — the lines KeyBuilder
 *   keeps as written;
 * - system: `lexelt id :: answer` (`:::` for oot), guesses split on `;` as
 *   Perl splits, no guess with a space at either end; empty lines anywhere.
 * Of the repairs (repairs.ts) only one can apply to such files, the
 * hyphenated mode, and it is counted in the same pass. Pure.
 */
import { type Diagnostic, DiagnosticLog } from "../../scoring/diagnostics";
import { EMPTY_ANSWERS, emptyAnswer } from "../formats/system";
import { UNSORTED_LINES, sortDiagnostics, unsortedLine } from "./key";
import { type RepairReport } from "./run";
import { repairInfo } from "./repairs";
import {
  ANSWERED_BEFORE,
  OVER_TEN,
  REPEATED_GUESSES,
  type SubstitutionResult,
  type SubstitutionStats,
  type SubstitutionType,
  answeredBefore,
  emptyStats,
  finishScorerLog,
  overTen,
  repeatedGuesses,
  substitutionScores,
} from "./substitution";
import { OOT_LIMIT } from "./oot";

/** Item flags. */
const MODE = 1;
const HYPHENS = 2;
/** A hyphenated mode: score.pl never hits it, the repaired reading does (noted for the repair report). */
const HYPHEN_MODE = 4;
/** The repaired reading changed this item's outcome. */
const CHANGED = 8;

/** The index's mark for a gold id outside T. */
const OUTSIDE = -1;
/** As KeyBuilder: the most entries a line kept as written may have. */
const MAX_ENTRIES = 64;
/** |H_i| is kept in 31 bits by the full scorer's key (with the mode bit): larger goes the long way. */
const MAX_HUMAN_RESPONSES = 2 ** 29;

const SPACE = 32;
const SEMI = 59;
const HYPHEN = 45;
const APOSTROPHE = 39;
const NL = 10;

/** `[A-Za-z0-9_]`. */
function isWord(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
}

function grown(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  let size = a.length * 2;
  while (size < need) size *= 2;
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

/** T as the fast lane keeps it: per item its fields (offsets into the gold's bytes), counts, |H_i| and flags. */
export class FastKey {
  total = 0;
  totalWithMode = 0;
  /** Items with a hyphenated mode (a repair would read them differently). */
  noted = 0;
  /** Item o's fields are [fieldFrom[o], fieldFrom[o + 1]). */
  fieldFrom = new Int32Array(1 << 12);
  hu = new Int32Array(1 << 12);
  ids = new Int32Array(1 << 12);
  flags = new Uint8Array(1 << 12);
  subStart = new Int32Array(1 << 14);
  subEnd = new Int32Array(1 << 14);
  counts = new Int32Array(1 << 14);
  fields = 0;
  /** id → item + 1; OUTSIDE for a gold id outside T; 0 for an id not in the gold. */
  index = new Int32Array(1 << 12);
  /** The gold's diagnostics (unsorted lines), in line order. */
  diagnostics: Diagnostic[] = [];
  private readonly log = new DiagnosticLog(10);

  private constructor(
    readonly bytes: Uint8Array,
    readonly file: string,
  ) {}

  /** The key of a gold file's bytes, or null when a line is not in the lane's form (then use KeyBuilder). */
  static build(bytes: Uint8Array, file: string): FastKey | null {
    const k = new FastKey(bytes, file);
    const n = bytes.length;
    let pos = 0;
    let line = 0;
    while (pos < n) {
      let end = bytes.indexOf(NL, pos);
      if (end < 0) end = n;
      line++;
      if (end > pos && !k.goldLine(pos, end, line)) return null;
      pos = end + 1;
    }
    k.fieldFrom = grown(k.fieldFrom, k.total + 1);
    k.fieldFrom[k.total] = k.fields;
    k.diagnostics = sortDiagnostics(k.log.finish());
    return k;
  }

  /** Read gold line `line`, bytes [pos, end); false when it is not in the form. */
  private goldLine(pos: number, end: number, line: number): boolean {
    const b = this.bytes;
    let i = pos;
    let c = 0;
    while (i < end && (isWord((c = b[i])) || c === 46)) i++;
    if (i === pos || i >= end || b[i] !== SPACE) return false;
    // The id: canonical decimal, at most nine digits.
    const idStart = ++i;
    c = b[i];
    if (i >= end || c < 49 || c > 57) return false;
    let id = 0;
    while (i < end && (c = b[i]) >= 48 && c <= 57) {
      id = id * 10 + (c - 48);
      i++;
    }
    if (i - idStart > 9 || i + 3 >= end || b[i] !== SPACE || b[i + 1] !== 58 || b[i + 2] !== 58 || b[i + 3] !== SPACE) return false;
    // An id given twice is an error for the full scorer; an index too sparse for an array goes the long way too.
    if (id >= this.index.length) {
      if (id >= Math.max(1 << 20, 8 * line)) return false;
      this.index = grown(this.index, id + 1);
    }
    if (this.index[id] !== 0) return false;

    // The entries.
    const first = this.fields;
    let p = i + 4;
    let hyphens = false;
    if (p < end && b[p] !== SEMI) {
      for (;;) {
        c = b[p];
        if (!isWord(c) || (c === 110 && b[p + 1] === 111 && b[p + 2] === 110)) return false;
        let space = -1;
        let q = p;
        for (; q < end; q++) {
          c = b[q];
          if (c === SEMI) break;
          if (c === SPACE) space = q;
          else if (c === HYPHEN) hyphens = true;
          else if (!isWord(c)) return false;
          else if (c === 112 && b[q + 1] === 110) return false; // "pn"
        }
        // [p, space) the substitute, (space, q) the count.
        if (space - p < 2 || b[space - 1] === SPACE || q - space - 1 < 1 || q - space - 1 > 9) return false;
        let count = 0;
        for (let k = space + 1; k < q; k++) {
          const d = b[k] - 48;
          if (d < 0 || d > 9) return false;
          count = count * 10 + d;
        }
        const nf = this.fields - first;
        if (nf === MAX_ENTRIES) return false;
        // A substitute given twice in a line goes the long way.
        for (let f = first; f < this.fields; f++) if (sameBytes(b, this.subStart[f], this.subEnd[f], p, space)) return false;
        this.addField(p, space, count);
        if (q >= end) {
          p = end;
          break;
        }
        p = q + 1;
        if (p >= end) break;
        if (b[p] === SEMI) break; // trailing `;`s: checked below
      }
    }
    while (p < end && b[p] === SEMI) p++;
    if (p < end) return false;

    const nf = this.fields - first;
    const counts = this.counts;
    if (!(nf >= 2 || (nf === 1 && counts[first] >= 2))) {
      this.fields = first;
      this.index[id] = OUTSIDE;
      return true;
    }
    // The mode: the first entry, unless another has its count (the full scorer's modeOf).
    const top = counts[first];
    let mode = true;
    let unsorted = false;
    let hu = top;
    for (let f = first + 1; f < this.fields; f++) {
      if (counts[f] === top) mode = false;
      if (counts[f] > counts[f - 1]) unsorted = true;
      hu += counts[f];
    }
    if (hu >= MAX_HUMAN_RESPONSES) return false;
    if (unsorted) this.log.add("unsorted", unsortedLine(this.file, line, id), UNSORTED_LINES);
    let flags = (mode ? MODE : 0) | (hyphens ? HYPHENS : 0);
    if (mode && hasByte(b, this.subStart[first], this.subEnd[first], HYPHEN)) {
      flags |= HYPHEN_MODE;
      this.noted++;
    }
    const o = this.total++;
    if (o + 1 >= this.fieldFrom.length) {
      this.fieldFrom = grown(this.fieldFrom, o + 2);
      this.hu = grown(this.hu, o + 2);
      this.ids = grown(this.ids, o + 2);
      const f = new Uint8Array(this.fieldFrom.length);
      f.set(this.flags);
      this.flags = f;
    }
    this.fieldFrom[o] = first;
    this.hu[o] = hu;
    this.ids[o] = id;
    this.flags[o] = flags;
    if (mode) this.totalWithMode++;
    this.index[id] = o + 1;
    return true;
  }

  private addField(start: number, end: number, count: number): void {
    const f = this.fields++;
    if (f >= this.subStart.length) {
      this.subStart = grown(this.subStart, f + 1);
      this.subEnd = grown(this.subEnd, f + 1);
      this.counts = grown(this.counts, f + 1);
    }
    this.subStart[f] = start;
    this.subEnd[f] = end;
    this.counts[f] = count;
  }
}

function sameBytes(b: Uint8Array, a: number, aEnd: number, c: number, cEnd: number): boolean {
  if (aEnd - a !== cEnd - c) return false;
  for (let i = 0; i < aEnd - a; i++) if (b[a + i] !== b[c + i]) return false;
  return true;
}

function hasByte(b: Uint8Array, from: number, to: number, byte: number): boolean {
  for (let i = from; i < to; i++) if (b[i] === byte) return true;
  return false;
}

/** What the fast lane gives: the full scorer's result, diagnostics, line counts and repair report. */
export interface FastScore {
  result: SubstitutionResult;
  systemDiagnostics: Diagnostic[];
  lines: { read: number; matched: number; refused: number };
  /** As `ScoreRun.inlineRepairs` gives it (null when no repair applies). */
  repairs: RepairReport | null;
}

/**
 * Scores a best or oot system file's bytes against a FastKey, a piece at a
 * time: `push` each piece of whole lines, then `finish`. `push` answers false
 * (and the scorer is spent) at the first line not in the lane's form.
 */
export class FastScorer {
  private readonly oot: boolean;
  private readonly stats: SubstitutionStats;
  /** The repaired reading's mode hits (everything else it counts the same). */
  private repairedModeHits = 0;
  private readonly answeredAt: Uint32Array;
  private readonly readerLog = new DiagnosticLog(10);
  private readonly log = new DiagnosticLog(10);
  private lineNo = 0;
  private matched = 0;
  private outsideT = 0;
  private repeats = 0;
  private unscorable = 0;
  /** The current line's guesses: [start, end) in its bytes; a guess normalised into `guess`. */
  private gStart = new Int32Array(64);
  private gEnd = new Int32Array(64);
  private guess = new Uint8Array(256);
  private guessLength = 0;
  /** After `match`: the entry's count, and whether the guess is the entry as written. */
  private count = 0;
  private exact = false;

  constructor(
    private readonly key: FastKey,
    readonly type: SubstitutionType,
    readonly file: string,
  ) {
    this.oot = type === "oot";
    this.stats = emptyStats(key.total, key.totalWithMode);
    this.answeredAt = new Uint32Array(key.total);
  }

  /**
   * The lines of bytes[from, to): each ends in "\n", except, with `last`, the
   * file's final line (without one). False at a line not in the form.
   */
  push(bytes: Uint8Array, from: number, to: number, last = false): boolean {
    let pos = from;
    while (pos < to) {
      let end = bytes.indexOf(NL, pos);
      if (end < 0 || end >= to) {
        if (!last) throw new Error("FastScorer.push: a piece must end with a line's end");
        end = to;
      }
      this.lineNo++;
      if (end > pos && !this.systemLine(bytes, pos, end)) return false;
      pos = end + 1;
    }
    return true;
  }

  /** Score system line `lineNo`, bytes [pos, end); false when it is not in the form. */
  private systemLine(b: Uint8Array, pos: number, end: number): boolean {
    let i = pos;
    let c = 0;
    while (i < end && (isWord((c = b[i])) || c === 46)) i++;
    if (i === pos || i >= end || b[i] !== SPACE) return false;
    const idStart = ++i;
    let id = 0;
    let numeric = i < end && b[i] >= 49 && b[i] <= 57;
    for (; i < end && (c = b[i]) !== SPACE; i++) {
      if (c < 33 || c > 126) return false;
      if (numeric) {
        if (c < 48 || c > 57) numeric = false;
        else id = id * 10 + (c - 48);
      }
    }
    if (i === idStart || i - idStart > 9) numeric = false;
    // " :: " (" ::: "), all inside the line (the bytes after it may be a stale part of the piece).
    const at = i + (this.oot ? 5 : 4);
    if (at > end || b[i + 1] !== 58 || b[i + 2] !== 58 || (this.oot && b[i + 3] !== 58) || b[at - 1] !== SPACE) return false;
    const idEnd = i;
    this.matched++;

    // The reader: the answer split as Perl splits it; no byte outside printable ASCII, no guess with a space at an end.
    let blank = true;
    for (let k = at; k < end; k++) {
      c = b[k];
      if (c < 32 || c > 126) return false;
      if (c !== SPACE) blank = false;
    }
    let n = 0;
    if (!blank) {
      let stop = end;
      while (stop > at && b[stop - 1] === SEMI) stop--;
      let from = at;
      while (from < stop) {
        let semi = from;
        while (semi < stop && b[semi] !== SEMI) semi++;
        if (semi > from && (b[from] === SPACE || b[semi - 1] === SPACE)) return false;
        if (n === this.gStart.length) {
          this.gStart = grown(this.gStart, n + 1);
          this.gEnd = grown(this.gEnd, n + 1);
        }
        this.gStart[n] = from;
        this.gEnd[n++] = semi;
        from = semi + 1;
      }
    }
    if (n === 0) this.readerLog.add("empty", emptyAnswer(this.file, this.lineNo), EMPTY_ANSWERS);

    // The scorer.
    const key = this.key;
    const slot = numeric && id < key.index.length ? key.index[id] : 0;
    if (slot <= 0) {
      this.outsideT++;
      return true;
    }
    const o = slot - 1;
    const first = this.answeredAt[o];
    if (first !== 0) {
      this.repeats++;
      const line = this.lineNo;
      this.log.addLazy("repeat", () => answeredBefore(this.file, line, latin1(b, idStart, idEnd), first), ANSWERED_BEFORE);
      return true;
    }
    this.answeredAt[o] = this.lineNo;
    const hu = key.hu[o];
    if (hu === 0) {
      this.unscorable++;
      return true;
    }
    if (n === 0) return true;

    const flags = key.flags[o];
    const hasMode = (flags & MODE) !== 0;
    const scored = this.oot && n > OOT_LIMIT ? OOT_LIMIT : n;
    let credit = 0;
    let hit = false;
    let repairedHit = false;
    let seen = 0;
    let seenMore: number[] | null = null;
    let repeated = false;
    for (let g = 0; g < scored; g++) {
      this.normalise(b, this.gStart[g], this.gEnd[g]);
      const e = this.match(o, flags);
      if (this.oot) {
        if (e < 0) continue;
        credit += this.count / hu;
        if (e === 0 && hasMode) {
          if (this.exact) hit = true;
          repairedHit = true;
        }
        const again = e < 31 ? (seen & (1 << e)) !== 0 : (seenMore ??= []).includes(e);
        if (again) repeated = true;
        else if (e < 31) seen |= 1 << e;
        else seenMore!.push(e);
      } else {
        if (g === 0 && e === 0 && hasMode) {
          hit = this.exact;
          repairedHit = true;
        }
        if (e >= 0) credit += this.count / hu;
      }
    }
    const score = this.oot ? credit : credit / n;
    const s = this.stats;
    s.attempted++;
    if (score) s.credit += score;
    if (hasMode) {
      s.attemptedWithMode++;
      if (hit) s.modeHits++;
      if (repairedHit) this.repairedModeHits++;
      if (hit !== repairedHit) key.flags[o] = flags | CHANGED;
    }
    if (this.oot) {
      const line = this.lineNo;
      if (n > OOT_LIMIT) this.log.addLazy("truncated", () => overTen(this.file, line, n, latin1(b, idStart, idEnd)), OVER_TEN);
      if (repeated) this.log.addLazy("repeated-guess", () => repeatedGuesses(this.file, line, this.repeatedOf(b, o, flags, scored), latin1(b, idStart, idEnd)), REPEATED_GUESSES);
    }
    return true;
  }

  /**
   * Guess [from, to) as the official scorer normalises it (`normalizeGuess`):
   * `non-x` / `non x` → `nonx`, every hyphen a space, the first apostrophe gone.
   */
  private normalise(b: Uint8Array, from: number, to: number): void {
    if (to - from > this.guess.length) this.guess = new Uint8Array(2 * (to - from));
    const out = this.guess;
    let skip = -1;
    if (to - from >= 4 && b[from] === 110 && b[from + 1] === 111 && b[from + 2] === 110) {
      const c = b[from + 3];
      if (c === SPACE || c === HYPHEN) skip = from + 3;
    }
    let apostrophe = false;
    let n = 0;
    for (let i = from; i < to; i++) {
      if (i === skip) continue;
      const c = b[i];
      if (c === APOSTROPHE && !apostrophe) {
        apostrophe = true;
        continue;
      }
      out[n++] = c === HYPHEN ? SPACE : c;
    }
    this.guessLength = n;
  }

  /**
   * The entry of item o the normalised guess matches (as View.matchPlain):
   * as written first, then, when the item has hyphens, with spaces for them;
   * -1 when none.
   */
  private match(o: number, flags: number): number {
    const k = this.key;
    const g = this.guess;
    const n = this.guessLength;
    const gb = k.bytes;
    const from = k.fieldFrom[o];
    const to = k.fieldFrom[o + 1];
    for (let f = from; f < to; f++) {
      const s = k.subStart[f];
      if (k.subEnd[f] - s !== n) continue;
      let i = 0;
      while (i < n && gb[s + i] === g[i]) i++;
      if (i === n) {
        this.count = k.counts[f];
        this.exact = true;
        return f - from;
      }
    }
    if ((flags & HYPHENS) === 0) return -1;
    for (let f = from; f < to; f++) {
      const s = k.subStart[f];
      if (k.subEnd[f] - s !== n) continue;
      let i = 0;
      for (; i < n; i++) {
        const a = gb[s + i];
        if (a !== g[i] && !(a === HYPHEN && g[i] === SPACE)) break;
      }
      if (i === n) {
        this.count = k.counts[f];
        this.exact = false;
        return f - from;
      }
    }
    return -1;
  }

  /** oot: the guesses (normalised, each once, in order) that matched an entry already credited: for the warning. */
  private repeatedOf(b: Uint8Array, o: number, flags: number, scored: number): string[] {
    const out: string[] = [];
    const seen = new Set<number>();
    for (let g = 0; g < scored; g++) {
      this.normalise(b, this.gStart[g], this.gEnd[g]);
      const e = this.match(o, flags);
      if (e < 0) continue;
      if (!seen.has(e)) {
        seen.add(e);
        continue;
      }
      const s = latin1(this.guess, 0, this.guessLength);
      if (!out.includes(s)) out.push(s);
    }
    return out;
  }

  /** The result, as ScoreRun's `finish` and `inlineRepairs` give it. */
  finish(): FastScore {
    const scorer = finishScorerLog(this.log, this.file, this.type, this.outsideT);
    const result: SubstitutionResult = {
      type: this.type,
      stats: this.stats,
      scores: substitutionScores(this.stats),
      groups: null,
      ignored: { outsideT: this.outsideT, repeats: this.repeats, unscorable: this.unscorable },
      diagnostics: scorer,
    };
    return {
      result,
      systemDiagnostics: sortDiagnostics([...this.readerLog.finish(), ...scorer]),
      lines: { read: this.lineNo, matched: this.matched, refused: 0 },
      repairs: this.repairs(result),
    };
  }

  /** The one repair such files can need (a hyphenated mode), as `inlineRepairs` reports it. */
  private repairs(result: SubstitutionResult): RepairReport | null {
    const k = this.key;
    if (k.noted === 0) return null;
    const stats = { ...this.stats, modeHits: this.repairedModeHits };
    const ids: string[] = [];
    let items = 0;
    for (let o = 0; o < k.total; o++) {
      if ((k.flags[o] & CHANGED) === 0) continue;
      items++;
      if (ids.length < 5) ids.push(String(k.ids[o]));
    }
    return {
      result: { ...result, stats, scores: substitutionScores(stats), groups: null },
      figuresDiffer: stats.modeHits !== this.stats.modeHits,
      changes: items > 0 ? [{ ...repairInfo("hyphen-mode"), items, ids }] : [],
    };
  }
}

function latin1(b: Uint8Array, from: number, to: number): string {
  let s = "";
  for (let i = from; i < to; i++) s += String.fromCharCode(b[i]);
  return s;
}
