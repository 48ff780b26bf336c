/**
 * The engine shared by best and oot (seed 000 §4.1–4.2): statistics first,
 * scores from statistics, so an item, a PoS and the whole file are scored by
 * the same `addItem` / `substitutionScores`.
 *
 * Per system line (first line for an id wins; ids outside T are ignored; the
 * lexelt on the line is not used): the guesses are matched against the item's
 * gold forms — a guess written with spaces around it is matched as written,
 * else without the spaces; with NMWS multiword guesses are dropped; an answer
 * left with no guess is not attempted. The per-item rule (best.ts, oot.ts)
 * gives the credit and the mode hit. Sums run in file order, so the totals
 * are the official scorer's to the last bit. Pure.
 */
import { ANSWERED, OUTSIDE_T, UNSCORABLE, lineVerdict, matchesSpaced, modeHit } from "./rules";
import { type Diagnostic, DiagnosticLog, diag } from "../../lexsub/diagnostics";
import { ratio } from "../../lexsub/ratio";
import { type SystemLine } from "./system";
import { isMultiword } from "./analysis";
import { matchEntry, type ScoringKey } from "./key";

export type SubstitutionType = "best" | "oot";

/** Counts for a set of items: the statistics every score is computed from. */
export interface SubstitutionStats {
  /** |T|. */
  total: number;
  /** |A|: items attempted. */
  attempted: number;
  /** Σ item scores over A (in file order). */
  credit: number;
  /** |TM|. */
  totalWithMode: number;
  /** |AM|: attempted items with a mode. */
  attemptedWithMode: number;
  /** Attempted items whose mode was found (best: first guess; oot: any guess). */
  modeHits: number;
}

export interface SubstitutionScores {
  precision: number | null;
  recall: number | null;
  modePrecision: number | null;
  modeRecall: number | null;
}

/** What the per-item rule decides. */
export interface ItemOutcome {
  /** The guesses scored (for oot at most ten). */
  guesses: string[];
  /** Σ freq(guess) / |H_i| over the guesses, in order: the official's "credit". */
  credit: number;
  /** best: credit / |guesses|; oot: credit. */
  score: number;
  /** null when the item has no mode. */
  modeHit: boolean | null;
  /** oot: guesses after the tenth were dropped. */
  truncated: boolean;
  /** oot: guesses given more than once among those scored (each copy earns credit). */
  repeated: string[];
}

/** One attempted item, scored. */
export interface ItemScore extends ItemOutcome {
  id: string;
  /** The lexelt of the item in the gold. */
  lexelt: string;
  /** The lexelt as written on the system line (the official scorer prints it with -v). */
  systemLexelt: string;
  /** The system line. */
  line: number;
  humanResponses: number;
  mode: string | null;
}

/** The gold side of one item, as a per-item rule sees it. */
export interface GoldView {
  humanResponses: number;
  /** Whether the item has a mode (then it is entry 0). */
  hasMode: boolean;
  /** The mode, or null. */
  readonly mode: string | null;
  /**
   * The gold entry `guess` matches — as written, or as its spaced or
   * normalised form — by index (entry 0 is the mode, when there is one), or
   * -1; then `count` is that entry's count.
   */
  match(guess: string): number;
  count: number;
  /**
   * After `match`: whether the guess hit the mode — entry 0 of an item with a
   * mode, as written (score.pl), or in any of its forms (repaired).
   */
  modeMatched: boolean;
}

export type ItemRule = (gold: GoldView, guesses: string[]) => ItemOutcome;

export interface SubstitutionResult {
  type: SubstitutionType;
  stats: SubstitutionStats;
  scores: SubstitutionScores;
  /** Per group (with `groupBy`), in the key's order. */
  groups: { group: string; stats: SubstitutionStats; scores: SubstitutionScores }[] | null;
  /** Lines for ids outside T, later lines for an id already answered, and lines for items of T with no readable gold entry. */
  ignored: { outsideT: number; repeats: number; unscorable: number };
  /** Warnings about the answers (repeated lines, repeated or extra oot guesses). */
  diagnostics: Diagnostic[];
}

export function emptyStats(total = 0, totalWithMode = 0): SubstitutionStats {
  return { total, attempted: 0, credit: 0, totalWithMode, attemptedWithMode: 0, modeHits: 0 };
}

/** Count one attempted item into `stats` (the one computation behind every score). */
function addItem(stats: SubstitutionStats, item: ItemOutcome): void {
  addOutcome(stats, item.score, item.modeHit);
}

/** `addItem` from an item's score and mode hit alone. */
export function addOutcome(stats: SubstitutionStats, score: number, modeHit: boolean | null): void {
  stats.attempted++;
  if (score) stats.credit += score;
  if (modeHit !== null) {
    stats.attemptedWithMode++;
    if (modeHit) stats.modeHits++;
  }
}

/** The statistics of one item on its own (|T| = 1). */
export function itemStats(item: ItemScore): SubstitutionStats {
  const s = emptyStats(1, item.mode === null ? 0 : 1);
  addItem(s, item);
  return s;
}

/** Precision and recall, mode precision and recall (formulas 1–8); null where a denominator is 0. */
export function substitutionScores(s: SubstitutionStats): SubstitutionScores {
  return {
    precision: ratio(s.credit, s.attempted),
    recall: ratio(s.credit, s.total),
    modePrecision: ratio(s.modeHits, s.attemptedWithMode),
    modeRecall: ratio(s.modeHits, s.totalWithMode),
  };
}

export interface ScorerOptions {
  /** The system file's name, for diagnostics. */
  file?: string;
  /** Called with each attempted item, in file order (for -v and per-item views). */
  onItem?: (item: ItemScore) => void;
  /** Break the scores down per group of lexelts (e.g. `posOf`). */
  groupBy?: (lexelt: string) => string;
  /** Score only the lines of these ids (a repaired pass over the ids a repair touches; see run.ts). */
  only?: ReadonlySet<string>;
  /** Called with each attempted item's number in the key, system line, score and mode hit, in file order (no object built). */
  onOutcome?: (item: number, line: number, score: number, modeHit: boolean | null) => void;
  /** Log into this (shared with the fast lane, which then finishes it) instead of a log of its own. */
  log?: DiagnosticLog;
}

/**
 * One item's gold, matched against guesses. A gold line kept as written is
 * read once into field positions (typed arrays, reused: nothing allocated)
 * and guesses are compared in place; a table is matched by `matchEntry`, and
 * cut into strings once it is matched often (oot).
 */
class View implements GoldView {
  humanResponses = 0;
  hasMode = false;
  count = 0;
  modeMatched = false;
  /** After a match: whether the guess is the entry as written (not a derived form). */
  exact = false;
  constructor(private readonly repaired: boolean) {}
  private key: ScoringKey | null = null;
  private o = 0;
  private stored = "";
  /** A gold line kept as written: where each substitute starts and ends, its count; and whether it holds hyphens. */
  private plain = false;
  private hyphens = false;
  private fields = 0;
  private subStart = new Int32Array(16);
  private subEnd = new Int32Array(16);
  private counts = new Float64Array(16);
  /** A table: matches so far, and once cut, its forms, their entry and the entry counts. */
  private matches = 0;
  private forms: string[] | null = null;
  private formEntry: number[] = [];
  private formDerived: boolean[] = [];
  private formCounts: number[] = [];

  load(key: ScoringKey, o: number): void {
    this.key = key;
    this.o = o;
    this.humanResponses = key.humanResponses(o);
    this.hasMode = key.hasMode(o);
    const t = (this.stored = key.stored(o));
    const c0 = t.charCodeAt(0);
    this.plain = c0 !== 1;
    this.matches = 0;
    this.forms = null;
    if (this.plain) this.readFields(t, c0 === 2);
  }

  get mode(): string | null {
    return this.hasMode ? this.key!.mode(this.o) : null;
  }

  match(guess: string): number {
    const e = this.find(guess);
    this.modeMatched = modeHit(e, this.hasMode, this.exact, this.repaired);
    return e;
  }

  private find(guess: string): number {
    if (this.plain) return this.matchPlain(guess);
    if (this.forms === null) {
      if (++this.matches <= 3) return matchEntry(this.stored, guess, this);
      this.cutTable();
    }
    const forms = this.forms!;
    for (let j = 0; j < forms.length; j++) {
      if (forms[j] === guess) {
        const e = this.formEntry[j];
        this.count = this.formCounts[e];
        this.exact = !this.formDerived[j];
        return e;
      }
    }
    return -1;
  }

  private readFields(t: string, hyphens: boolean): void {
    this.hyphens = hyphens;
    let n = 0;
    let from = hyphens ? 1 : 0;
    const end = t.length;
    while (from < end) {
      let semi = t.indexOf(";", from);
      if (semi < 0) semi = end;
      const sp = t.lastIndexOf(" ", semi - 1);
      if (n === this.subStart.length) this.grow();
      let c = 0;
      for (let i = sp + 1; i < semi; i++) c = c * 10 + (t.charCodeAt(i) - 48);
      this.subStart[n] = from;
      this.subEnd[n] = sp;
      this.counts[n++] = c;
      from = semi + 1;
    }
    this.fields = n;
  }

  private grow(): void {
    const size = this.subStart.length * 2;
    const a = new Int32Array(size);
    a.set(this.subStart);
    this.subStart = a;
    const b = new Int32Array(size);
    b.set(this.subEnd);
    this.subEnd = b;
    const c = new Float64Array(size);
    c.set(this.counts);
    this.counts = c;
  }

  private matchPlain(guess: string): number {
    const t = this.stored;
    const g = guess.length;
    const n = this.fields;
    for (let j = 0; j < n; j++) {
      const from = this.subStart[j];
      if (this.subEnd[j] - from === g && t.startsWith(guess, from)) {
        this.count = this.counts[j];
        this.exact = true;
        return j;
      }
    }
    if (!this.hyphens) return -1;
    // A hyphenated substitute also matches with spaces for its hyphens (only when nothing matched as written).
    for (let j = 0; j < n; j++) {
      const from = this.subStart[j];
      if (this.subEnd[j] - from !== g) continue;
      let same = true;
      for (let i = 0; i < g; i++) {
        const a = t.charCodeAt(from + i);
        const b = guess.charCodeAt(i);
        if (!matchesSpaced(a, b)) {
          same = false;
          break;
        }
      }
      if (same) {
        this.count = this.counts[j];
        this.exact = false;
        return j;
      }
    }
    return -1;
  }

  private cutTable(): void {
    const forms: string[] = [];
    const formEntry: number[] = [];
    const formDerived: boolean[] = [];
    const counts: number[] = [];
    const parts = this.stored.slice(1).split("\u0000");
    for (let i = 0; i < parts.length; i += 2) {
      forms.push(parts[i]);
      const c = parts[i + 1];
      formDerived.push(c.charCodeAt(0) === 126);
      if (c.charCodeAt(0) === 126) formEntry.push(Number(c.slice(1)));
      else {
        formEntry.push(counts.length);
        counts.push(Number(c));
      }
    }
    this.forms = forms;
    this.formEntry = formEntry;
    this.formDerived = formDerived;
    this.formCounts = counts;
  }
}

// The scorer's warnings, shared with the fast lane (fast.ts) so both say the same.
export const ANSWERED_BEFORE = "later lines for an id already answered";
export const OVER_TEN = "lines with more than ten guesses";
export const REPEATED_GUESSES = "lines repeating a guess";

/** A later line for an id already answered. */
export function answeredBefore(file: string, line: number, id: string, first: number): Diagnostic {
  return diag("warning", file, line, `id ${id} was answered on line ${first}; this line is ignored (the first line for an id wins)`);
}

/** oot: more than ten guesses. */
export function overTen(file: string, line: number, guesses: number, id: string): Diagnostic {
  return diag("warning", file, line, `${guesses} guesses for id ${id}; only the first ten are scored`);
}

/** oot: guesses given more than once. */
export function repeatedGuesses(file: string, line: number, repeated: readonly string[], id: string): Diagnostic {
  return diag("warning", file, line, `guess ${repeated.map((g) => JSON.stringify(g)).join(", ")} repeated for id ${id}; each copy earns credit, as in the official scorer`);
}

/** The scorer's diagnostics at the end: the whole-file summaries, then the log's. */
export function finishScorerLog(log: DiagnosticLog, file: string, type: SubstitutionType, outsideT: number): Diagnostic[] {
  if (outsideT > 0) {
    log.add("outside", diag("warning", file, 0, `${outsideT} line${outsideT === 1 ? "" : "s"} answer ids outside T (not in the gold, or with fewer than two responses); ignored`));
  }
  const repeated = log.count("repeated-guess");
  if (repeated > 0) log.add("repeated-guess-total", diag("warning", file, 0, `the ${type} file repeats a guess on ${repeated} line${repeated === 1 ? "" : "s"}`));
  return log.finish();
}

/** Scores system lines one at a time against a key. */
export class SubstitutionScorer {
  private readonly stats: SubstitutionStats;
  private readonly groupStats: Map<string, SubstitutionStats> | null = null;
  private readonly groupOfLexelt = new Map<string, SubstitutionStats>();
  /** First system line of each item of T (0 = not answered yet). */
  private readonly answeredAt: Uint32Array;
  private readonly view: View;
  private readonly log: DiagnosticLog;
  private outsideT = 0;
  private repeats = 0;
  private unscorable = 0;
  private readonly file: string;

  constructor(
    readonly key: ScoringKey,
    readonly type: SubstitutionType,
    private readonly rule: ItemRule,
    private readonly options: ScorerOptions = {},
  ) {
    this.file = options.file ?? "system";
    this.log = options.log ?? new DiagnosticLog(10);
    this.view = new View(key.options.repaired === true);
    this.stats = emptyStats(key.total, key.totalWithMode);
    this.answeredAt = new Uint32Array(key.total);
    if (options.groupBy) {
      this.groupStats = new Map();
      for (const [g, t] of key.groupTotals(options.groupBy)) this.groupStats.set(g, emptyStats(t.total, t.totalWithMode));
    }
  }

  /** Score one system line; true when the item was attempted (see `onItem` for its detail). */
  add(line: SystemLine): boolean {
    if (this.options.only && !this.options.only.has(line.id)) return false;
    const key = this.key;
    const o = key.find(line.id);
    const first = o < 0 ? 0 : this.answeredAt[o];
    switch (lineVerdict(o, line.line, this.answeredAt, o < 0 ? 0 : key.humanResponses(o))) {
      case OUTSIDE_T:
        this.outsideT++;
        return false;
      case ANSWERED:
        this.repeats++;
        this.log.add("repeat", answeredBefore(this.file, line.line, line.id, first), ANSWERED_BEFORE);
        return false;
      case UNSCORABLE:
        // In T as score.pl counts it, with no readable gold entry: never attempted.
        this.unscorable++;
        return false;
    }

    const view = this.view;
    view.load(key, o);
    let guesses = line.guesses;
    if (line.alternatives) {
      const alt = line.alternatives;
      guesses = guesses.map((g, i) => (alt[i] !== null && view.match(g) < 0 ? (alt[i] as string) : g));
    }
    if (key.options.singleWordOnly) guesses = guesses.filter((g) => !isMultiword(g));
    if (guesses.length === 0) return false;

    const out = this.rule(view, guesses);
    addItem(this.stats, out);
    this.options.onOutcome?.(o, line.line, out.score, out.modeHit);
    if (this.groupStats) addItem(this.groupFor(key.lexelt(o)), out);
    if (out.truncated) this.log.add("truncated", overTen(this.file, line.line, line.guesses.length, line.id), OVER_TEN);
    if (out.repeated.length > 0) this.log.add("repeated-guess", repeatedGuesses(this.file, line.line, out.repeated, line.id), REPEATED_GUESSES);
    if (this.options.onItem) {
      this.options.onItem({
        id: line.id,
        lexelt: key.lexelt(o),
        systemLexelt: line.lexelt,
        line: line.line,
        humanResponses: view.humanResponses,
        mode: view.mode,
        guesses: out.guesses,
        credit: out.credit,
        score: out.score,
        modeHit: out.modeHit,
        truncated: out.truncated,
        repeated: out.repeated,
      });
    }
    return true;
  }

  /** Lines ignored so far: for ids outside T, later lines for an id, items with no readable entry. */
  get ignored(): { outsideT: number; repeats: number; unscorable: number } {
    return { outsideT: this.outsideT, repeats: this.repeats, unscorable: this.unscorable };
  }

  finish(): SubstitutionResult {
    const groups = this.groupStats ? [...this.groupStats].map(([group, stats]) => ({ group, stats, scores: substitutionScores(stats) })) : null;
    return {
      type: this.type,
      stats: this.stats,
      scores: substitutionScores(this.stats),
      groups,
      ignored: { outsideT: this.outsideT, repeats: this.repeats, unscorable: this.unscorable },
      diagnostics: finishScorerLog(this.log, this.file, this.type, this.outsideT),
    };
  }

  private groupFor(lexelt: string): SubstitutionStats {
    let s = this.groupOfLexelt.get(lexelt);
    if (!s) {
      s = this.groupStats!.get(this.options.groupBy!(lexelt))!;
      this.groupOfLexelt.set(lexelt, s);
    }
    return s;
  }
}
