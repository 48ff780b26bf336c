/**
 * SWORDS measures as swords/eval.py's `evaluate` computes them (read for its
 * definitions; none of its code is used).
 *
 * Preprocessing (both sides): every substitute is lemmatised with NLTK's
 * WordNetLemmatizer for the target's PoS (`nltkLemmatize`: shortest lemma,
 * boss → bos — for SWORDS parity only), lower-cased and stripped; one equal to
 * the target's lemma is dropped. Gold: substitutes meeting on one lemma pool
 * their labels; UNSURE labels are dropped, and a substitute left without labels
 * is dropped; targets left without substitutes are not scored. System: listed
 * by score (descending, ties in the order given); a lemma met again keeps its
 * first (highest-scored) place.
 *
 * Per target: a substitute's score = #(TRUE, TRUE_IMPLICIT) ÷ #labels;
 * acceptable: score ≥ 0.5 + 1e-4 (i.e. > 0.5), conceivable: score ≥ 0.1.
 * strict ranks the whole system list; lenient only the candidates the gold
 * judged (any score). Pooled over targets:
 *   P@k = Σ|R[:k] ∩ G| ÷ Σ|R[:k]|, R@k = Σ|R[:k] ∩ G| ÷ Σ min(|G|, k), F@k = 2PR/(P+R)
 * for k = 10 in the four settings, and strict-conceivable P@1. A target the
 * system has no list for ranks nothing.
 * GAP: Melamud's, gold weight = #(TRUE, TRUE_IMPLICIT) (gap) or that ÷ #labels
 * (gap_rat), over every scored target; a target with no positive gold enters
 * the mean as −1, as eval.py takes it. Figures ×100, as eval.py reports them.
 *
 * `repaired`: a zero denominator gives 0 (eval.py raises ZeroDivisionError),
 * and GAP leaves out targets with no positive gold instead of averaging −1.
 */
import { type Diagnostic, diag } from "../../lexsub/diagnostics";
import type { WordNetData } from "../../lexsub/morphy";
import { gapItem, type GapItem } from "../gap/score";
import type { RankedRun, SwordsGold, SwordsLabel } from "../ranking/input";
import { nltkLemmatize, nltkPos } from "./nltk";

export interface SwordsOptions {
  /** Use the lists as given (eval.py --skip_preprocessing). */
  skipPreprocessing?: boolean;
  repaired?: boolean;
}

export interface SwordsPrepared {
  /** Per scored target: lemma → labels (UNSURE dropped). */
  gold: Map<string, Map<string, SwordsLabel[]>>;
  /** Per target in the run: lemmas in rank order. */
  system: Map<string, string[]>;
}

export const SWORDS_SETTINGS = ["lenient_a", "lenient_c", "strict_a", "strict_c"] as const;
export type SwordsSetting = (typeof SWORDS_SETTINGS)[number];

export interface PrAtK {
  numerator: number;
  pDenominator: number;
  rDenominator: number;
  p: number | null;
  r: number | null;
  f: number | null;
}

export interface SwordsFigures {
  /** ×100, per setting: P@10, R@10, F@10. */
  settings: Record<SwordsSetting, PrAtK>;
  strictCP1: PrAtK;
  gap: number | null;
  gapRat: number | null;
}

export interface SwordsItem {
  targetId: string;
  system: string[];
  acceptable: string[];
  conceivable: string[];
  gap: GapItem;
  gapRat: GapItem;
}

export interface SwordsResult {
  targets: number;
  figures: SwordsFigures;
  items: SwordsItem[];
  diagnostics: Diagnostic[];
}

const POSITIVE = new Set<SwordsLabel>(["TRUE", "TRUE_IMPLICIT"]);

function positives(labels: readonly SwordsLabel[]): number {
  let n = 0;
  for (const l of labels) if (POSITIVE.has(l)) n++;
  return n;
}

/** Python's `.lower().strip()`. */
function lowerStrip(s: string): string {
  return s.toLowerCase().trim();
}

export function prepareSwords(gold: SwordsGold, run: RankedRun, wordnet: WordNetData | null, options: SwordsOptions = {}): SwordsPrepared & { diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const skip = !!options.skipPreprocessing;
  const lemma = (s: string, pos: string | null) => (skip || !wordnet ? s : lowerStrip(nltkLemmatize(wordnet, s, nltkPos(pos))));
  const g = new Map<string, Map<string, SwordsLabel[]>>();
  for (const t of gold.targets.values()) {
    const tl = lemma(t.target, t.pos);
    const subs = new Map<string, SwordsLabel[]>();
    for (const s of t.substitutes) {
      const l = skip ? s.substitute : lemma(s.substitute, t.pos);
      if (!skip && l === tl) continue;
      // One lemma, one pooled list of labels (eval.py merges them).
      const prev = subs.get(l);
      if (prev) prev.push(...s.labels);
      else subs.set(l, [...s.labels]);
    }
    const kept = new Map<string, SwordsLabel[]>();
    for (const [s, labels] of subs) {
      const ls = skip ? labels : labels.filter((l) => l !== "UNSURE");
      if (ls.length > 0) kept.set(s, ls);
    }
    if (kept.size > 0) g.set(t.id, kept);
  }
  const system = new Map<string, string[]>();
  for (const item of run.items) {
    const t = gold.targets.get(item.key);
    if (!t) {
      diagnostics.push(diag("error", run.file, item.line, `target ${item.key} is not in the gold ${gold.file} (eval.py stops on it)`));
      continue;
    }
    const tl = lemma(t.target, t.pos);
    const out: string[] = [];
    for (const c of item.candidates) {
      const l = lemma(c.substitute, t.pos);
      if (!skip && l === tl) continue;
      if (!out.includes(l)) out.push(l);
    }
    system.set(item.key, out);
  }
  return { gold: g, system, diagnostics };
}

function prAtK(refs: readonly Set<string>[], syss: readonly string[][], k: number, repaired: boolean): PrAtK {
  let numerator = 0;
  let pDenominator = 0;
  let rDenominator = 0;
  refs.forEach((d, i) => {
    const r = syss[i].slice(0, k);
    for (const s of r) if (d.has(s)) numerator++;
    pDenominator += r.length;
    rDenominator += Math.min(d.size, k);
  });
  const div = (n: number, d: number) => (d === 0 ? (repaired ? 0 : null) : n / d);
  const p = div(numerator, pDenominator);
  const r = div(numerator, rDenominator);
  let f: number | null = null;
  if (p !== null && r !== null) f = p + r === 0 ? (repaired ? 0 : null) : (2 * p * r) / (p + r);
  const pct = (x: number | null) => (x === null ? null : x * 100);
  return { numerator, pDenominator, rDenominator, p: pct(p), r: pct(r), f: pct(f) };
}

export function scoreSwords(gold: SwordsGold, run: RankedRun, wordnet: WordNetData | null, options: SwordsOptions = {}): SwordsResult {
  const prep = prepareSwords(gold, run, wordnet, options);
  const diagnostics = [...prep.diagnostics];
  if (!wordnet && !options.skipPreprocessing) diagnostics.push(diag("warning", gold.file, 0, "no WordNet data: substitutes compared without lemmatising"));
  const repaired = !!options.repaired;
  const items: SwordsItem[] = [];
  const refA: Set<string>[] = [];
  const refC: Set<string>[] = [];
  const sys: string[][] = [];
  const lenA: string[][] = [];
  const lenC: string[][] = [];
  const gaps: GapItem[] = [];
  const gapRats: GapItem[] = [];
  let missing = 0;
  for (const [tid, subs] of prep.gold) {
    const r = prep.system.get(tid);
    if (!r) missing++;
    const list = r ?? [];
    const acceptable: string[] = [];
    const conceivable: string[] = [];
    for (const [s, labels] of subs) {
      const rat = positives(labels) / labels.length;
      if (rat >= 0.5 + 1e-4) acceptable.push(s);
      if (rat >= 0.1) conceivable.push(s);
    }
    const judged = new Set(subs.keys());
    refA.push(new Set(acceptable));
    refC.push(new Set(conceivable));
    sys.push(list);
    lenA.push(list.filter((s) => judged.has(s)));
    lenC.push(list.filter((s) => judged.has(s)));
    // GAP over the lower-cased gold, weights #positive (gap) and the ratio (gap_rat).
    const gi = gapItem(
      [...subs].map(([s, labels]) => ({ substitute: s.toLowerCase(), weight: positives(labels) })),
      list,
      { variant: "swords" },
    );
    const gr = gapItem(
      [...subs].map(([s, labels]) => ({ substitute: s.toLowerCase(), weight: positives(labels) / labels.length })),
      list,
      { variant: "swords" },
    );
    gaps.push(gi);
    gapRats.push(gr);
    items.push({ targetId: tid, system: list, acceptable, conceivable, gap: gi, gapRat: gr });
  }
  if (missing > 0) diagnostics.push(diag("warning", run.file, 0, `${missing} scored target${missing === 1 ? "" : "s"} without a list in the run: each ranks nothing`));
  const settings = {
    lenient_a: prAtK(refA, lenA, 10, repaired),
    lenient_c: prAtK(refC, lenC, 10, repaired),
    strict_a: prAtK(refA, sys, 10, repaired),
    strict_c: prAtK(refC, sys, 10, repaired),
  };
  for (const [name, v] of Object.entries(settings)) {
    if (v.p === null || v.r === null || v.f === null) diagnostics.push(diag("warning", run.file, 0, `${name}: a zero denominator (eval.py raises ZeroDivisionError; --repaired reads it as 0)`));
  }
  const mean = (xs: GapItem[]) => {
    const used = repaired ? xs.filter((x) => x.gap !== null && x.gap >= 0) : xs;
    if (used.length === 0) return null;
    const m = used.reduce((s, x) => s + (x.gap ?? 0), 0) / used.length;
    return m * 100;
  };
  const gap = mean(gaps);
  const gapRat = mean(gapRats);
  if (!repaired && gap !== null && gap < 0) diagnostics.push(diag("warning", run.file, 0, "GAP below 0 (eval.py's assertion fails here; --repaired leaves out targets without positive gold)"));
  return {
    targets: items.length,
    figures: { settings, strictCP1: prAtK(refC, sys, 1, repaired), gap, gapRat },
    items,
    diagnostics,
  };
}

/** eval.py's metric names and values (×100), in its order; `e` (null) where undefined. */
export function swordsMetrics(f: SwordsFigures): { name: string; value: number | null }[] {
  const out: { name: string; value: number | null }[] = [];
  for (const s of SWORDS_SETTINGS) {
    const v = f.settings[s];
    out.push({ name: `${s}_f@10`, value: v.f }, { name: `${s}_p@10`, value: v.p }, { name: `${s}_r@10`, value: v.r });
  }
  out.push({ name: "strict_c_p@1", value: f.strictCP1.p }, { name: "gap", value: f.gap }, { name: "gap_rat", value: f.gapRat });
  return out;
}
