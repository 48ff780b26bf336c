/**
 * The scorer's fast lane: best and oot as score.pl reads them (the default
 * reading, no further analysis, no per-item output), read as bytes — for the
 * lines in the form almost every line takes, no string, array or object is
 * made per line, and a gold line's substitutes are kept as offsets into the
 * gold file's bytes.
 *
 * It decides no rule of score.pl itself: it tokenises a line (checking that
 * it is in the form below) and hands its counts and code units to rules.ts —
 * T (`inT`), the mode and |H_i| (`modeOf`, `humanResponses`), normalisation
 * (`normalizeUnits`), matching (`matchesSpaced`, `modeHit`) and which system
 * lines count (`lineVerdict`) — as the full scorer does. So it gives exactly
 * what the full scorer (run.ts: KeyBuilder, SystemReader, SubstitutionScorer)
 * gives: the figures (sums in file order, the same
 * divisions), the diagnostics (the same messages, from the same functions,
 * into the same logs), the line counts, and the repaired figures of a default
 * run (test/scorers/semeval2007/fast.test.ts compares the two on random files).
 *
 * The form, as bytes (every byte of a line printable ASCII, LF endings):
 * - gold: `lexelt id :: sub count;sub count;…` with the lexelt of `[\w.]`, a
 *   canonical decimal id (no leading zero, at most nine digits), each sub of
 *   word characters, spaces and hyphens (a word character first, no space
 *   last, at least two characters, not starting "non", no "pn" anywhere in the
 *   entries, given once in the line), a count of at most nine digits, trailing
 *   `;`s allowed, at most 64 entries — lines KeyBuilder keeps as written, and
 *   to which of the repairs only one can apply, the hyphenated mode (counted
 *   in the same pass);
 * - system: `lexelt id :: answer` (`:::` for oot), guesses split on `;` as
 *   Perl splits, no guess with a space at either end; empty lines anywhere.
 *
 * A gold line outside the form goes to the full reader inside the lane (a
 * default-mode ScoreRun fed that line under its own number; it reports the
 * lane's own lines' warnings and repairs too, so one log and one tracker see
 * every line in order), and so do the system lines of its id, whose outcomes
 * are added in file order. A system line outside the form (a byte outside
 * printable ASCII, a lexelt holding a space, a line in no format: CoInCo has a
 * few) is read by that run's line reader, so it is read and reported as there,
 * and scored here against the lane's key (#40). A system line a repair reads
 * otherwise (CRLF, spaces around a guess), an id given twice in the gold or an
 * id too large to index makes the lane give up — `FastKey.build` answers null,
 * `FastScorer.push` false — and the caller scores the whole run with
 * `ScoreRun`. Pure.
 *
 * Why one file over 600 lines: the lane's reader and its key are one tight loop over
 * bytes tuned for V8 (bench:score); split across modules, the calls between them stop
 * being inlined. Its decisions all live in rules.ts.
 */
import { type Diagnostic, DiagnosticLog, hasErrors } from "../../lexsub/diagnostics";
import { EMPTY_ANSWERS, SystemReader, emptyAnswer } from "./system";
import { type ScoringKey, idKey, sortDiagnostics } from "./key";
import {
  ANSWERED,
  COUNTS,
  HAS_MODE,
  NORMALISED_UNITS,
  OOT_LIMIT,
  OUTSIDE_T,
  PN_0,
  PN_1,
  type Reading,
  UNSORTED,
  humanResponses,
  inT,
  itemScore,
  lineVerdict,
  matchesSpaced,
  modeHit,
  modeOf,
  nonPrefix,
  normalizeUnits,
} from "./rules";
import { type RepairReport, ScoreRun } from "./run";
import { readingsAgreeOn } from "../../lexsub/formats/perl-classes";
import { ReadingLines } from "./readings";
import { REPAIR_RULES, type RepairChange, type RepairRule, changedByRule, repairInfo } from "./repairs";
import {
  ANSWERED_BEFORE,
  OVER_TEN,
  REPEATED_GUESSES,
  type SubstitutionResult,
  type SubstitutionStats,
  type SubstitutionType,
  addOutcome,
  answeredBefore,
  emptyStats,
  finishScorerLog,
  overTen,
  repeatedGuesses,
  substitutionScores,
} from "./substitution";

/** Item flags. */
const MODE = 1;
const HYPHENS = 2;
/** A hyphenated mode: score.pl never hits it, the repaired reading does (noted for the repair report). */
const HYPHEN_MODE = 4;
/** The repaired reading changed this item's outcome. */
const CHANGED = 8;

/** The index's mark for a gold id outside T. */
const OUTSIDE = -1;
/** The index's mark for an id whose gold line the full reader took (its system lines go to it too). */
const DELEGATED = -2;
/** goldLine's answer for a line that makes the whole file go the full reader's way (an id given twice). */
const DECLINE = -2;
/** As KeyBuilder: the most entries a line kept as written may have. */
const MAX_ENTRIES = 64;
/** |H_i| is kept in 31 bits by the full scorer's key (with the mode bit): larger goes the long way. */
const MAX_HUMAN_RESPONSES = 2 ** 29;

const SPACE = 32;
const SEMI = 59;
const HYPHEN = 45;
const NL = 10;

/** A byte of an answer: any other printable ASCII character; a space; ";"; one normalisation may change (rules.ts); anything else (a control or non-ASCII byte). */
const ORDINARY = 0;
const A_SPACE = 1;
const A_SEMI = 2;
const A_MARK = 3;
const A_OTHER = 4;
const ANSWER = new Uint8Array(256).fill(A_OTHER);
for (let c = 33; c < 127; c++) ANSWER[c] = ORDINARY;
ANSWER[SPACE] = A_SPACE;
ANSWER[59] = A_SEMI;
for (const c of NORMALISED_UNITS) ANSWER[c] = A_MARK;

/** Byte classes (one table look-up per byte in the loops below). */
const WORD = 1; // [A-Za-z0-9_]
const DOT = 2; // "." (with WORD: score.pl's lexelt class [\w.])
const PRINTABLE = 4; // 0x20–0x7e
const CLASS = new Uint8Array(256);
for (let c = 32; c < 127; c++) {
  const word = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
  CLASS[c] = PRINTABLE | (word ? WORD : 0) | (c === 46 ? DOT : 0);
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
  fieldFrom: Int32Array<ArrayBuffer>;
  hu: Int32Array<ArrayBuffer>;
  ids: Int32Array<ArrayBuffer>;
  /** Per item, its gold line. */
  lines: Int32Array<ArrayBuffer>;
  /** Per item, bit (length % 32) set for each substitute's length: most guesses are ruled out by it. */
  lengths: Int32Array<ArrayBuffer>;
  flags: Uint8Array<ArrayBuffer>;
  subStart: Int32Array<ArrayBuffer>;
  subEnd: Int32Array<ArrayBuffer>;
  counts: Int32Array<ArrayBuffer>;
  fields = 0;
  /** id → item + 1; OUTSIDE for a gold id outside T; DELEGATED for the full reader's; 0 for an id not in the gold. */
  index: Int32Array<ArrayBuffer>;
  /** Gold lines the full reader took. */
  delegated = 0;
  /**
   * Whether the byte and UTF-8 readings read the gold alike (perl-classes.ts
   * `readingsAgreeOn`): the lane's own lines are printable ASCII, so only the
   * lines it hands the full reader can differ.
   */
  readingsAgree = true;
  /** The lines of either file the two readings may read differently (readings.ts), kept as the lane meets them. */
  readonly odd = new ReadingLines();

  /** |T|: the items read here and the full reader's. */
  get totalInT(): number {
    return this.total + (this.run.scoringKey as ScoringKey).total;
  }
  /** The gold's diagnostics, as the full reader gives them (it reports the lines read here too). */
  diagnostics: Diagnostic[] = [];
  /**
   * The full reader (a default-mode ScoreRun): it takes the gold lines not in
   * the form, and the system lines of their ids; it logs into the lane's logs,
   * which the lane finishes.
   */
  readonly run: ScoreRun;
  /** The system file's reader and scorer logs, shared with `run`. */
  readonly readerLog = new DiagnosticLog(10);
  readonly log = new DiagnosticLog(10);
  /** Decodes a line handed to the full reader, as the file layer decodes what it reads. */
  readonly decode: Decode;

  private constructor(
    readonly bytes: Uint8Array,
    readonly type: SubstitutionType,
    readonly file: string,
    readonly systemFile: string,
    decode: Decode,
    readonly reading: Reading,
  ) {
    this.decode = decode;
    // The lane's own lines are printable ASCII, which both readings read alike; the
    // full reader reads the others with the run's reading.
    this.run = new ScoreRun({ type, systemName: systemFile, goldName: file, logs: { reader: this.readerLog, scorer: this.log }, reading });
    // Sized for the usual line (about 60 bytes, four entries), so that a large gold rarely
    // grows them; a shorter one grows them, by doubling.
    const items = 16 + Math.ceil(bytes.length / 48);
    const fields = 16 + Math.ceil(bytes.length / 14);
    this.fieldFrom = new Int32Array(items);
    this.hu = new Int32Array(items);
    this.ids = new Int32Array(items);
    this.lines = new Int32Array(items);
    this.lengths = new Int32Array(items);
    this.flags = new Uint8Array(items);
    this.index = new Int32Array(items);
    this.subStart = new Int32Array(fields);
    this.subEnd = new Int32Array(fields);
    this.counts = new Int32Array(fields);
  }

  /**
   * The key of a gold file's bytes for scoring `type` (file names for the
   * diagnostics); the lines not in the lane's form go to the full reader.
   * null when the full reader should read the whole run instead: the gold has
   * an error (an id given twice), or an id the lane cannot index.
   */
  static build(bytes: Uint8Array, o: { type: SubstitutionType; goldName: string; systemName: string; decode?: Decode; reading?: Reading }): FastKey | null {
    // The loops below run to a line's "\n": a last line without one gets it, in a copy.
    const k = new FastKey(endsWithNewline(bytes), o.type, o.goldName, o.systemName, o.decode ?? utf8, o.reading ?? "bytes");
    const b = k.bytes;
    const n = b.length;
    let pos = 0;
    let line = 0;
    let read = 0;
    while (pos < n) {
      line++;
      if (b[pos] === NL) {
        pos++;
        continue;
      }
      const fields = k.fields;
      const next = k.goldLine(pos, line);
      if (next >= 0) {
        pos = next;
        read++;
        continue;
      }
      if (next === DECLINE) return null;
      k.fields = fields;
      const end = b.indexOf(NL, pos);
      if (!k.delegate(pos, end, line)) return null;
      pos = end + 1;
    }
    k.fieldFrom = grown(k.fieldFrom, k.total + 1);
    k.fieldFrom[k.total] = k.fields;
    k.run.goldLinesReadElsewhere(read);
    k.diagnostics = k.run.goldDone();
    if (hasErrors(k.diagnostics)) return null;
    return k;
  }

  /** Gold line `line`, bytes [pos, end), not in the form: the full reader's. False when its id collides with one read here. */
  private delegate(pos: number, end: number, line: number): boolean {
    this.delegated++;
    const text = this.decode(this.bytes, pos, end);
    if (this.readingsAgree && !readingsAgreeOn(text)) this.readingsAgree = false;
    this.odd.noteGoldAt(line, text);
    this.run.pushGold(text, line);
    const id = this.run.lastGoldId;
    const num = id === null ? -1 : canonicalId(id);
    if (num < 0) return true; // not read as a gold line, or an id no line read here can have
    if (num >= this.index.length) {
      if (num >= Math.max(1 << 20, 8 * line)) return false;
      this.index = grown(this.index, num + 1);
    }
    const seen = this.index[num];
    if (seen === DELEGATED) return true; // the full reader reports the id given twice
    if (seen !== 0) return false; // an id of a line read here, given again
    this.index[num] = DELEGATED;
    return true;
  }

  /**
   * Read gold line `line`, from byte `pos` to its "\n" (every comparison
   * below stops there, as no class holds it): where the next line starts, or
   * -1 when this one is not in the form.
   */
  private goldLine(pos: number, line: number): number {
    const b = this.bytes;
    let i = pos;
    let c = 0;
    while ((CLASS[b[i]] & (WORD | DOT)) !== 0) i++;
    if (i === pos || b[i] !== SPACE) return -1;
    // The id: canonical decimal, at most nine digits.
    const idStart = ++i;
    c = b[i];
    if (c < 49 || c > 57) return -1;
    let id = 0;
    while ((c = b[i]) >= 48 && c <= 57) {
      id = id * 10 + (c - 48);
      i++;
    }
    if (i - idStart > 9 || b[i] !== SPACE || b[i + 1] !== 58 || b[i + 2] !== 58 || b[i + 3] !== SPACE) return -1;
    // An id given twice is an error for the full scorer; an index too sparse for an array goes the long way too.
    if (id >= this.index.length) {
      if (id >= Math.max(1 << 20, 8 * line)) return -1;
      this.index = grown(this.index, id + 1);
    }
    if (this.index[id] !== 0) return DECLINE;

    // The entries.
    const first = this.fields;
    let p = i + 4;
    let hyphens = false;
    /** The first substitute (the mode, when there is one) holds a hyphen. */
    let firstHyphen = false;
    if (b[p] !== SEMI && b[p] !== NL) {
      for (;;) {
        c = b[p];
        if ((CLASS[c] & WORD) === 0 || (c === 110 && b[p + 1] === 111 && b[p + 2] === 110)) return -1;
        let space = -1;
        let q = p;
        for (; ; q++) {
          c = b[q];
          if ((CLASS[c] & WORD) !== 0) {
            if (c === PN_0 && b[q + 1] === PN_1) return -1; // a field score.pl drops (rules.ts): the full reader's
          } else if (c === SEMI || c === NL) break;
          else if (c === SPACE) space = q;
          else if (c === HYPHEN) {
            hyphens = true;
            if (this.fields === first) firstHyphen = true;
          }
          else return -1;
        }
        // [p, space) the substitute, (space, q) the count.
        if (space - p < 2 || b[space - 1] === SPACE || q - space - 1 < 1 || q - space - 1 > 9) return -1;
        let count = 0;
        for (let k = space + 1; k < q; k++) {
          const d = b[k] - 48;
          if (d < 0 || d > 9) return -1;
          count = count * 10 + d;
        }
        if (this.fields - first === MAX_ENTRIES) return -1;
        // A substitute given twice in a line goes the long way.
        for (let f = first; f < this.fields; f++) if (sameBytes(b, this.subStart[f], this.subEnd[f], p, space)) return -1;
        this.addField(p, space, count);
        p = c === NL ? q : q + 1;
        // The line's end, or trailing `;`s (checked below).
        if (b[p] === NL || b[p] === SEMI) break;
      }
    }
    while (b[p] === SEMI) p++;
    if (b[p] !== NL) return -1;
    const next = p + 1;

    // T, the mode and |H_i| as rules.ts decides them.
    const counts = this.counts;
    if (!inT(this.fields - first, counts[first])) {
      this.fields = first;
      this.index[id] = OUTSIDE;
      return next;
    }
    const modeFlags = modeOf(counts, first, this.fields);
    const mode = (modeFlags & HAS_MODE) !== 0;
    const unsorted = (modeFlags & UNSORTED) !== 0;
    const hu = humanResponses(counts, first, this.fields);
    if (hu >= MAX_HUMAN_RESPONSES) return -1;
    let flags = (mode ? MODE : 0) | (hyphens ? HYPHENS : 0);
    if (mode && firstHyphen) {
      flags |= HYPHEN_MODE;
      this.noted++;
    }
    // Reported by the full reader, in line order with its own lines.
    if (unsorted) this.run.goldUnsortedElsewhere(line, String(id));
    const o = this.total++;
    if (o + 1 >= this.fieldFrom.length) {
      this.fieldFrom = grown(this.fieldFrom, o + 2);
      this.hu = grown(this.hu, o + 2);
      this.ids = grown(this.ids, o + 2);
      this.lines = grown(this.lines, o + 2);
      this.lengths = grown(this.lengths, o + 2);
      const f = new Uint8Array(this.fieldFrom.length);
      f.set(this.flags);
      this.flags = f;
    }
    this.fieldFrom[o] = first;
    this.hu[o] = hu;
    this.ids[o] = id;
    this.lines[o] = line;
    this.flags[o] = flags;
    let lengths = 0;
    for (let f = first; f < this.fields; f++) lengths |= 1 << ((this.subEnd[f] - this.subStart[f]) & 31);
    this.lengths[o] = lengths;
    if (mode) this.totalWithMode++;
    this.index[id] = o + 1;
    return next;
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

/** Decodes bytes [from, to) into a line of text. */
export type Decode = (bytes: Uint8Array, from: number, to: number) => string;

const UTF8 = new TextDecoder();
const utf8: Decode = (bytes, from, to) => UTF8.decode(bytes.subarray(from, to));

/** A canonical decimal id below 10^9 ("1", not "01") as a number, else -1 (key.ts's `idKey`). */
function canonicalId(id: string): number {
  const k = idKey(id);
  return typeof k === "number" ? k : -1;
}

/** The bytes, ending with "\n" (a copy with one added when they do not). */
function endsWithNewline(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 0 || bytes[bytes.length - 1] === NL) return bytes;
  const b = new Uint8Array(bytes.length + 1);
  b.set(bytes);
  b[bytes.length] = NL;
  return b;
}

function sameBytes(b: Uint8Array, a: number, aEnd: number, c: number, cEnd: number): boolean {
  if (aEnd - a !== cEnd - c) return false;
  for (let i = 0; i < aEnd - a; i++) if (b[a + i] !== b[c + i]) return false;
  return true;
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
  readonly type: SubstitutionType;
  readonly file: string;
  private readonly run: ScoreRun;
  /** The figures, and the repaired reading's (a default run's repair report), added up line by line in file order. */
  private readonly stats: SubstitutionStats;
  private readonly repaired: SubstitutionStats;
  private readonly answeredAt: Uint32Array;
  private readonly readerLog: DiagnosticLog;
  private readonly log: DiagnosticLog;
  private lineNo = 0;
  private matched = 0;
  /** Non-blank lines in no format (read by the full reader's line reader: `oddLine`). */
  private refused = 0;
  /** Whether the two readings read every system line alike: the lane's own are printable ASCII; `oddLine`'s may not be. */
  readingsAgree = true;
  private outsideT = 0;
  private repeats = 0;
  private unscorable = 0;
  /** The current line's guesses: [start, end) in its bytes; a guess normalised into `guess`. */
  private gStart = new Int32Array(64);
  private gEnd = new Int32Array(64);
  /** 1 when the guess needs normalising (a hyphen, an apostrophe, "non x" / "non-x"). */
  private gDirty = new Uint8Array(64);
  private guess = new Uint8Array(256);
  private guessLength = 0;
  /** After `match`: the entry's count, and whether the guess is the entry as written. */
  private count = 0;
  private exact = false;

  constructor(private readonly key: FastKey) {
    this.type = key.type;
    this.oot = key.type === "oot";
    this.file = key.systemFile;
    this.run = key.run;
    this.readerLog = key.readerLog;
    this.log = key.log;
    // T and TM: the items read here and the full reader's (as it reads them, and as its repaired shadow does).
    const other = key.run.scoringKey as ScoringKey;
    const repaired = key.run.repairedTotals;
    this.stats = emptyStats(key.total + other.total, key.totalWithMode + other.totalWithMode);
    this.repaired = emptyStats(key.total + repaired.total, key.totalWithMode + repaired.totalWithMode);
    this.answeredAt = new Uint32Array(key.total);
  }

  /**
   * The lines of bytes[from, to), which ends with a line's "\n". False at a
   * line not in the form (then the scorer is spent).
   */
  push(bytes: Uint8Array, from: number, to: number): boolean {
    if (to > from && bytes[to - 1] !== NL) throw new Error("FastScorer.push: a piece must end with a line's end");
    let pos = from;
    while (pos < to) {
      this.lineNo++;
      if (bytes[pos] === NL) pos++;
      else if ((pos = this.systemLine(bytes, pos)) < 0) return false;
    }
    return true;
  }

  /** The file's last bytes, [from, to): lines, the last of them perhaps without its "\n". */
  pushLast(bytes: Uint8Array, from: number, to: number): boolean {
    if (to === from || bytes[to - 1] === NL) return this.push(bytes, from, to);
    return this.push(endsWithNewline(bytes.subarray(from, to)), 0, to - from + 1);
  }

  /**
   * Score system line `lineNo`, from byte `pos` to its "\n": where the next
   * line starts, or -1 when this one is not in the form.
   */
  private systemLine(b: Uint8Array, pos: number): number {
    let i = pos;
    let c = 0;
    while ((CLASS[b[i]] & (WORD | DOT)) !== 0) i++;
    if (i === pos || b[i] !== SPACE) return this.oddLine(b, pos);
    const idStart = ++i;
    let id = 0;
    let numeric = b[i] >= 49 && b[i] <= 57;
    for (; (c = b[i]) !== SPACE; i++) {
      if (c < 33 || c > 126) return this.oddLine(b, pos); // the "\n" too
      if (numeric) {
        if (c < 48 || c > 57) numeric = false;
        else id = id * 10 + (c - 48);
      }
    }
    if (i === idStart || i - idStart > 9) numeric = false;
    // " :: " (" ::: "); each comparison stops at the line's "\n".
    const at = i + (this.oot ? 5 : 4);
    if (b[i + 1] !== 58 || b[i + 2] !== 58 || (this.oot && b[i + 3] !== 58) || b[at - 1] !== SPACE) return this.oddLine(b, pos);
    const idEnd = i;
    this.matched++;

    // The reader: the answer split on ";" as Perl splits it (trailing empty guesses dropped),
    // in one pass; every byte printable ASCII; a guess that needs normalising marked.
    let n = 0;
    let blank = true;
    let from = at;
    let dirty = false;
    let end = -1;
    for (let k = at; end < 0; k++) {
      const a = ANSWER[b[k]];
      if (a === ORDINARY) {
        blank = false;
        continue;
      }
      if (a === A_SPACE) continue;
      if (a === A_MARK) {
        blank = false;
        dirty = true;
        continue;
      }
      if (a === A_OTHER) {
        if (b[k] !== NL) {
          this.matched--;
          return this.oddLine(b, pos);
        }
        end = k;
      } else blank = false; // ";"
      // A guess ends at k.
      if (n === this.gStart.length) {
        this.gStart = grown(this.gStart, n + 1);
        this.gEnd = grown(this.gEnd, n + 1);
        const d = new Uint8Array(this.gStart.length);
        d.set(this.gDirty);
        this.gDirty = d;
      }
      // "non x" / "non-x" becomes "nonx".
      if (k - from > 3 && nonPrefix(b[from], b[from + 1], b[from + 2], b[from + 3])) dirty = true;
      this.gStart[n] = from;
      this.gEnd[n] = k;
      this.gDirty[n++] = dirty ? 1 : 0;
      dirty = false;
      from = k + 1;
    }
    if (blank) n = 0;
    while (n > 0 && this.gEnd[n - 1] === this.gStart[n - 1]) n--;
    for (let g = 0; g < n; g++) {
      const gs = this.gStart[g];
      const ge = this.gEnd[g];
      if (ge > gs && (b[gs] === SPACE || b[ge - 1] === SPACE)) {
        this.matched--;
        return this.oddLine(b, pos);
      }
    }
    // The scorer: an id whose gold line the full reader took goes to it (so does any other id when it took some).
    const key = this.key;
    const slot = numeric ? (id < key.index.length ? key.index[id] : 0) : key.delegated > 0 ? DELEGATED : 0;
    if (slot === DELEGATED) return this.toFullReader(b, pos, end) ? end + 1 : -1;
    if (n === 0) this.readerLog.add("empty", emptyAnswer(this.file, this.lineNo), EMPTY_ANSWERS);
    // Which lines count: rules.ts's `lineVerdict`, as the full scorer asks it.
    const o = slot > 0 ? slot - 1 : -1;
    const first = o < 0 ? 0 : this.answeredAt[o];
    const hu = o < 0 ? 0 : key.hu[o];
    const verdict = lineVerdict(o, this.lineNo, this.answeredAt, hu);
    if (verdict !== COUNTS) {
      if (verdict === OUTSIDE_T) this.outsideT++;
      else if (verdict === ANSWERED) {
        this.repeats++;
        if (!this.log.tally("repeat")) this.log.add("repeat", answeredBefore(this.file, this.lineNo, latin1(b, idStart, idEnd), first), ANSWERED_BEFORE);
      } else this.unscorable++;
      return end + 1;
    }
    if (n === 0) return end + 1;

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
      const e = this.matchGuess(b, g, o, flags);
      if (this.oot) {
        if (e < 0) continue;
        credit += this.count / hu;
        if (modeHit(e, hasMode, this.exact, false)) hit = true;
        if (modeHit(e, hasMode, this.exact, true)) repairedHit = true;
        const again = e < 31 ? (seen & (1 << e)) !== 0 : (seenMore ??= []).includes(e);
        if (again) repeated = true;
        else if (e < 31) seen |= 1 << e;
        else seenMore!.push(e);
      } else {
        if (g === 0) {
          hit = modeHit(e, hasMode, this.exact, false);
          repairedHit = modeHit(e, hasMode, this.exact, true);
        }
        if (e >= 0) credit += this.count / hu;
      }
    }
    const score = itemScore(this.oot, credit, n);
    addOutcome(this.stats, score, hasMode ? hit : null);
    addOutcome(this.repaired, score, hasMode ? repairedHit : null);
    if (hit !== repairedHit) key.flags[o] = flags | CHANGED;
    if (this.oot) {
      const line = this.lineNo;
      if (n > OOT_LIMIT && !this.log.tally("truncated")) this.log.add("truncated", overTen(this.file, line, n, latin1(b, idStart, idEnd)), OVER_TEN);
      if (repeated && !this.log.tally("repeated-guess")) {
        this.log.add("repeated-guess", repeatedGuesses(this.file, line, this.repeatedOf(b, o, flags, scored), latin1(b, idStart, idEnd)), REPEATED_GUESSES);
      }
    }
    return end + 1;
  }

  /**
   * System line `lineNo`, from byte `pos`, outside the lane's form (a byte outside printable
   * ASCII, a lexelt holding a space…): read by the full reader's line reader, so it is read,
   * refused and reported exactly as there, then scored here against the lane's key (or by the
   * full reader, for an id whose gold line it took). -1 when a repair reads the line otherwise
   * (CRLF, spaces around a guess): the inline repaired figures would not hold, the caller
   * scores the whole run with ScoreRun.
   */
  private oddLine(b: Uint8Array, pos: number): number {
    const end = b.indexOf(NL, pos);
    const key = this.key;
    const text = key.decode(b, pos, end);
    if (this.readingsAgree && !readingsAgreeOn(text)) this.readingsAgree = false;
    key.odd.noteSystemAt(this.lineNo, text);
    // Which reader scores it: a look at its id first (a reader of its own, so nothing is logged twice).
    const peek = new SystemReader(this.file, this.type, { reading: key.reading }).push(text);
    const slotOf = (id: string) => {
      const num = canonicalId(id);
      return num >= 0 ? (num < key.index.length ? key.index[num] : 0) : key.delegated > 0 ? DELEGATED : 0;
    };
    if (peek !== null && slotOf(peek.id) === DELEGATED) {
      this.matched++;
      return this.toFullReader(b, pos, end) ? end + 1 : -1;
    }
    const run = this.run;
    const noted = run.tracker!.ids.size;
    const { line: s, refused } = run.readSystemLine(this.lineNo, text);
    if (run.tracker!.ids.size !== noted) return -1;
    if (s === null) {
      if (refused) this.refused++;
      return end + 1;
    }
    this.matched++;
    const slot = slotOf(s.id);
    const o = slot > 0 ? slot - 1 : -1;
    const first = o < 0 ? 0 : this.answeredAt[o];
    const hu = o < 0 ? 0 : key.hu[o];
    const verdict = lineVerdict(o, this.lineNo, this.answeredAt, hu);
    if (verdict !== COUNTS) {
      if (verdict === OUTSIDE_T) this.outsideT++;
      else if (verdict === ANSWERED) {
        this.repeats++;
        if (!this.log.tally("repeat")) this.log.add("repeat", answeredBefore(this.file, this.lineNo, s.id, first), ANSWERED_BEFORE);
      } else this.unscorable++;
      return end + 1;
    }
    // The reader reported an empty answer itself.
    const n = s.guesses.length;
    if (n === 0) return end + 1;
    const flags = key.flags[o];
    const hasMode = (flags & MODE) !== 0;
    const scored = this.oot && n > OOT_LIMIT ? OOT_LIMIT : n;
    let credit = 0;
    let hit = false;
    let repairedHit = false;
    const seen: number[] = [];
    const repeated: string[] = [];
    for (let g = 0; g < scored; g++) {
      const e = this.matchText(o, flags, s.guesses[g]);
      if (this.oot) {
        if (e < 0) continue;
        credit += this.count / hu;
        if (modeHit(e, hasMode, this.exact, false)) hit = true;
        if (modeHit(e, hasMode, this.exact, true)) repairedHit = true;
        if (!seen.includes(e)) seen.push(e);
        else if (!repeated.includes(s.guesses[g])) repeated.push(s.guesses[g]);
      } else {
        if (g === 0) {
          hit = modeHit(e, hasMode, this.exact, false);
          repairedHit = modeHit(e, hasMode, this.exact, true);
        }
        if (e >= 0) credit += this.count / hu;
      }
    }
    const score = itemScore(this.oot, credit, n);
    addOutcome(this.stats, score, hasMode ? hit : null);
    addOutcome(this.repaired, score, hasMode ? repairedHit : null);
    if (hit !== repairedHit) key.flags[o] = flags | CHANGED;
    if (this.oot) {
      if (n > OOT_LIMIT && !this.log.tally("truncated")) this.log.add("truncated", overTen(this.file, this.lineNo, n, s.id), OVER_TEN);
      if (repeated.length > 0 && !this.log.tally("repeated-guess")) this.log.add("repeated-guess", repeatedGuesses(this.file, this.lineNo, repeated, s.id), REPEATED_GUESSES);
    }
    return end + 1;
  }

  /** The entry of item o a guess the full reader normalised matches (see `match`); -1 for one outside printable ASCII, as no entry of the lane's holds such a character. */
  private matchText(o: number, flags: number, g: string): number {
    const n = g.length;
    if (n > this.guess.length) this.guess = new Uint8Array(2 * n);
    for (let i = 0; i < n; i++) {
      const c = g.charCodeAt(i);
      if (c < 32 || c > 126) return -1;
      this.guess[i] = c;
    }
    return (this.key.lengths[o] & (1 << (n & 31))) === 0 ? -1 : this.match(o, flags, this.guess, 0, n);
  }

  /** System line `lineNo`, bytes [pos, end), scored by the full reader: its outcomes added in file order. False when it noted a repair. */
  private toFullReader(b: Uint8Array, pos: number, end: number): boolean {
    const run = this.run;
    const noted = run.tracker!.ids.size;
    run.pushSystemLine(this.lineNo, this.key.decode(b, pos, end));
    // Lines in the form note no repair (no CRLF, no spaces around a guess), a line outside it may: then the inline figures would not hold.
    if (run.systemNoted || run.tracker!.ids.size !== noted) return false;
    const o = run.lastOutcome;
    if (o) addOutcome(this.stats, o.score, o.modeHit);
    const r = run.lastRepairedOutcome;
    if (r) addOutcome(this.repaired, r.score, r.modeHit);
    return true;
  }

  /** The entry of item o guess g matches (see `match`), normalising the guess first when it needs it. */
  private matchGuess(b: Uint8Array, g: number, o: number, flags: number): number {
    const from = this.gStart[g];
    const to = this.gEnd[g];
    const lengths = this.key.lengths[o];
    if (this.gDirty[g] === 0) return (lengths & (1 << ((to - from) & 31))) === 0 ? -1 : this.match(o, flags, b, from, to - from);
    this.normalise(b, from, to);
    return (lengths & (1 << (this.guessLength & 31))) === 0 ? -1 : this.match(o, flags, this.guess, 0, this.guessLength);
  }

  /** Guess [from, to) as the official scorer normalises it (rules.ts `normalizeUnits`), into `guess`. */
  private normalise(b: Uint8Array, from: number, to: number): void {
    if (to - from > this.guess.length) this.guess = new Uint8Array(2 * (to - from));
    this.guessLength = normalizeUnits(b, from, to, this.guess);
  }

  /**
   * The entry of item o the normalised guess g[at, at + n) matches (as
   * View.matchPlain): as written first, then, when the item has hyphens, with
   * spaces for them; -1 when none.
   */
  private match(o: number, flags: number, g: Uint8Array, at: number, n: number): number {
    const k = this.key;
    const gb = k.bytes;
    const from = k.fieldFrom[o];
    const to = k.fieldFrom[o + 1];
    for (let f = from; f < to; f++) {
      const s = k.subStart[f];
      // The length, the last byte (words often share a beginning), then the rest.
      if (k.subEnd[f] - s !== n || gb[s + n - 1] !== g[at + n - 1]) continue;
      let i = 0;
      while (i < n && gb[s + i] === g[at + i]) i++;
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
        if (!matchesSpaced(gb[s + i], g[at + i])) break;
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
      const e = this.match(o, flags, this.guess, 0, this.guessLength);
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

  /** The result, as ScoreRun's `finish` and `inlineRepairs` give it (the full reader's lines included). */
  finish(): FastScore {
    const other = this.run.ignored;
    const ignored = { outsideT: this.outsideT + other.outsideT, repeats: this.repeats + other.repeats, unscorable: this.unscorable + other.unscorable };
    const scorer = finishScorerLog(this.log, this.file, this.type, ignored.outsideT);
    const result: SubstitutionResult = { type: this.type, stats: this.stats, scores: substitutionScores(this.stats), groups: null, ignored, diagnostics: scorer };
    return {
      result,
      systemDiagnostics: sortDiagnostics([...this.readerLog.finish(), ...scorer]),
      lines: { read: this.lineNo, matched: this.matched, refused: this.refused },
      repairs: this.repairs(result),
    };
  }

  /**
   * What the repairs would change, as `inlineRepairs` reports it. The full
   * reader's rules come from its own tracker; the hyphenated modes of the
   * items read here (the one repair their lines can need) are merged into its
   * rule by gold line, as one tracker noting every line in order would list them.
   */
  private repairs(result: SubstitutionResult): RepairReport | null {
    const run = this.run;
    const k = this.key;
    if (!run.needsRepairedPass && k.noted === 0) return null;
    let changes: RepairChange[] = [];
    if (run.needsRepairedPass) {
      const { official, repaired } = run.inlineOutcomes();
      changes = changedByRule(run.tracker!, official, repaired);
    }
    if (k.noted > 0) {
      const theirs = changes.find((c) => c.rule === "hyphen-mode");
      const first: { line: number; id: string }[] = (theirs?.ids ?? []).map((id) => ({ line: run.goldLineOf(id), id }));
      let items = theirs?.items ?? 0;
      let taken = 0;
      for (let o = 0; o < k.total; o++) {
        if ((k.flags[o] & CHANGED) === 0) continue;
        items++;
        // Items are numbered in gold order: the first few changed are enough to merge.
        if (taken++ < SAMPLE) first.push({ line: k.lines[o], id: String(k.ids[o]) });
      }
      if (items > 0) {
        const ids = first
          .sort((a, b) => a.line - b.line)
          .slice(0, SAMPLE)
          .map((x) => x.id);
        const merged: RepairChange = { ...repairInfo("hyphen-mode"), items, ids };
        changes = [...changes.filter((c) => c.rule !== "hyphen-mode"), merged].sort((a, b) => ruleOrder(a.rule) - ruleOrder(b.rule));
      }
    }
    const stats = this.repaired;
    return {
      result: { ...result, stats, scores: substitutionScores(stats), groups: null },
      figuresDiffer: JSON.stringify(stats) !== JSON.stringify(this.stats),
      changes,
    };
  }
}

/** Ids listed per rule in a repair report (as `changedByRule`). */
const SAMPLE = 5;

function ruleOrder(rule: RepairRule): number {
  return REPAIR_RULES.findIndex((r) => r.rule === rule);
}

function latin1(b: Uint8Array, from: number, to: number): string {
  let s = "";
  for (let i = from; i < to; i++) s += String.fromCharCode(b[i]);
  return s;
}
