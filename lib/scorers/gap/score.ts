/**
 * GAP (generalised average precision, Thater et al. 2010) and the lexsub
 * literature's P@1, P@3, R@10 — per item and overall, from shared per-item
 * statistics.
 *
 *   GAP_i = Σ_k 1[x_k > 0] · (1/k) Σ_{m≤k} x_m  ÷  Σ_j 1[y_j > 0] · (1/j) Σ_{m≤j} y_m
 *
 * x_k: the gold weight of the system's k-th candidate (0 when not in the gold);
 * y: the gold weights. The reference implementations differ; each is a named
 * variant (`GAP_VARIANTS`):
 * - `melamud` (orenmel/lexsub lst_gap.py + generalized_average_precision.py):
 *   y sorted descending; j counts positive weights only; an item whose gold has
 *   no positive weight scores −1 and is left out of the mean ("Ignored").
 *   Its no-mwe filter drops gold and system candidates holding a space or a hyphen.
 * - `lexsubgen` (Samsung/LexSubGen gap_score): y in the gold's own order (a
 *   dict: a repeated entry at its first place with its last weight); j counts
 *   every gold entry; the denominator summed as numpy sums (pairwise); an empty
 *   gold gives None (left out); a candidate repeated in the ranking counts at
 *   each place (its docstring says once; the code counts each); a weight counts
 *   when it is not 0 (NaN counts). Its no-mwe filter keeps only `^[A-Za-z]+$` words.
 * - `swords` (swords/eval.py, Melamud's calc): as `melamud`, but an item with no
 *   positive gold enters the mean as −1.
 * The system's candidates come ranked (see input.ts: by score when the format
 * has scores, ties in the order given).
 */
import { type Diagnostic, diag } from "../../lexsub/diagnostics";
import type { RankedCandidate, RankedItem, RankedRun } from "../ranking/input";
import { py2Str, pyRepr, pyRound } from "../shared/pyfloat";
import { pySorted } from "../shared/pysort";
import { type GapGold, idOfKey } from "./gold";

export type GapVariant = "melamud" | "lexsubgen" | "swords";
export const GAP_VARIANTS: readonly GapVariant[] = ["melamud", "lexsubgen", "swords"];

export interface GapOptions {
  variant?: GapVariant;
  /** The variant's no-mwe filter (melamud: no space or hyphen; lexsubgen: letters only). */
  noMwe?: boolean;
}

export interface WeightedSubstitute {
  substitute: string;
  weight: number;
}

/** One item's GAP statistics: the two sums, and the value (null: left out of the mean). */
export interface GapItem {
  numerator: number;
  denominator: number;
  /** −1 for melamud/swords items without positive gold; null for lexsubgen's empty gold. */
  gap: number | null;
}

/** Whether the variant's no-mwe filter keeps a candidate. */
export function keptByNoMwe(variant: GapVariant, s: string): boolean {
  // Python's re.match with `$` also matches before a final newline.
  if (variant === "lexsubgen") return /^[A-Za-z]+\n?$/.test(s);
  return !s.includes(" ") && !s.includes("-");
}

/** GAP of one item: gold weights and the system's ranked candidates. */
export function gapItem(gold: readonly WeightedSubstitute[], ranked: readonly string[], options: GapOptions = {}): GapItem {
  const variant = options.variant ?? "melamud";
  let g = gold;
  let r = ranked;
  if (options.noMwe) {
    g = g.filter((x) => keptByNoMwe(variant, x.substitute));
    r = r.filter((x) => keptByNoMwe(variant, x));
  }
  // A Python dict from the gold list: a repeated substitute keeps its last weight.
  const weight = new Map<string, number>();
  for (const x of g) weight.set(x.substitute, x.weight);

  if (variant === "lexsubgen") {
    if (weight.size === 0) return { numerator: 0, denominator: 0, gap: null };
    // (np.cumsum(weights) / np.arange(1, n + 1)).sum()
    let cum = 0;
    const terms = [...weight.values()].map((w, j) => {
      cum += w;
      return cum / (j + 1);
    });
    const denominator = numpySum(terms);
    let acc = 0;
    let numerator = 0;
    r.forEach((s, rank) => {
      const w = weight.get(s) ?? 0;
      // Python's `if weight:` — NaN is true.
      if (w !== 0) {
        acc += w;
        numerator += acc / (rank + 1);
      }
    });
    // A numpy float64 division: 0/0 is nan and x/0 ±inf, no exception.
    return { numerator, denominator, gap: numerator / denominator };
  }

  // melamud / swords: the denominator over the gold sorted by weight, descending (stable).
  const sorted = g.map((x, i) => ({ x, i })).sort((a, b) => b.x.weight - a.x.weight || a.i - b.i);
  let cum = 0;
  let j = 0;
  let denominator = 0;
  for (const { x } of sorted) {
    cum += x.weight;
    if ((weight.get(x.substitute) ?? 0) > 0) {
      j++;
      denominator += cum / j;
    }
  }
  let acc = 0;
  let numerator = 0;
  r.forEach((s, k) => {
    const w = weight.get(s) ?? 0;
    acc += w;
    if (w > 0) numerator += acc / (k + 1);
  });
  return { numerator, denominator, gap: denominator === 0 ? -1 : numerator / denominator };
}

/**
 * numpy's float64 sum (pairwise: under 8 terms in order; up to 128, eight
 * running sums joined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the rest;
 * beyond, halves cut at a multiple of 8).
 */
export function numpySum(a: readonly number[], from = 0, n = a.length): number {
  if (n < 8) {
    let res = 0;
    for (let i = 0; i < n; i++) res += a[from + i];
    return n === 0 ? 0 : res;
  }
  if (n <= 128) {
    const r = a.slice(from, from + 8);
    let i = 8;
    for (; i < n - (n % 8); i += 8) for (let j = 0; j < 8; j++) r[j] += a[from + i + j];
    let res = r[0] + r[1] + (r[2] + r[3]) + (r[4] + r[5] + (r[6] + r[7]));
    for (; i < n; i++) res += a[from + i];
    return res;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return numpySum(a, from, n2) + numpySum(a, from + n2, n - n2);
}

/**
 * The mean over items as the variant takes it: melamud skips gaps below 0
 * (lst_gap.py's `if gap < 0`; a NaN enters), lexsubgen skips null and NaN
 * (pandas' mean(skipna=True): the NaN as 0 in a numpy sum, ÷ the count),
 * swords averages −1 in.
 */
export function gapMean(items: readonly GapItem[], variant: GapVariant = "melamud"): { gap: number | null; used: number; ignored: number } {
  let sum = 0;
  let used = 0;
  let ignored = 0;
  const values: number[] = [];
  for (const it of items) {
    const skip = it.gap === null || (variant === "melamud" && it.gap < 0) || (variant === "lexsubgen" && Number.isNaN(it.gap));
    values.push(skip || it.gap === null ? 0 : it.gap);
    if (skip) {
      ignored++;
      continue;
    }
    sum += it.gap!;
    used++;
  }
  if (variant === "lexsubgen") return { gap: used === 0 ? NaN : numpySum(values) / used, used, ignored };
  return { gap: used === 0 ? null : sum / used, used, ignored };
}

/** Per-item statistics for P@k and R@k: matches in the top k, and the gold size (positive weights). */
export interface TopKItem {
  /** |top_k ∩ G| for each k asked. */
  hits: Record<number, number>;
  gold: number;
}

/** Matches in the system's top k (repeats counted once) against the gold's positive substitutes. */
export function topKItem(gold: readonly WeightedSubstitute[], ranked: readonly string[], ks: readonly number[]): TopKItem {
  const g = new Set(gold.filter((x) => x.weight > 0).map((x) => x.substitute));
  const seen = new Set<string>();
  const dedup = ranked.filter((s) => (seen.has(s) ? false : (seen.add(s), true)));
  const hits: Record<number, number> = {};
  for (const k of ks) hits[k] = dedup.slice(0, k).filter((s) => g.has(s)).length;
  return { hits, gold: g.size };
}

/** P@k = mean |top_k ∩ G| / k; R@k = mean |top_k ∩ G| / |G|, over items with a non-empty gold. */
export function topKMeans(items: readonly TopKItem[], k: number): { precision: number | null; recall: number | null; items: number } {
  const used = items.filter((i) => i.gold > 0);
  if (used.length === 0) return { precision: null, recall: null, items: 0 };
  let p = 0;
  let r = 0;
  for (const i of used) {
    p += (i.hits[k] ?? 0) / k;
    r += (i.hits[k] ?? 0) / i.gold;
  }
  return { precision: p / used.length, recall: r / used.length, items: used.length };
}

// ---------------------------------------------------------------------------
// The GAP benchmark: a weighted gold against one ranked run.

export interface GapBenchmarkOptions extends GapOptions {
  /** Match a gold item the run gives under another lexelt by its id (lst_gap.py stops: KeyError). */
  repaired?: boolean;
}

export interface GapBenchmarkItem {
  key: string;
  gap: number | null;
  /** |top_k ∩ G| for k = 1, 3, 10, and |G|. */
  hits1: number;
  hits3: number;
  hits10: number;
  gold: number;
  /** The system gave no list for this gold item. */
  missing: boolean;
}

export interface GapBenchmarkResult {
  variant: GapVariant;
  noMwe: boolean;
  /** The mean as the variant takes it; null where it has none (lst_gap.py stops). */
  gap: number | null;
  /** Items in the GAP mean, and those left out (no positive gold / empty gold). */
  used: number;
  ignored: number;
  p1: number | null;
  p3: number | null;
  r10: number | null;
  /** Distinct keys of the gold and of the run (lst_gap.py's gold_data, eval_data). */
  goldKeys: number;
  runKeys: number;
  items: GapBenchmarkItem[];
  diagnostics: Diagnostic[];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The run's candidates for one item, in rank order, after the variant's no-mwe filter. */
function rankedFor(item: RankedItem, variant: GapVariant, noMwe: boolean): string[] {
  if (!noMwe) return item.candidates.map((c) => c.substitute);
  const keep = (c: RankedCandidate) => keptByNoMwe(variant, c.substitute);
  if (item.asGiven && variant !== "lexsubgen") {
    // lst_gap.py filters while reading, then sorts: with a NaN score the order depends on what is left.
    return pySorted(item.asGiven.filter(keep), (c) => c.score ?? 0, true).map((c) => c.substitute);
  }
  return item.candidates.filter(keep).map((c) => c.substitute);
}

/** A run item's instance id where its key is `lexelt id` (oot, lst, germeval), else null. */
function runItemId(run: RankedRun, item: RankedItem): string | null {
  return run.format === "oot" || run.format === "lst" || run.format === "germeval" ? idOfKey(item.key) : null;
}

/**
 * GAP (the variant asked) with P@1, P@3 and R@10 over every gold item.
 * melamud/swords match on the key as lst_gap.py does (`lexelt id`); a gold item
 * the run gives only under another lexelt stops the script (KeyError): an error
 * naming both lines, or with `repaired` matched by id (a warning). lexsubgen
 * matches by id (its gold is keyed by id). A gold item the run has no list for
 * ranks nothing (lst_gap.py stops on it too; a warning says how many); run
 * items outside the gold are ignored, as there.
 */
export function scoreGapBenchmark(gold: GapGold, run: RankedRun, options: GapBenchmarkOptions = {}): GapBenchmarkResult {
  const variant = options.variant ?? "melamud";
  const noMwe = !!options.noMwe;
  const diagnostics: Diagnostic[] = [];
  const byKey = new Map(run.items.map((i) => [i.key, i]));
  const byId = new Map<string, RankedItem>();
  for (const i of run.items) {
    const id = runItemId(run, i);
    if (id !== null) byId.set(id, i);
  }
  const items: GapBenchmarkItem[] = [];
  const gapItems: GapItem[] = [];
  const top: TopKItem[] = [];
  const used = new Set<RankedItem>();
  let missing = 0;
  let repairedById = 0;
  for (const g of gold.items) {
    let sys = variant === "lexsubgen" && gold.reader !== "tsv" ? (byId.get(g.key) ?? byKey.get(g.key)) : byKey.get(g.key);
    if (!sys && g.id !== null && byId.has(g.id)) {
      const other = byId.get(g.id)!;
      if (options.repaired) {
        sys = other;
        repairedById++;
      } else {
        diagnostics.push(diag("error", gold.file, g.line, `item ${JSON.stringify(g.key)} is not in ${run.file}, which gives id ${g.id} as ${JSON.stringify(other.key)} (line ${other.line}): lst_gap.py stops here (KeyError); --repaired matches it by id`));
        continue;
      }
    }
    if (!sys) missing++;
    else used.add(sys);
    const ranked = sys ? rankedFor(sys, variant, noMwe) : [];
    const weights = noMwe ? g.weights.filter((x) => keptByNoMwe(variant, x.substitute)) : g.weights;
    const gi = gapItem(weights, ranked, { variant });
    const t = topKItem(weights, ranked, [1, 3, 10]);
    gapItems.push(gi);
    top.push(t);
    items.push({ key: g.key, gap: gi.gap, hits1: t.hits[1], hits3: t.hits[3], hits10: t.hits[10], gold: t.gold, missing: !sys });
  }
  if (repairedById > 0) diagnostics.push(diag("warning", run.file, 0, `${plural(repairedById, "gold item")} matched by id under another lexelt (repaired; lst_gap.py stops: KeyError)`));
  if (missing > 0) diagnostics.push(diag("warning", run.file, 0, `${plural(missing, "gold item")} without a ranking in the run: scored as ranking nothing (lst_gap.py stops on the first)`));
  const extra = run.items.filter((i) => !used.has(i)).length;
  if (extra > 0) diagnostics.push(diag("warning", run.file, 0, `${plural(extra, "item")} not in the gold ${gold.file}: ignored`));
  const mean = gapMean(gapItems, variant);
  if (variant === "melamud" && mean.gap === null && gapItems.length > 0) {
    const msg = "no item has a GAP (every gold is without a positive weight): lst_gap.py stops (ZeroDivisionError)";
    diagnostics.push(diag(options.repaired ? "warning" : "error", gold.file, 0, options.repaired ? `${msg}; no mean (repaired)` : msg));
  }
  const p1 = topKMeans(top, 1);
  const p3 = topKMeans(top, 3);
  const r10 = topKMeans(top, 10);
  return {
    variant,
    noMwe,
    gap: mean.gap,
    used: mean.used,
    ignored: mean.ignored,
    p1: p1.precision,
    p3: p3.precision,
    r10: r10.recall,
    goldKeys: gold.items.length,
    runKeys: run.items.length,
    items,
    diagnostics,
  };
}

/**
 * The reference script's own printout of the mean:
 * - melamud: the summary lst_gap.py writes after its per-item lines, the mean
 *   as Python 2's str() prints it (12 significant digits, `1.0`);
 * - lexsubgen: LexSubGen's metrics.json entry, round(mean × 100, 2) as
 *   json.dump writes a float (repr; `NaN`, `Infinity`);
 * - swords: the same summary as melamud, the mean as repr.
 */
export function gapReport(res: GapBenchmarkResult): string {
  if (res.variant === "lexsubgen") {
    const v = res.gap === null ? NaN : pyRound(res.gap * 100, 2);
    const text = Number.isNaN(v) ? "NaN" : v === Infinity ? "Infinity" : v === -Infinity ? "-Infinity" : pyRepr(v);
    return `{\n    "${res.noMwe ? "gap_normalized" : "gap"}": ${text}\n}\n`;
  }
  const mean = res.gap === null ? "n/a" : res.variant === "melamud" ? py2Str(res.gap) : pyRepr(res.gap);
  return [`gold_data ${res.goldKeys} eval_data ${res.runKeys}`, "", `Read ${res.used} test instances`, "", `Ignored ${res.ignored} test instances (couldn't compute gap)`, "", `MEAN_GAP\t${mean}`, ""].join("\n");
}
