/**
 * mw (seed 000 §4.3, formulas 9–12): did the system spot that the target is
 * part of a multiword (detection), and name it (identification)?
 *
 * MW: the items of the mwgold whose first entry has a count above 1 that no
 * other entry ties; its multiword (first apostrophe removed) is the item's mw_i.
 * MWsys: the system lines with an answer (first line per id; keyed by id alone,
 * no check against T).
 *
 *   detection P = genuine / |MWsys|          detection R = genuine / |MW|
 *   identification P = matched / |MWsys|     identification R = matched / |MW|
 *
 * genuine: answered items that are in MW; matched: those whose answer is mw_i
 * exactly (case- and space-sensitive; the answer's first apostrophe removed
 * too, and spaces at its end dropped when it does not match as written).
 * Unlike the official scorer, an empty answer is not an answer: it counts
 * neither in MWsys nor as genuine (the official counts it genuine). Pure.
 */
import { type Diagnostic, DiagnosticLog, diag } from "../../lexsub/diagnostics";
import { ratio } from "../../lexsub/ratio";
import { type GoldLine, GoldReader } from "../../lexsub/formats/gold";
import { type SystemLine } from "./system";
import { multiwordMode } from "./analysis";
import { sortDiagnostics } from "./key";
import { type Reading } from "./rules";

export interface MwStats {
  /** |MW|. */
  totalMultiwords: number;
  /** |MWsys|: lines (first per id) with an answer. */
  systemFound: number;
  /** Answered items that are in MW. */
  genuine: number;
  /** Answered items whose answer is the multiword. */
  matched: number;
}

export interface MwScores {
  detectionPrecision: number | null;
  detectionRecall: number | null;
  identificationPrecision: number | null;
  identificationRecall: number | null;
}

export interface MwItem {
  id: string;
  /** The lexelt as written on the system line. */
  systemLexelt: string;
  line: number;
  /** The answer as written. */
  answer: string;
  /** The gold multiword, or null when the item is not in MW. */
  mode: string | null;
  genuine: boolean;
  matched: boolean;
}

export interface MwResult {
  type: "mw";
  stats: MwStats;
  scores: MwScores;
  ignored: { repeats: number };
  diagnostics: Diagnostic[];
}

/** The mw key: id → multiword, for the items in MW. */
export class MwKey {
  readonly modes = new Map<string, string>();

  get total(): number {
    return this.modes.size;
  }

  static fromGold(lines: readonly GoldLine[]): MwKey {
    const k = new MwKey();
    for (const g of lines) k.add(g);
    return k;
  }

  add(g: GoldLine): void {
    const m = multiwordMode(g.entries);
    if (m !== null) this.modes.set(g.id, m);
  }
}

/** Build an mw key line by line from an mwgold file. */
export class MwKeyBuilder {
  private readonly reader: GoldReader;
  private readonly key = new MwKey();
  private readonly log = new DiagnosticLog(10);

  constructor(
    readonly file: string,
    reading: Reading = "bytes",
  ) {
    this.reader = new GoldReader(file, "mwgold", { reading });
  }

  push(raw: string): void {
    const g = this.reader.push(raw);
    if (!g) return;
    for (let i = 1; i < g.entries.length; i++) {
      if (g.entries[i].count > g.entries[i - 1].count) {
        this.log.add(
          "unsorted",
          diag("warning", this.file, g.line, `entries of id ${g.id} are not sorted by count; the multiword is taken to be the first entry`),
          "lines not sorted by count",
        );
        break;
      }
    }
    this.key.add(g);
  }

  finish(): { key: MwKey; diagnostics: Diagnostic[] } {
    return { key: this.key, diagnostics: sortDiagnostics([...this.reader.finish(), ...this.log.finish()]) };
  }
}

export function mwScores(s: MwStats): MwScores {
  return {
    detectionPrecision: ratio(s.genuine, s.systemFound),
    detectionRecall: ratio(s.genuine, s.totalMultiwords),
    identificationPrecision: ratio(s.matched, s.systemFound),
    identificationRecall: ratio(s.matched, s.totalMultiwords),
  };
}

export interface MwScorerOptions {
  file?: string;
  /** Called with each answered item, in file order. */
  onItem?: (item: MwItem) => void;
}

/** Scores mw system lines one at a time. */
export class MwScorer {
  private readonly stats: MwStats;
  private readonly answeredAt = new Map<string, number>();
  private readonly log = new DiagnosticLog(10);
  private repeats = 0;

  constructor(
    readonly key: MwKey,
    private readonly options: MwScorerOptions = {},
  ) {
    this.stats = { totalMultiwords: key.total, systemFound: 0, genuine: 0, matched: 0 };
  }

  add(line: SystemLine): MwItem | null {
    const first = this.answeredAt.get(line.id);
    if (first !== undefined) {
      this.repeats++;
      this.log.add(
        "repeat",
        diag("warning", this.options.file ?? "system", line.line, `id ${line.id} was answered on line ${first}; this line is ignored (the first line for an id wins)`),
        "later lines for an id already answered",
      );
      return null;
    }
    this.answeredAt.set(line.id, line.line);
    if (line.guesses.length === 0) return null;
    const mode = this.key.modes.get(line.id) ?? null;
    let answer = line.guesses[0];
    if (mode !== null && answer !== mode && line.alternatives?.[0] != null) answer = line.alternatives[0];
    const item: MwItem = {
      id: line.id,
      systemLexelt: line.lexelt,
      line: line.line,
      answer: line.answer,
      mode,
      genuine: mode !== null,
      matched: mode !== null && answer === mode,
    };
    this.stats.systemFound++;
    if (item.genuine) this.stats.genuine++;
    if (item.matched) this.stats.matched++;
    this.options.onItem?.(item);
    return item;
  }

  finish(): MwResult {
    return { type: "mw", stats: this.stats, scores: mwScores(this.stats), ignored: { repeats: this.repeats }, diagnostics: this.log.finish() };
  }
}

/** Score parsed mw lines against an mw key. */
export function scoreMw(key: MwKey, lines: Iterable<SystemLine>, options: MwScorerOptions = {}): MwResult {
  const s = new MwScorer(key, options);
  for (const l of lines) s.add(l);
  return s.finish();
}
