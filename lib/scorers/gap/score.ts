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
 * - `lexsubgen` (Samsung/LexSubGen gap_score): y in the gold's own order (it
 *   assumes the gold sorted); j counts every gold entry; an empty gold gives
 *   None (left out); repeated candidates count once, at their first place.
 *   Its no-mwe filter keeps only `^[A-Za-z]+$` words.
 * - `swords` (swords/eval.py, Melamud's calc): as `melamud`, but an item with no
 *   positive gold enters the mean as −1.
 * The system's candidates come ranked (see input.ts: by score when the format
 * has scores, ties in the order given).
 */
import { type Diagnostic, diag } from "../../lexsub/diagnostics";
import type { CountGold, RankedRun } from "../ranking/input";

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
  if (variant === "lexsubgen") return /^[A-Za-z]+$/.test(s);
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
    let cum = 0;
    let denominator = 0;
    [...weight.values()].forEach((w, j) => {
      cum += w;
      denominator += cum / (j + 1);
    });
    const seen = new Set<string>();
    let rank = 0;
    let acc = 0;
    let numerator = 0;
    for (const s of r) {
      if (seen.has(s)) continue;
      seen.add(s);
      rank++;
      const w = weight.get(s) ?? 0;
      if (w) {
        acc += w;
        numerator += acc / rank;
      }
    }
    return { numerator, denominator, gap: denominator === 0 ? null : numerator / denominator };
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

/** The mean over items as the variant takes it: melamud skips −1, lexsubgen skips null, swords averages −1 in. */
export function gapMean(items: readonly GapItem[], variant: GapVariant = "melamud"): { gap: number | null; used: number; ignored: number } {
  let sum = 0;
  let used = 0;
  let ignored = 0;
  for (const it of items) {
    if (it.gap === null || (variant === "melamud" && it.gap < 0)) {
      ignored++;
      continue;
    }
    sum += it.gap;
    used++;
  }
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
// The GAP benchmark: a count gold against one ranked run.


export type GapBenchmarkOptions = GapOptions;

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
  gap: number | null;
  /** Items in the GAP mean, and those left out (no positive gold / empty gold). */
  used: number;
  ignored: number;
  p1: number | null;
  p3: number | null;
  r10: number | null;
  items: GapBenchmarkItem[];
  diagnostics: Diagnostic[];
}

/**
 * GAP (the variant asked) with P@1, P@3 and R@10 over every gold item. A gold
 * item the run has no list for ranks nothing (lst_gap.py stops on it; a
 * warning says how many); run items outside the gold are ignored, as there.
 */
export function scoreGapBenchmark(gold: CountGold, run: RankedRun, options: GapBenchmarkOptions = {}): GapBenchmarkResult {
  const variant = options.variant ?? "melamud";
  const diagnostics: Diagnostic[] = [];
  const byKey = new Map(run.items.map((i) => [i.key, i]));
  const goldKeys = new Set(gold.items.map((i) => i.key));
  const items: GapBenchmarkItem[] = [];
  const gapItems: GapItem[] = [];
  const top: TopKItem[] = [];
  let missing = 0;
  for (const g of gold.items) {
    const sys = byKey.get(g.key);
    if (!sys) missing++;
    const ranked = sys ? sys.candidates.map((c) => c.substitute) : [];
    const weights = g.counts.map((c) => ({ substitute: c.substitute, weight: c.count }));
    const gi = gapItem(weights, ranked, { variant, noMwe: options.noMwe });
    let w = weights;
    let r = ranked;
    if (options.noMwe) {
      w = w.filter((x) => keptByNoMwe(variant, x.substitute));
      r = r.filter((x) => keptByNoMwe(variant, x));
    }
    const t = topKItem(w, r, [1, 3, 10]);
    gapItems.push(gi);
    top.push(t);
    items.push({ key: g.key, gap: gi.gap, hits1: t.hits[1], hits3: t.hits[3], hits10: t.hits[10], gold: t.gold, missing: !sys });
  }
  if (missing > 0) diagnostics.push(diag("warning", run.file, 0, `${missing} gold item${missing === 1 ? "" : "s"} without a ranking in the run: scored as ranking nothing (lst_gap.py stops on the first)`));
  const extra = run.items.filter((i) => !goldKeys.has(i.key)).length;
  if (extra > 0) diagnostics.push(diag("warning", run.file, 0, `${extra} item${extra === 1 ? "" : "s"} not in the gold ${gold.file}: ignored`));
  const mean = gapMean(gapItems, variant);
  const p1 = topKMeans(top, 1);
  const p3 = topKMeans(top, 3);
  const r10 = topKMeans(top, 10);
  return { variant, noMwe: !!options.noMwe, gap: mean.gap, used: mean.used, ignored: mean.ignored, p1: p1.precision, p3: p3.precision, r10: r10.recall, items, diagnostics };
}
