/**
 * One scoring run, line by line: a gold (or mwgold) file into a key, then a
 * system file through the scorer — the same whether the lines come from texts
 * in hand (`scoreTexts`) or from streamed files (lib/scoring/files.ts).
 *
 * A run reads as score.pl does unless `repaired` is set. In the default mode it
 * also notes, in a `RepairTracker`, the ids where a documented repair would
 * read the files differently; `needsRepairedPass` then says whether a second,
 * repaired run over the same lines is worth making, and `repairReport` compares
 * the two (which rules changed which items, and the repaired figures).
 *
 * For best and oot, that second run need read only the ids the tracker noted
 * (`only`): every other item reads and scores the same either way, so the
 * repaired figures are the default run's with the noted items' outcomes
 * swapped for their repaired ones, summed in file order from the two runs'
 * ledgers (`mergeRepairedStats`) — equal, to the last bit, to a full repaired
 * run's (test/lexsub/score-repaired-pass.test.ts checks it), at a fraction of
 * its time and memory. A default run also keeps, as it reads, the raw lines of
 * the noted ids (a gold line when it gets an id noted, a system line whose id is
 * noted already), so `replayRepaired` makes that second run from them without
 * reading either file again — unless the system file itself got new ids noted
 * (CRLF lines, spaces around guesses): an earlier line of such an id went
 * unkept, so the caller reads the files again with `only` (`repairedRun`). Pure.
 */
import { type Diagnostic } from "../../scoring/diagnostics";
import { SystemReader } from "../formats/system";
import { type GroupBy, groupOf } from "./analysis";
import { bestScorer } from "./best";
import { KeyBuilder, type KeyOptions, type ScoringKey, copy, idKey, sortDiagnostics } from "./key";
import { type MwItem, MwKey, MwKeyBuilder, type MwResult, MwScorer } from "./mw";
import { ootScorer } from "./oot";
import { type RepairChange, RepairTracker, changedByRule } from "./repairs";
import { type ItemScore, ScoreLedger, type SubstitutionResult, type SubstitutionScorer, type SubstitutionStats, emptyStats, substitutionScores } from "./substitution";

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
  /** Called with each attempted item, in system-file order. */
  onItem?: (item: ItemScore | MwItem) => void;
  /**
   * best and oot, with `repaired`: read only these ids (a default run's
   * `tracker.ids`); `repairReport` then takes the other items from the default
   * run. Ignored for mw, whose second run reads everything.
   */
  only?: ReadonlySet<string>;
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
  /** Outcomes of watched ids: attempted items' scores (filled by onItem). */
  private readonly attempted = new Map<string, string>();

  private readonly watch: ReadonlySet<string> | null;
  /** best and oot: each attempted item's outcome in file order (for a restricted repaired run). */
  readonly ledger: ScoreLedger | null;
  /** Whether this run read only some ids (see `only`). */
  readonly restricted: boolean;
  /** A default best/oot run: the lines of noted ids, with their line numbers (see `replayRepaired`). */
  private readonly kept: { gold: (number | string)[]; system: (number | string)[] } | null;
  private goldLine = 0;
  private systemLine = 0;
  /** Whether reading the system file noted an id not noted by the gold (its earlier lines were not kept). */
  private systemNotedNew = false;
  /** The ids the gold got noted, as `idKey`s (numbers for most ids: a quick look-up per system line). */
  private notedKeys: Set<string | number> | null = null;

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
    this.ledger = options.type !== "mw" && (this.tracker || only) ? new ScoreLedger() : null;
    if (options.type === "mw") this.mwKeyBuilder = new MwKeyBuilder(goldName);
    else this.keyBuilder = new KeyBuilder(goldName, { ...options.analysis, repaired, repairs: this.tracker ?? undefined, only });
    this.reader = new SystemReader(options.systemName ?? "system", options.type, { repaired, repairs: this.tracker ?? undefined, only });
    this.kept = this.tracker && options.type !== "mw" ? { gold: [], system: [] } : null;
  }

  pushGold(line: string): void {
    this.goldLine++;
    if (!this.keyBuilder) return this.mwKeyBuilder!.push(line);
    const noted = this.kept ? this.tracker!.ids.size : 0;
    this.keyBuilder.push(line);
    // A line gets its id noted on its first reading only (a repeated id is refused first).
    // A copy: the line may be a slice of a large chunk of the file.
    if (this.kept && this.tracker!.ids.size !== noted) this.kept.gold.push(this.goldLine, copy(line));
  }

  /** Feed line number `line` of the gold (a kept line read again; see `replayRepaired`). */
  pushGoldAt(line: number, text: string): void {
    this.goldLine = line - 1;
    this.keyBuilder!.pushAt(line, text);
    this.goldLine = line;
  }

  /** The gold is read: build the key and the scorer; returns the gold's diagnostics. */
  goldDone(): Diagnostic[] {
    const o = this.options;
    const file = o.systemName ?? "system";
    if (this.keyBuilder) {
      const { key, diagnostics } = this.keyBuilder.finish();
      this.key = key;
      this.goldDiagnostics = diagnostics;
      const opts = {
        file,
        // With a ledger, watched outcomes come from it: no item object is built unless asked for.
        onItem: o.onItem || !this.ledger ? (i: ItemScore) => this.item(i.id, i) : undefined,
        groupBy: o.by && !this.restricted ? groupOf(o.by) : undefined,
        only: this.restricted ? (o.only ?? undefined) : undefined,
        ledger: this.ledger ?? undefined,
      };
      this.scorer = o.type === "best" ? bestScorer(key, opts) : ootScorer(key, opts);
    } else {
      const { key, diagnostics } = this.mwKeyBuilder!.finish();
      this.key = key;
      this.goldDiagnostics = diagnostics;
      this.scorer = new MwScorer(key, { file, onItem: (i) => this.item(i.id, i) });
    }
    return this.goldDiagnostics;
  }

  /** The key built by `goldDone`. */
  get scoringKey(): ScoringKey | MwKey {
    if (!this.key) throw new Error("goldDone() first");
    return this.key;
  }

  pushSystem(line: string): void {
    this.systemLine++;
    const kept = this.kept;
    const noted = kept ? this.tracker!.ids.size : 0;
    const s = this.reader.push(line);
    if (kept && s) {
      if (this.tracker!.ids.size !== noted) this.systemNotedNew = true;
      else if (!this.systemNotedNew && noted > 0) {
        const keys = (this.notedKeys ??= new Set([...this.tracker!.ids].map(idKey)));
        if (keys.has(idKey(s.id))) kept.system.push(this.systemLine, copy(line));
      }
    }
    if (s) this.scorer!.add(s);
  }

  /** Feed line number `line` of the system file (a kept line read again; see `replayRepaired`). */
  pushSystemAt(line: number, text: string): void {
    this.reader.seek(line);
    this.systemLine = line - 1;
    this.pushSystem(text);
  }

  /**
   * The repaired run to make after this default run (`needsRepairedPass`):
   * best and oot read only the noted ids. Feed it the files again, or use
   * `replayRepaired`, which feeds it the kept lines when they suffice.
   */
  repairedRun(): ScoreRun {
    const ids = this.tracker!.ids;
    return new ScoreRun({ ...this.options, repaired: true, onItem: undefined, only: ids }, ids);
  }

  /**
   * The repaired run made from the lines this default run kept (see the
   * header), finished; null when they do not suffice (mw, or ids noted while
   * reading the system file): then read the files again into `repairedRun()`.
   */
  replayRepaired(): { run: ScoreRun; result: ScoreRunResult } | null {
    if (!this.kept || this.systemNotedNew) return null;
    const again = this.repairedRun();
    const { gold, system } = this.kept;
    for (let i = 0; i < gold.length; i += 2) again.pushGoldAt(gold[i] as number, gold[i + 1] as string);
    again.goldDone();
    for (let i = 0; i < system.length; i += 2) again.pushSystemAt(system[i] as number, system[i + 1] as string);
    return { run: again, result: again.finish() };
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

  /** Whether a default run met any line a repair reads differently (then run again with `repaired` and `watch`). */
  get needsRepairedPass(): boolean {
    return this.tracker !== null && this.tracker.any;
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
    // best and oot: from the ledger (item number → its entry).
    const l = this.ledger;
    const entry = l ? new Int32Array(k.total).fill(-1) : null;
    if (l && entry) for (let i = 0; i < l.length; i++) entry[l.item[i]] = i;
    for (const id of this.watch) {
      const o = k.find(id);
      let attempted = this.attempted.get(id) ?? "-";
      if (l && entry && o >= 0 && entry[o] >= 0) {
        const hit = l.modeHit[entry[o]];
        attempted = `${l.score[entry[o]]}|${hit === 0 ? null : hit === 2}`;
      }
      out.set(id, `${o >= 0 ? "in" : "out"}|${attempted}`);
    }
    return out;
  }

  private item(id: string, i: ItemScore | MwItem): void {
    if (!this.ledger && this.watch?.has(id)) {
      this.attempted.set(id, "score" in i ? `${i.score}|${i.modeHit}` : `${i.genuine}|${i.matched}`);
    }
    this.options.onItem?.(i);
  }
}

/** Compare a default run with a repaired run made with `watch: official.tracker.ids`; `sample` ids listed per rule. */
export function repairReport(official: ScoreRun, officialResult: ScoreRunResult, repaired: ScoreRun, repairedResult: ScoreRunResult, sample = 5): RepairReport {
  const changes = changedByRule(official.tracker!, official.outcomes(), repaired.outcomes(), sample);
  let result = repairedResult.result;
  if (repaired.restricted && result.type !== "mw" && officialResult.result.type !== "mw") {
    const stats = mergeRepairedStats(official, officialResult.result.stats, repaired, result.stats);
    result = { ...result, stats, scores: substitutionScores(stats), groups: null };
  }
  return { result, figuresDiffer: !sameFigures(officialResult.result, result), changes };
}

/**
 * The repaired figures of a whole run from a default run and a repaired run
 * restricted to the ids its tracker noted: T and TM adjusted by the noted items
 * (counted in each run's key), and every attempted item's outcome taken from
 * the default run's ledger unless noted, from the restricted run's if noted —
 * merged by system line, so the credit is summed in the same order as a full
 * repaired run sums it.
 */
export function mergeRepairedStats(official: ScoreRun, officialStats: SubstitutionStats, repaired: ScoreRun, repairedStats: SubstitutionStats): SubstitutionStats {
  const key = official.scoringKey as ScoringKey;
  const noted = new Uint8Array(key.total);
  let total = 0;
  let withMode = 0;
  for (const id of repaired.options.only!) {
    const o = key.find(id);
    if (o < 0) continue;
    noted[o] = 1;
    total++;
    if (key.hasMode(o)) withMode++;
  }
  // The restricted key holds only noted ids: its T and TM are theirs.
  const stats = emptyStats(officialStats.total - total + repairedStats.total, officialStats.totalWithMode - withMode + repairedStats.totalWithMode);
  const a = official.ledger!;
  const b = repaired.ledger!;
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.length && noted[a.item[i]] === 1) i++;
    let l: ScoreLedger;
    let k: number;
    if (i < a.length && (j >= b.length || a.line[i] < b.line[j])) {
      l = a;
      k = i++;
    } else if (j < b.length) {
      l = b;
      k = j++;
    } else break;
    stats.attempted++;
    const score = l.score[k];
    if (score) stats.credit += score;
    const hit = l.modeHit[k];
    if (hit !== 0) {
      stats.attemptedWithMode++;
      if (hit === 2) stats.modeHits++;
    }
  }
  return stats;
}

function sameFigures(a: SubstitutionResult | MwResult, b: SubstitutionResult | MwResult): boolean {
  return JSON.stringify(a.stats) === JSON.stringify(b.stats);
}
