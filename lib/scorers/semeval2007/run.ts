/**
 * One scoring run, line by line: a gold (or mwgold) file into a key, then a
 * system file through the scorer — the same whether the lines come from texts
 * in hand (`scoreTexts`) or from streamed files (bin/commands/score-files.ts).
 *
 * A run reads as score.pl does unless `repaired` is set. In the default mode it
 * also notes, in a `RepairTracker`, the ids where a documented repair would
 * read the files differently; `needsRepairedPass` then says whether the
 * repaired figures differ in what they read, and `repairReport` compares the
 * two readings (which rules changed which items, and the repaired figures).
 *
 * For best and oot those figures come from the same pass: every item a repair
 * does not touch reads and scores the same either way, so a default run keeps
 * the gold lines that got an id noted, builds from them a small repaired key
 * for those ids alone when the gold is read (its `shadow` run), sends each
 * system line of a noted id to that shadow too, and adds up, line by line, the
 * default outcome of every other item and the shadow's outcome of the noted
 * ones — in file order, as a full repaired run adds them, so the figures are
 * equal to the last bit (test/scorers/semeval2007/parity.test.ts checks it on random
 * files). Neither file is read twice and no per-line record is kept. When the
 * system file itself notes a new id (a CRLF line, spaces around guesses), the
 * lines of that id read earlier went the default way only: `inlineRepairs`
 * then answers null and the caller makes a full repaired run over both files
 * (`repairedRun`). mw always does. Pure.
 */
import { type Diagnostic, type DiagnosticLog } from "../../lexsub/diagnostics";
import { type SystemLine, SystemReader } from "./system";
import { type GroupBy, groupOf } from "./analysis";
import { bestScorer } from "./best";
import { KeyBuilder, type KeyOptions, type ScoringKey, copy, idKey, sortDiagnostics } from "./key";
import { type MwItem, MwKey, MwKeyBuilder, type MwResult, MwScorer } from "./mw";
import { ootScorer } from "./oot";
import { type RepairChange, RepairTracker, changedByRule } from "./repairs";
import { type ItemScore, type SubstitutionResult, type SubstitutionScorer, type SubstitutionStats, addOutcome, emptyStats, substitutionScores } from "./substitution";
import { type Reading } from "./rules";

export type ScoreType = "best" | "oot" | "mw";

export interface ScoreRunOptions {
  type: ScoreType;
  /** Names for diagnostics (default "system", "gold"). */
  systemName?: string;
  goldName?: string;
  /** Further analysis (best and oot). */
  analysis?: KeyOptions;
  /** A breakdown per PoS or lexelt (best and oot). */
  by?: GroupBy;
  /** Apply the documented repairs instead of reading as score.pl does. */
  repaired?: boolean;
  /** How Perl reads the files' characters: "bytes" (default, score.pl as it runs) or "utf8" (`perl -CSD score.pl`); rules.ts `readingFor`. */
  reading?: Reading;
  /** Called with each attempted item, in system-file order. */
  onItem?: (item: ItemScore | MwItem) => void;
  /**
   * best and oot, with `repaired`: read only these ids (a default run's shadow;
   * see the header). Ignored for mw.
   */
  only?: ReadonlySet<string>;
  /**
   * The system file's reader and scorer log into these (the fast lane's, which
   * hands this run the lines it does not read itself and finishes the logs).
   */
  logs?: { reader: DiagnosticLog; scorer: DiagnosticLog };
}

export interface ScoreRunResult {
  result: SubstitutionResult | MwResult;
  /** The gold's diagnostics; when they hold an error, nothing should be reported as scored. */
  goldDiagnostics: Diagnostic[];
  systemDiagnostics: Diagnostic[];
  /** Lines read from the system file, in the format, refused. */
  lines: { read: number; matched: number; refused: number };
}

/** What a repair would change, from a default run and a repaired one over the same lines. */
export interface RepairReport {
  /** The repaired run's result (its figures). */
  result: SubstitutionResult | MwResult;
  /** Whether any figure differs from the default run's. */
  figuresDiffer: boolean;
  /** The rules that changed items, with how many and the first few ids. */
  changes: RepairChange[];
}

/** best and oot: the repaired reading of the noted ids, made alongside a default run (see the header). */
interface Shadow {
  run: ScoreRun;
  /** The noted ids as `idKey`s (numbers for most ids: a quick look-up per system line). */
  keys: Set<string | number>;
  /** The repaired figures, added up line by line. */
  stats: SubstitutionStats;
}

/**
 * A run: `pushGold` every gold line, `goldDone`, `pushSystem` every system
 * line, `finish`. With `watch`, the outcome of each watched id is kept (for
 * comparing a default and a repaired run item by item).
 */
export class ScoreRun {
  readonly tracker: RepairTracker | null;
  private readonly keyBuilder: KeyBuilder | null = null;
  private readonly mwKeyBuilder: MwKeyBuilder | null = null;
  private key: ScoringKey | MwKey | null = null;
  private goldDiagnostics: Diagnostic[] = [];
  private scorer: SubstitutionScorer | MwScorer | null = null;
  private readonly reader: SystemReader;
  /** mw: outcomes of watched ids (filled by onItem). */
  private readonly attempted = new Map<string, string>();
  private readonly watch: ReadonlySet<string> | null;
  /** Whether this run read only some ids (see `only`). */
  readonly restricted: boolean;

  /** best and oot with `watch`: each item's outcome, by item number (score; 0 not attempted, 1 no mode, 2 mode missed, 3 mode hit). */
  private outcomeScore: Float64Array | null = null;
  private outcomeHit: Uint8Array | null = null;
  /** The outcome of the system line being scored (set by the scorer's `onOutcome`). */
  private lastAttempted = false;
  /** Whether the last system line's repaired outcome is the shadow's (a noted id). */
  private repairedShadow = false;
  private lastScore = 0;
  private lastModeHit: boolean | null = null;

  /** A default best/oot run: the gold lines that got an id noted, with their line numbers, until `goldDone`. */
  private keptGold: (number | string)[] | null;
  private goldLine = 0;
  private systemLine = 0;
  private shadow: Shadow | null = null;
  /** Whether reading the system file noted an id the gold had not (its earlier lines went the default way only). */
  private systemNotedNew = false;

  /**
   * `watch`: the ids whose outcomes to keep — for a repaired run, the default
   * run's `tracker.ids`; a default run watches the ids its own tracker notes.
   */
  constructor(
    readonly options: ScoreRunOptions,
    watch: ReadonlySet<string> | null = null,
  ) {
    const repaired = options.repaired === true;
    this.tracker = repaired ? null : new RepairTracker();
    this.watch = watch ?? this.tracker?.ids ?? null;
    const goldName = options.goldName ?? "gold";
    const only = options.type !== "mw" && repaired ? options.only : undefined;
    this.restricted = only !== undefined;
    const reading = options.reading ?? "bytes";
    if (options.type === "mw") this.mwKeyBuilder = new MwKeyBuilder(goldName, reading);
    else this.keyBuilder = new KeyBuilder(goldName, { ...options.analysis, repaired, repairs: this.tracker ?? undefined, only, reading });
    this.reader = new SystemReader(options.systemName ?? "system", options.type, { repaired, repairs: this.tracker ?? undefined, only, log: options.logs?.reader, reading });
    this.keptGold = this.tracker && options.type !== "mw" ? [] : null;
  }

  /** Feed the next gold line (or, with `at`, line number `at`: for a caller that reads the other lines itself, fast.ts). */
  pushGold(line: string, at?: number): void {
    this.goldLine = at ?? this.goldLine + 1;
    if (!this.keyBuilder) return this.mwKeyBuilder!.push(line);
    const noted = this.keptGold ? this.tracker!.ids.size : 0;
    if (at === undefined) this.keyBuilder.push(line);
    else this.keyBuilder.pushAt(at, line);
    // A line gets its id noted on its first reading only (a repeated id is refused first).
    // A copy: the line may be a slice of a large chunk of the file.
    if (this.keptGold && this.tracker!.ids.size !== noted) this.keptGold.push(this.goldLine, copy(line));
  }

  /** The gold is read: build the key and the scorer; returns the gold's diagnostics. */
  goldDone(): Diagnostic[] {
    const o = this.options;
    const file = o.systemName ?? "system";
    if (this.keyBuilder) {
      const { key, diagnostics } = this.keyBuilder.finish();
      this.key = key;
      this.goldDiagnostics = diagnostics;
      if (this.watch) {
        this.outcomeScore = new Float64Array(key.total);
        this.outcomeHit = new Uint8Array(key.total);
      }
      const opts = {
        file,
        onItem: o.onItem,
        groupBy: o.by && !this.restricted ? groupOf(o.by) : undefined,
        only: this.restricted ? (o.only ?? undefined) : undefined,
        onOutcome: (item: number, _line: number, score: number, modeHit: boolean | null) => this.outcome(item, score, modeHit),
        log: o.logs?.scorer,
      };
      this.scorer = o.type === "best" ? bestScorer(key, opts) : ootScorer(key, opts);
      if (this.keptGold) this.startShadow(key);
    } else {
      const { key, diagnostics } = this.mwKeyBuilder!.finish();
      this.key = key;
      this.goldDiagnostics = diagnostics;
      this.scorer = new MwScorer(key, { file, onItem: (i) => this.item(i.id, i) });
    }
    return this.goldDiagnostics;
  }

  /** A default best/oot run whose gold noted ids: the repaired reading of those ids, from the kept lines. */
  private startShadow(key: ScoringKey): void {
    const kept = this.keptGold!;
    this.keptGold = null;
    if (kept.length === 0) return;
    const ids = new Set(this.tracker!.ids);
    const run = new ScoreRun({ ...this.options, repaired: true, onItem: undefined, only: ids, logs: undefined }, ids);
    for (let i = 0; i < kept.length; i += 2) run.pushGold(kept[i + 1] as string, kept[i] as number);
    run.goldDone();
    const shadowKey = run.scoringKey as ScoringKey;
    // T and TM: the default key's, with the noted ids counted as the repaired reading counts them.
    let total = key.total + shadowKey.total;
    let withMode = key.totalWithMode + shadowKey.totalWithMode;
    for (const id of ids) {
      const at = key.find(id);
      if (at < 0) continue;
      total--;
      if (key.hasMode(at)) withMode--;
    }
    this.shadow = { run, keys: new Set([...ids].map(idKey)), stats: emptyStats(total, withMode) };
  }

  /** The key built by `goldDone`. */
  get scoringKey(): ScoringKey | MwKey {
    if (!this.key) throw new Error("goldDone() first");
    return this.key;
  }

  pushSystem(line: string): void {
    this.systemLine++;
    this.lastAttempted = false;
    this.repairedShadow = false;
    const tracker = this.tracker;
    const noted = tracker ? tracker.ids.size : 0;
    const s = this.reader.push(line);
    if (!s) return;
    this.scorer!.add(s);
    const shadow = this.shadow;
    if (!shadow || this.systemNotedNew) return;
    if (tracker!.ids.size !== noted) {
      this.systemNotedNew = true;
      return;
    }
    if (shadow.keys.has(idKey(s.id))) {
      // A noted id: its repaired outcome is the shadow's.
      const r = shadow.run;
      r.pushSystemLine(this.systemLine, line);
      this.repairedShadow = true;
      if (r.lastAttempted) addOutcome(shadow.stats, r.lastScore, r.lastModeHit);
    } else if (this.lastAttempted) addOutcome(shadow.stats, this.lastScore, this.lastModeHit);
  }

  /** The id of the last gold line fed, when it was read as one (best, oot). */
  get lastGoldId(): string | null {
    return this.keyBuilder?.lastId ?? null;
  }

  /** Gold line `line`, read elsewhere (fast.ts), is not sorted by count: reported as this run would have. */
  goldUnsortedElsewhere(line: number, id: string): void {
    this.keyBuilder!.unsortedElsewhere(line, id);
  }

  /** The gold line of an id in T (best, oot), or 0. */
  goldLineOf(id: string): number {
    const k = this.key as ScoringKey;
    const o = k.find(id);
    return o < 0 ? 0 : k.lineOf(o);
  }

  /** `lines` gold lines were read elsewhere (fast.ts): counted as lines read. */
  goldLinesReadElsewhere(lines: number): void {
    this.keyBuilder!.countRead(lines);
  }

  /** Feed line number `line` of the system file (a shadow's, or the fast lane's lines it does not read itself). */
  pushSystemLine(line: number, text: string): void {
    this.reader.seek(line);
    this.systemLine = line - 1;
    this.pushSystem(text);
  }

  /**
   * Read system line `line` with this run's reader — reported and noted as every line it
   * reads — without scoring it (the fast lane scores it against its own key): the line, or
   * null when not one of the format (`refused` when it held something).
   */
  readSystemLine(line: number, text: string): { line: SystemLine | null; refused: boolean } {
    this.reader.seek(line);
    this.systemLine = line;
    const before = this.reader.refused;
    const read = this.reader.push(text);
    return { line: read, refused: this.reader.refused !== before };
  }

  /** The last system line's outcome: null when not attempted, else its score and mode hit. */
  get lastOutcome(): { score: number; modeHit: boolean | null } | null {
    return this.lastAttempted ? { score: this.lastScore, modeHit: this.lastModeHit } : null;
  }

  /** The last system line's outcome in the repaired reading (a default run with a shadow: see the header). */
  get lastRepairedOutcome(): { score: number; modeHit: boolean | null } | null {
    const r = this.repairedShadow ? this.shadow!.run : this;
    return r.lastAttempted ? { score: r.lastScore, modeHit: r.lastModeHit } : null;
  }

  /** Lines ignored so far by the scorer (best, oot). */
  get ignored(): { outsideT: number; repeats: number; unscorable: number } {
    return (this.scorer as SubstitutionScorer).ignored;
  }

  /** A default best/oot run: |T| and |TM| of the repaired reading (its shadow's: see `startShadow`). */
  get repairedTotals(): { total: number; totalWithMode: number } {
    const k = this.key as ScoringKey;
    return this.shadow ? { total: this.shadow.stats.total, totalWithMode: this.shadow.stats.totalWithMode } : { total: k.total, totalWithMode: k.totalWithMode };
  }

  /** A default best/oot run: each watched id's outcome, as read (official) and as its shadow read it (repaired). */
  inlineOutcomes(): { official: Map<string, string>; repaired: Map<string, string> } {
    return { official: this.outcomes(), repaired: this.shadow ? this.shadow.run.outcomes() : this.outcomes() };
  }

  /** Whether reading the system file noted an id (then `inlineRepairs` declines). */
  get systemNoted(): boolean {
    return this.systemNotedNew;
  }

  finish(): ScoreRunResult {
    const result = this.scorer!.finish();
    return {
      result,
      goldDiagnostics: this.goldDiagnostics,
      systemDiagnostics: sortDiagnostics([...this.reader.finish(), ...result.diagnostics]),
      lines: { read: this.reader.lines, matched: this.reader.matched, refused: this.reader.refused },
    };
  }

  /** Whether a default run met any line a repair reads differently (then see `inlineRepairs`, or make a `repairedRun`). */
  get needsRepairedPass(): boolean {
    return this.tracker !== null && this.tracker.any;
  }

  /**
   * A default best/oot run's repair report from its shadow (see the header),
   * after `finish`; null when it has none that suffices (mw, or ids noted while
   * reading the system file): then read both files into `repairedRun()` and
   * call `repairReport`.
   */
  inlineRepairs(result: ScoreRunResult): RepairReport | null {
    const shadow = this.shadow;
    if (!shadow || this.systemNotedNew || !this.needsRepairedPass || result.result.type === "mw") return null;
    const own = shadow.run.finish().result as SubstitutionResult;
    const repaired: SubstitutionResult = { ...own, stats: shadow.stats, scores: substitutionScores(shadow.stats), groups: null };
    const changes = changedByRule(this.tracker!, this.outcomes(), shadow.run.outcomes());
    return { result: repaired, figuresDiffer: !sameFigures(result.result, repaired), changes };
  }

  /** The full repaired run to compare this default run with, when `inlineRepairs` answers null: feed it both files again. */
  repairedRun(): ScoreRun {
    const ids = new Set(this.tracker!.ids);
    return new ScoreRun({ ...this.options, repaired: true, onItem: undefined, only: undefined, logs: undefined }, ids);
  }

  /** The outcome of each watched id: in T / MW or not, and, when attempted, its score and mode hit. */
  outcomes(): Map<string, string> {
    const out = new Map<string, string>();
    if (!this.watch) return out;
    const k = this.key!;
    if (k instanceof MwKey) {
      for (const id of this.watch) out.set(id, `${k.modes.has(id) ? "in" : "out"}|${this.attempted.get(id) ?? "-"}`);
      return out;
    }
    const score = this.outcomeScore!;
    const hit = this.outcomeHit!;
    for (const id of this.watch) {
      const o = k.find(id);
      const h = o >= 0 ? hit[o] : 0;
      out.set(id, `${o >= 0 ? "in" : "out"}|${h === 0 ? "-" : `${score[o]}|${h === 1 ? null : h === 3}`}`);
    }
    return out;
  }

  private outcome(item: number, score: number, modeHit: boolean | null): void {
    this.lastAttempted = true;
    this.lastScore = score;
    this.lastModeHit = modeHit;
    if (this.outcomeHit) {
      this.outcomeScore![item] = score;
      this.outcomeHit[item] = modeHit === null ? 1 : modeHit ? 3 : 2;
    }
  }

  private item(id: string, i: MwItem): void {
    if (this.watch?.has(id)) this.attempted.set(id, `${i.genuine}|${i.matched}`);
    this.options.onItem?.(i);
  }
}

/** Compare a default run with a full repaired run made with `official.repairedRun()` over the same lines; `sample` ids listed per rule. */
export function repairReport(official: ScoreRun, officialResult: ScoreRunResult, repaired: ScoreRun, repairedResult: ScoreRunResult, sample = 5): RepairReport {
  const changes = changedByRule(official.tracker!, official.outcomes(), repaired.outcomes(), sample);
  const result = repairedResult.result;
  return { result, figuresDiffer: !sameFigures(officialResult.result, result), changes };
}

/**
 * What the UTF-8 reading (`perl -CSD score.pl`, `reading: "utf8"`) gives
 * beside a default run, which reads bytes as score.pl does: its figures, and
 * whether any differs. Only files with characters outside ASCII can differ
 * (perl-classes.ts `readingsAgreeOn`).
 */
export interface Utf8Report {
  /** The UTF-8 run's result (its figures). */
  result: SubstitutionResult | MwResult;
  /** Whether any figure differs from the byte reading's. */
  figuresDiffer: boolean;
}

/** Compare a default (byte) run with a run of the same files and options read as UTF-8. */
export function utf8Report(bytes: Pick<ScoreRunResult, "result">, utf8: Pick<ScoreRunResult, "result">): Utf8Report {
  return { result: utf8.result, figuresDiffer: !sameFigures(bytes.result, utf8.result) };
}

function sameFigures(a: SubstitutionResult | MwResult, b: SubstitutionResult | MwResult): boolean {
  return JSON.stringify(a.stats) === JSON.stringify(b.stats);
}
