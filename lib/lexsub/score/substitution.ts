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
import { type Diagnostic, DiagnosticLog, diag, ratio } from "../../scoring/diagnostics";
import { type SystemLine } from "../formats/system";
import { isMultiword } from "./analysis";
import { has, lookup, type ScoringKey } from "./key";
import { normalizeGuess } from "../formats/system";

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
  mode: string | null;
  /** freq(guess) / |H_i|, 0 for a guess not in the gold (the official's normalised value). */
  norm(guess: string): number;
  /** Whether `guess` is the mode (or its spaced or normalised form). */
  isMode(guess: string): boolean;
}

export type ItemRule = (gold: GoldView, guesses: string[]) => ItemOutcome;

export interface SubstitutionResult {
  type: SubstitutionType;
  stats: SubstitutionStats;
  scores: SubstitutionScores;
  /** Per group (with `groupBy`), in the key's order. */
  groups: { group: string; stats: SubstitutionStats; scores: SubstitutionScores }[] | null;
  /** Lines for ids outside T, and later lines for an id already answered. */
  ignored: { outsideT: number; repeats: number };
  /** Warnings about the answers (repeated lines, repeated or extra oot guesses). */
  diagnostics: Diagnostic[];
}

export function emptyStats(total = 0, totalWithMode = 0): SubstitutionStats {
  return { total, attempted: 0, credit: 0, totalWithMode, attemptedWithMode: 0, modeHits: 0 };
}

/** Count one attempted item into `stats` (the one computation behind every score). */
export function addItem(stats: SubstitutionStats, item: ItemOutcome): void {
  stats.attempted++;
  if (item.score) stats.credit += item.score;
  if (item.modeHit !== null) {
    stats.attemptedWithMode++;
    if (item.modeHit) stats.modeHits++;
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
}

class View implements GoldView {
  humanResponses = 0;
  mode: string | null = null;
  table: string[] = [];
  private modeForms: string[] = [];

  load(key: ScoringKey, o: number): void {
    this.humanResponses = key.humanResponses(o);
    this.table = key.table(o);
    this.mode = key.mode(o);
    if (this.mode !== null) {
      const m = this.mode;
      this.modeForms = [m];
      if (m.includes("-")) this.modeForms.push(m.replace(/-/g, " "));
      const n = normalizeGuess(m);
      if (!this.modeForms.includes(n)) this.modeForms.push(n);
    }
  }

  norm(guess: string): number {
    const f = lookup(this.table, guess);
    return f === 0 ? 0 : f / this.humanResponses;
  }

  isMode(guess: string): boolean {
    return this.mode !== null && this.modeForms.includes(guess);
  }
}

/** Scores system lines one at a time against a key. */
export class SubstitutionScorer {
  private readonly stats: SubstitutionStats;
  private readonly groupStats: Map<string, SubstitutionStats> | null = null;
  private readonly groupOfLexelt = new Map<string, SubstitutionStats>();
  /** First system line of each item of T (0 = not answered yet). */
  private readonly answeredAt: Uint32Array;
  private readonly view = new View();
  private readonly log = new DiagnosticLog(10);
  private outsideT = 0;
  private repeats = 0;
  private readonly file: string;

  constructor(
    readonly key: ScoringKey,
    readonly type: SubstitutionType,
    private readonly rule: ItemRule,
    private readonly options: ScorerOptions = {},
  ) {
    this.file = options.file ?? "system";
    this.stats = emptyStats(key.total, key.totalWithMode);
    this.answeredAt = new Uint32Array(key.total);
    if (options.groupBy) {
      this.groupStats = new Map();
      for (const [g, t] of key.groupTotals(options.groupBy)) this.groupStats.set(g, emptyStats(t.total, t.totalWithMode));
    }
  }

  /** Score one system line; returns the item when it was attempted. */
  add(line: SystemLine): ItemScore | null {
    const key = this.key;
    const o = key.find(line.id);
    if (o < 0) {
      this.outsideT++;
      return null;
    }
    const first = this.answeredAt[o];
    if (first !== 0) {
      this.repeats++;
      this.log.add(
        "repeat",
        diag("warning", this.file, line.line, `id ${line.id} was answered on line ${first}; this line is ignored (the first line for an id wins)`),
        "later lines for an id already answered",
      );
      return null;
    }
    this.answeredAt[o] = line.line || 1;

    const view = this.view;
    view.load(key, o);
    let guesses = line.guesses;
    if (line.alternatives) {
      const alt = line.alternatives;
      guesses = guesses.map((g, i) => (alt[i] !== null && !has(view.table, g) ? (alt[i] as string) : g));
    }
    if (key.options.singleWordOnly) guesses = guesses.filter((g) => !isMultiword(g));
    if (guesses.length === 0) return null;

    const outcome = this.rule(view, guesses);
    const item: ItemScore = {
      id: line.id,
      lexelt: key.lexelt(o),
      systemLexelt: line.lexelt,
      line: line.line,
      humanResponses: view.humanResponses,
      mode: view.mode,
      ...outcome,
    };
    addItem(this.stats, item);
    if (this.groupStats) addItem(this.groupFor(item.lexelt), item);
    if (item.truncated) {
      this.log.add(
        "truncated",
        diag("warning", this.file, line.line, `${line.guesses.length} guesses for id ${line.id}; only the first ten are scored`),
        "lines with more than ten guesses",
      );
    }
    if (item.repeated.length > 0) {
      this.log.add(
        "repeated-guess",
        diag(
          "warning",
          this.file,
          line.line,
          `guess ${item.repeated.map((g) => JSON.stringify(g)).join(", ")} repeated for id ${line.id}; each copy earns credit, as in the official scorer`,
        ),
        "lines repeating a guess",
      );
    }
    this.options.onItem?.(item);
    return item;
  }

  finish(): SubstitutionResult {
    if (this.outsideT > 0) {
      this.log.add(
        "outside",
        diag("warning", this.file, 0, `${this.outsideT} line${this.outsideT === 1 ? "" : "s"} answer ids outside T (not in the gold, or with fewer than two responses); ignored`),
      );
    }
    const repeatedGuesses = this.log.count("repeated-guess");
    if (repeatedGuesses > 0) {
      this.log.add("repeated-guess-total", diag("warning", this.file, 0, `the ${this.type} file repeats a guess on ${repeatedGuesses} line${repeatedGuesses === 1 ? "" : "s"}`));
    }
    const groups = this.groupStats ? [...this.groupStats].map(([group, stats]) => ({ group, stats, scores: substitutionScores(stats) })) : null;
    return {
      type: this.type,
      stats: this.stats,
      scores: substitutionScores(this.stats),
      groups,
      ignored: { outsideT: this.outsideT, repeats: this.repeats },
      diagnostics: this.log.finish(),
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
