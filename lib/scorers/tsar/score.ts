/**
 * TSAR-2022 / MLSP 2024 lexical simplification measures, as tsar_eval.py
 * computes them (read for its definitions; none of its code is used).
 *
 * Per instance i of the predictions file, with P_i its ranked list (each
 * substitute stripped; the complex word and repeats removed, first place kept;
 * matching exact and case-sensitive) and G_i the gold's substitute types
 * (annotations stripped; the complex word left out unless `keepComplexWord`,
 * the flag MLSP's results set):
 *   Potential@K        = 1[∃ j ≤ K: p_ij ∈ G_i]
 *   MAP@K              = (1/K) Σ_{j≤K} r_ij · (Σ_{m≤j} r_im) / j
 *   Accuracy@K@top1    = 1[P_i[:K] ∩ T_i ≠ ∅], T_i the substitutes tied for the highest count
 *   ACC@1              = MAP@1 = Potential@1
 * each averaged over the distinct instances of the predictions file (an
 * instance with an empty list counts, as a miss); gold instances the file
 * lacks are ignored; every figure is truncated (floored) to 4 decimals, as the
 * script prints them. A predictions line given twice: the last list, counted once.
 *
 * Where the script stops (a predicted instance not in the gold: KeyError; a
 * gold with no substitute left: IndexError / ZeroDivisionError) the default
 * reports an error naming file and line and gives no figures; `repaired`
 * leaves the unknown instance out and counts an empty gold as a miss, each with
 * a warning.
 */
import { type Diagnostic, diag } from "../../lexsub/diagnostics";
import { type RankedRun, type TsarGold, tsarGoldCounts } from "../ranked";

export interface TsarOptions {
  /** MLSP's flag: keep the complex word among the gold substitutes. */
  keepComplexWord?: boolean;
  /** Floor every figure to 4 decimals, as the script prints (default true). */
  truncate?: boolean;
  /** Leave out instances the gold lacks and count an empty gold as a miss, instead of refusing. */
  repaired?: boolean;
  potentialK?: readonly number[];
  mapK?: readonly number[];
  accuracyK?: readonly number[];
}

const TSAR_POTENTIAL_K = [1, 3, 5, 10] as const;
const TSAR_MAP_K = [3, 5, 10] as const;
const TSAR_ACCURACY_K = [1, 2, 3] as const;

interface TsarItem {
  key: string;
  line: number;
  /** The list after the filter (complex word and repeats removed). */
  labels: string[];
  /** Per label: in the gold. */
  relevant: boolean[];
  /** Gold substitutes with counts (after the complex-word rule). */
  gold: { substitute: string; count: number }[];
  /** The substitutes tied for the highest count. */
  top: string[];
  potential: Record<number, 0 | 1>;
  map: Record<number, number>;
  accuracyTop1: Record<number, 0 | 1>;
}

export interface TsarFigures {
  /** ACC@1 = MAP@1 = Potential@1. */
  acc1: number;
  potential: Record<number, number>;
  map: Record<number, number>;
  accuracyTop1: Record<number, number>;
}

export interface TsarResult {
  /** Instances averaged over. */
  instances: number;
  /** null when the default (script) reading refused the input. */
  figures: TsarFigures | null;
  /** Unrounded figures (null as above). */
  exact: TsarFigures | null;
  items: TsarItem[];
  keepComplexWord: boolean;
  diagnostics: Diagnostic[];
}

/** math.floor(x * 10000) / 10000, as the script truncates. */
export function floor4(x: number): number {
  return Math.floor(x * 10000) / 10000;
}

/** The script's MAP@K for one list of relevance judgements. */
function mapAtK(relevant: readonly boolean[], k: number): number {
  let seen = 0;
  let ap = 0;
  for (let j = 0; j < relevant.length && j < k; j++) {
    if (relevant[j]) {
      seen++;
      ap += seen / (j + 1);
    }
  }
  return ap / k;
}

/** The complex word and repeats removed from a list, first places kept (the script's filter). */
function tsarFilter(list: readonly string[], complexWord: string): string[] {
  const out: string[] = [];
  for (const s of list) if (s !== complexWord && !out.includes(s)) out.push(s);
  return out;
}

export function scoreTsar(gold: TsarGold, run: RankedRun, options: TsarOptions = {}): TsarResult {
  const keep = !!options.keepComplexWord;
  const truncate = options.truncate ?? true;
  const pks = options.potentialK ?? TSAR_POTENTIAL_K;
  const mks = options.mapK ?? TSAR_MAP_K;
  const aks = options.accuracyK ?? TSAR_ACCURACY_K;
  const diagnostics: Diagnostic[] = [];
  const items: TsarItem[] = [];
  let refused = false;
  for (const p of run.items) {
    const g = gold.items.get(p.key);
    if (!g) {
      if (options.repaired) {
        diagnostics.push(diag("warning", run.file, p.line, `instance not in the gold ${gold.file}: left out (repaired)`));
        continue;
      }
      diagnostics.push(diag("error", run.file, p.line, `instance not in the gold ${gold.file} (sentence and complex word must match a gold line exactly; tsar_eval.py stops here; --repaired leaves it out)`));
      refused = true;
      continue;
    }
    const labels = tsarFilter(
      p.candidates.map((c) => c.substitute),
      p.target ?? g.word,
    );
    const counts = tsarGoldCounts(g, keep);
    const goldSet = new Set(counts.map((c) => c.substitute));
    const max = counts.reduce((m, c) => Math.max(m, c.count), 0);
    const top = counts.filter((c) => c.count === max).map((c) => c.substitute);
    if (counts.length === 0 && labels.length > 0) {
      if (options.repaired) diagnostics.push(diag("warning", gold.file, g.line, "no gold substitute left after removing the complex word: counted as a miss (repaired)"));
      else {
        diagnostics.push(diag("error", gold.file, g.line, "no gold substitute left after removing the complex word (tsar_eval.py stops on it; --repaired counts it as a miss)"));
        refused = true;
      }
    }
    const relevant = labels.map((l) => goldSet.has(l));
    const potential: Record<number, 0 | 1> = {};
    for (const k of new Set([1, ...pks])) potential[k] = relevant.slice(0, k).some(Boolean) ? 1 : 0;
    const map: Record<number, number> = {};
    for (const k of mks) map[k] = mapAtK(relevant, k);
    const topSet = new Set(top);
    const accuracyTop1: Record<number, 0 | 1> = {};
    for (const k of aks) accuracyTop1[k] = labels.slice(0, k).some((l) => topSet.has(l)) ? 1 : 0;
    items.push({ key: p.key, line: p.line, labels, relevant, gold: counts, top, potential, map, accuracyTop1 });
  }
  const n = items.length;
  if (n === 0 && !refused) diagnostics.push(diag("error", run.file, 0, "no instance to score (tsar_eval.py divides by zero)"));
  if (refused || n === 0) return { instances: n, figures: null, exact: null, items, keepComplexWord: keep, diagnostics };
  const mean = (f: (i: TsarItem) => number) => items.reduce((s, i) => s + f(i), 0) / n;
  const exact: TsarFigures = { acc1: mean((i) => i.potential[1]), potential: {}, map: {}, accuracyTop1: {} };
  for (const k of pks) exact.potential[k] = mean((i) => i.potential[k]);
  for (const k of mks) exact.map[k] = mean((i) => i.map[k]);
  for (const k of aks) exact.accuracyTop1[k] = mean((i) => i.accuracyTop1[k]);
  const t = (x: number) => (truncate ? floor4(x) : x);
  const figures: TsarFigures = {
    acc1: t(exact.acc1),
    potential: Object.fromEntries(Object.entries(exact.potential).map(([k, v]) => [k, t(v)])),
    map: Object.fromEntries(Object.entries(exact.map).map(([k, v]) => [k, t(v)])),
    accuracyTop1: Object.fromEntries(Object.entries(exact.accuracyTop1).map(([k, v]) => [k, t(v)])),
  };
  return { instances: n, figures, exact, items, keepComplexWord: keep, diagnostics };
}

/** The column heads of the official results CSV (results/official/TSAR2022_test_results_*.csv), for the default K. */
export function tsarColumns(f: TsarFigures): { head: string; value: number }[] {
  const cols: { head: string; value: number }[] = [{ head: "ACC@1", value: f.acc1 }];
  for (const [k, v] of Object.entries(f.accuracyTop1)) cols.push({ head: `ACC@${k}@Top1`, value: v });
  for (const [k, v] of Object.entries(f.map)) cols.push({ head: `MAP@${k}`, value: v });
  for (const [k, v] of Object.entries(f.potential)) if (k !== "1") cols.push({ head: `Potential@${k}`, value: v });
  return cols;
}
