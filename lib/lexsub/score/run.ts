/**
 * One scoring run, line by line: a gold (or mwgold) file into a key, then a
 * system file through the scorer — the same whether the lines come from texts
 * in hand (`scoreTexts`) or from streamed files (lib/scoring/files.ts).
 *
 * A run reads as score.pl does unless `repaired` is set. In the default mode it
 * also notes, in a `RepairTracker`, the ids where a documented repair would
 * read the files differently; `needsRepairedPass` then says whether a second,
 * repaired run over the same lines is worth making, and `repairReport` compares
 * the two (which rules changed which items, and the repaired figures). Pure.
 */
import { type Diagnostic } from "../../scoring/diagnostics";
import { SystemReader } from "../formats/system";
import { type GroupBy, groupOf } from "./analysis";
import { bestScorer } from "./best";
import { KeyBuilder, type KeyOptions, type ScoringKey, sortDiagnostics } from "./key";
import { type MwItem, MwKey, MwKeyBuilder, type MwResult, MwScorer } from "./mw";
import { ootScorer } from "./oot";
import { type RepairChange, RepairTracker, changedByRule } from "./repairs";
import { type ItemScore, type SubstitutionResult, type SubstitutionScorer } from "./substitution";

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
    if (options.type === "mw") this.mwKeyBuilder = new MwKeyBuilder(goldName);
    else this.keyBuilder = new KeyBuilder(goldName, { ...options.analysis, repaired, repairs: this.tracker ?? undefined });
    this.reader = new SystemReader(options.systemName ?? "system", options.type, { repaired, repairs: this.tracker ?? undefined });
  }

  pushGold(line: string): void {
    if (this.keyBuilder) this.keyBuilder.push(line);
    else this.mwKeyBuilder!.push(line);
  }

  /** The gold is read: build the key and the scorer; returns the gold's diagnostics. */
  goldDone(): Diagnostic[] {
    const o = this.options;
    const file = o.systemName ?? "system";
    if (this.keyBuilder) {
      const { key, diagnostics } = this.keyBuilder.finish();
      this.key = key;
      this.goldDiagnostics = diagnostics;
      const opts = { file, onItem: (i: ItemScore) => this.item(i.id, i), groupBy: o.by ? groupOf(o.by) : undefined };
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
    const s = this.reader.push(line);
    if (s) this.scorer!.add(s);
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
    for (const id of this.watch) {
      let inKey: boolean;
      const k = this.key!;
      if (k instanceof MwKey) inKey = k.modes.has(id);
      else {
        inKey = k.find(id) >= 0;
      }
      out.set(id, `${inKey ? "in" : "out"}|${this.attempted.get(id) ?? "-"}`);
    }
    return out;
  }

  private item(id: string, i: ItemScore | MwItem): void {
    if (this.watch?.has(id)) {
      this.attempted.set(id, "score" in i ? `${i.score}|${i.modeHit}` : `${i.genuine}|${i.matched}`);
    }
    this.options.onItem?.(i);
  }
}

/** Compare a default run with a repaired run made with `watch: official.tracker.ids`; `sample` ids listed per rule. */
export function repairReport(official: ScoreRun, officialResult: ScoreRunResult, repaired: ScoreRun, repairedResult: ScoreRunResult, sample = 5): RepairReport {
  const changes = changedByRule(official.tracker!, official.outcomes(), repaired.outcomes(), sample);
  return { result: repairedResult.result, figuresDiffer: !sameFigures(officialResult.result, repairedResult.result), changes };
}

function sameFigures(a: SubstitutionResult | MwResult, b: SubstitutionResult | MwResult): boolean {
  return JSON.stringify(a.stats) === JSON.stringify(b.stats);
}
