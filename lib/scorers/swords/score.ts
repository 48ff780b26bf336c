/**
 * SWORDS measures as swords/eval.py's `evaluate` computes them (read for its
 * definitions; none of its code is used).
 *
 * Preprocessing (both sides, unless `skipPreprocessing`): every substitute is
 * lemmatised with NLTK 3.5's WordNetLemmatizer over WordNet 3.0 for the
 * target's PoS (`nltkLemmatize`: shortest lemma, boss → bos — for SWORDS parity
 * only), then `.lower().strip()` (Python's); one equal to the target's lemma is
 * dropped. Gold: substitutes meeting on one lemma pool their labels; UNSURE
 * labels are dropped, and a substitute left without labels is dropped; targets
 * left without substitutes are not scored. System: listed by score (descending,
 * ties in the order given); a lemma met again keeps its first (highest-scored)
 * place. A run target the dataset lacks stops eval.py (ValueError): an error,
 * no figures.
 * `skipPreprocessing` (eval.py --skip_preprocessing): both sides as given —
 * labels kept whole (UNSURE too), case kept, the target's own word kept, and a
 * candidate listed twice counted at each place; run targets the dataset lacks
 * are ignored there (eval.py never looks them up). eval.py's GAP refuses
 * unpreprocessed lists, so `gap`/`gap_rat` are not given in that mode.
 *
 * Per target: a substitute's score = #(TRUE, TRUE_IMPLICIT) ÷ #labels;
 * acceptable: score ≥ 0.5 + 1e-4, conceivable: score ≥ 0.1. strict ranks the
 * whole system list; lenient only the candidates the gold judged (any score).
 * Pooled over targets, for k = 10 in the four settings and k = 1 (strict_c):
 *   P@k = Σ|R[:k] ∩ G| ÷ Σ|R[:k]|, R@k = Σ|R[:k] ∩ G| ÷ Σ min(|G|, k),
 *   F@k = 2PR/(P+R), Rs@k = Σ|R[:k] ∩ G| ÷ Σ|G|, Fs@k = 2·P·Rs/(P+Rs)
 * (|R[:k] ∩ G| counts each place of R in G). A target the system has no list
 * for ranks nothing. A zero denominator in any of them (k = 1 too, where
 * only P is printed) stops eval.py (ZeroDivisionError): an error, no figures.
 * GAP: Melamud's, gold weight = #(TRUE, TRUE_IMPLICIT) (gap) or that ÷ #labels
 * (gap_rat), over every scored target; a target with no positive gold enters
 * the mean as −1, as eval.py takes it. A `gap` outside [0, 1] stops eval.py
 * (its first assertion is not caught): an error; a `gap_rat` outside it is
 * printed `e` (caught). Figures ×100, as eval.py reports them.
 *
 * `repaired`: a zero denominator gives 0, GAP leaves out targets with no
 * positive gold, and run targets the dataset lacks are left out with a warning.
 */
import { type Diagnostic, diag } from "../../lexsub/diagnostics";
import { type Sha1Hex, swordsContextId, swordsSubstituteId, swordsTargetId } from "../../lexsub/formats/swords-ids";
import type { WordNetData } from "../../lexsub/morphy";
import { gapItem, type GapItem } from "../gap/score";
import type { RankedRun, SwordsGold, SwordsLabel } from "../ranked";
import { py3Strip } from "../shared/pyfloat";
import { nltkLemmatize, nltkPos } from "./nltk";

export interface SwordsOptions {
  /** Use the lists as given (eval.py --skip_preprocessing). */
  skipPreprocessing?: boolean;
  repaired?: boolean;
}

export interface SwordsPrepared {
  /** Per scored target: substitute (lemma) → labels. */
  gold: Map<string, Map<string, SwordsLabel[]>>;
  /** Per target in the run: substitutes (lemmas) in rank order (repeats only with skipPreprocessing). */
  system: Map<string, string[]>;
}

const SWORDS_SETTINGS = ["lenient_a", "lenient_c", "strict_a", "strict_c"] as const;
type SwordsSetting = (typeof SWORDS_SETTINGS)[number];

interface PrAtK {
  numerator: number;
  pDenominator: number;
  rDenominator: number;
  /** Σ|G| (eval.py's rs_denominator). */
  rsDenominator: number;
  /** ×100; null where eval.py divides by zero (0 when repaired). */
  p: number | null;
  r: number | null;
  f: number | null;
  rs: number | null;
  fs: number | null;
}

export interface SwordsFigures {
  /** ×100, per setting: P@10, R@10, F@10, Rs@10, Fs@10. */
  settings: Record<SwordsSetting, PrAtK>;
  strictCP1: PrAtK;
  /** null: not computed (skipPreprocessing) or refused. */
  gap: number | null;
  /** null: as gap, or outside [0, 100] (eval.py prints `e`). */
  gapRat: number | null;
}

interface SwordsItem {
  targetId: string;
  system: string[];
  acceptable: string[];
  conceivable: string[];
  gap: GapItem;
  gapRat: GapItem;
}

export interface SwordsResult {
  targets: number;
  /** null when eval.py would stop on the input (the diagnostics say why). */
  figures: SwordsFigures | null;
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
  return py3Strip(s.toLowerCase());
}

export function prepareSwords(gold: SwordsGold, run: RankedRun, wordnet: WordNetData | null, options: SwordsOptions = {}): SwordsPrepared & { diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const skip = !!options.skipPreprocessing;
  const lemma = (s: string, pos: string | null) => (skip ? s : lowerStrip(wordnet ? nltkLemmatize(wordnet, s, nltkPos(pos)) : s));
  const g = new Map<string, Map<string, SwordsLabel[]>>();
  for (const t of gold.targets.values()) {
    const tl = lemma(t.target, t.pos);
    const subs = new Map<string, SwordsLabel[]>();
    for (const s of t.substitutes) {
      const l = lemma(s.substitute, t.pos);
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
  let ignored = 0;
  for (const item of run.items) {
    if (!item.key.startsWith("t:")) {
      if (options.repaired) diagnostics.push(diag("warning", run.file, item.line, `target id ${JSON.stringify(item.key)} does not start with "t:": left out (repaired)`));
      else diagnostics.push(diag("error", run.file, item.line, `target id ${JSON.stringify(item.key)} does not start with "t:" (eval.py stops on it: ValueError 'Invalid target ID'; --repaired leaves it out)`));
      continue;
    }
    const t = gold.targets.get(item.key);
    if (!t) {
      if (skip) ignored++;
      else if (options.repaired) diagnostics.push(diag("warning", run.file, item.line, `target ${item.key} is not in the gold ${gold.file}: left out (repaired)`));
      else diagnostics.push(diag("error", run.file, item.line, `target ${item.key} is not in the gold ${gold.file} (eval.py stops on it: ValueError 'Invalid target ID'; --repaired leaves it out)`));
      continue;
    }
    const tl = lemma(t.target, t.pos);
    const out: string[] = [];
    for (const c of item.candidates) {
      const l = lemma(c.substitute, t.pos);
      if (skip) out.push(l);
      else if (l !== tl && !out.includes(l)) out.push(l);
    }
    system.set(item.key, out);
  }
  if (ignored > 0) diagnostics.push(diag("warning", run.file, 0, `${ignored} target${ignored === 1 ? "" : "s"} not in the gold ${gold.file}: ignored, as eval.py --skip_preprocessing ignores them`));
  return { gold: g, system, diagnostics };
}

/** eval.py's pr_at_k; `stops`: one of its divisions is by zero (ZeroDivisionError). */
function prAtK(refs: readonly Set<string>[], syss: readonly string[][], k: number, repaired: boolean): PrAtK & { stops: boolean } {
  let numerator = 0;
  let pDenominator = 0;
  let rDenominator = 0;
  let rsDenominator = 0;
  refs.forEach((d, i) => {
    const r = syss[i].slice(0, k);
    for (const s of r) if (d.has(s)) numerator++;
    pDenominator += r.length;
    rDenominator += Math.min(d.size, k);
    rsDenominator += d.size;
  });
  let stops = false;
  const div = (n: number, d: number): number | null => {
    if (d !== 0) return n / d;
    stops = true;
    return repaired ? 0 : null;
  };
  const p = div(numerator, pDenominator);
  const r = div(numerator, rDenominator);
  const f = p === null || r === null ? null : div(2 * p * r, p + r);
  const rs = div(numerator, rsDenominator);
  const fs = p === null || rs === null ? null : div(2 * p * rs, p + rs);
  const pct = (x: number | null) => (x === null ? null : x * 100);
  return { numerator, pDenominator, rDenominator, rsDenominator, p: pct(p), r: pct(r), f: pct(f), rs: pct(rs), fs: pct(fs), stops };
}

export function scoreSwords(gold: SwordsGold, run: RankedRun, wordnet: WordNetData | null, options: SwordsOptions = {}): SwordsResult {
  const prep = prepareSwords(gold, run, wordnet, options);
  const diagnostics = [...prep.diagnostics];
  const skip = !!options.skipPreprocessing;
  if (!wordnet && !skip) diagnostics.push(diag("warning", gold.file, 0, "no WordNet data: substitutes compared without lemmatising"));
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
  const computed = {
    lenient_a: prAtK(refA, lenA, 10, repaired),
    lenient_c: prAtK(refC, lenC, 10, repaired),
    strict_a: prAtK(refA, sys, 10, repaired),
    strict_c: prAtK(refC, sys, 10, repaired),
  };
  const p1 = prAtK(refC, sys, 1, repaired);
  let stops = diagnostics.some((d) => d.severity === "error");
  for (const [name, v] of [...Object.entries(computed), ["strict_c@1", p1] as const]) {
    if (!v.stops) continue;
    if (repaired) diagnostics.push(diag("warning", run.file, 0, `${name}: a zero denominator read as 0 (repaired; eval.py stops with ZeroDivisionError)`));
    else {
      diagnostics.push(diag("error", run.file, 0, `${name}: a zero denominator (${v.numerator} right of ${v.pDenominator} given, ${v.rDenominator} to find): eval.py stops with ZeroDivisionError; --repaired reads it as 0`));
      stops = true;
    }
  }
  const strip = ({ stops: _s, ...rest }: PrAtK & { stops: boolean }): PrAtK => rest;
  const settings = {
    lenient_a: strip(computed.lenient_a),
    lenient_c: strip(computed.lenient_c),
    strict_a: strip(computed.strict_a),
    strict_c: strip(computed.strict_c),
  };
  const mean = (xs: GapItem[]) => {
    const used = repaired ? xs.filter((x) => x.gap !== null && x.gap >= 0) : xs;
    if (used.length === 0) return null;
    const m = used.reduce((s, x) => s + (x.gap ?? 0), 0) / used.length;
    return m;
  };
  let gap: number | null = null;
  let gapRat: number | null = null;
  if (!skip) {
    const g = mean(gaps);
    if (g === null || g < 0 || g > 1) {
      if (repaired) diagnostics.push(diag("warning", run.file, 0, "GAP undefined (no target has a positive gold)"));
      else {
        diagnostics.push(diag("error", run.file, 0, `GAP ${g === null ? "undefined" : `${g * 100}`} is outside [0, 100]: eval.py's assertion stops it (--repaired leaves out targets without positive gold)`));
        stops = true;
      }
    } else gap = g * 100;
    const gr = mean(gapRats);
    if (gr === null || gr < 0 || gr > 1) diagnostics.push(diag("warning", run.file, 0, "gap_rat outside [0, 100]: eval.py prints e"));
    else gapRat = gr * 100;
  }
  return {
    targets: items.length,
    figures: stops ? null : { settings, strictCP1: strip(p1), gap, gapRat },
    items,
    diagnostics,
  };
}

/**
 * eval.py reads its JSON files with Python's json.load, which refuses a
 * leading byte-order mark (JSONDecodeError "Unexpected UTF-8 BOM"): an error,
 * unless `repaired` (then read past it, with a warning).
 */
export function swordsBomCheck(text: string, file: string, repaired: boolean): Diagnostic[] {
  if (!text.startsWith("\uFEFF")) return [];
  if (repaired) return [diag("warning", file, 1, "a byte-order mark at the start: read past it (repaired; eval.py's json.load refuses it)")];
  return [diag("error", file, 1, "a byte-order mark at the start: eval.py's json.load refuses it (JSONDecodeError); --repaired reads past it")];
}

/**
 * What eval.py's LexSubResult.from_dict needs of a results file beyond the
 * lists: an object with `substitutes_lemmatized` and `substitutes` (a bare
 * map of target ids, which lexgold also reads, stops it with KeyError). An
 * error unless `repaired`. Text that is not JSON is left to the reader's error.
 */
export function swordsResultShapeCheck(text: string, file: string, repaired: boolean): Diagnostic[] {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return [];
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isObject(value)) return [];
  const missing = ["substitutes_lemmatized", "substitutes"].filter((k) => !(k in value));
  if (missing.length === 0) return [];
  const what = `no ${missing.map((k) => `"${k}"`).join(" or ")} key: eval.py stops on it (KeyError)`;
  if (repaired) return [diag("warning", file, 0, `${what}; read as a map of target ids (repaired)`)];
  return [diag("error", file, 0, `${what}; --repaired reads a bare map of target ids`)];
}

// The id recipe (swords' _dict_checksum) is the SWORDS format's: lib/lexsub/formats/swords-ids.ts, which the export uses too.
export type { Sha1Hex };

/**
 * What eval.py's loader (LexSubDataset.from_dict) asserts of a dataset beyond
 * its shape: every id is swords' own recipe (`c:` + checksum of the context;
 * `t:` + of the context id, lower-cased target, offset and PoS name; `s:` + of
 * the target id and lower-cased substitute), and each target sits at its
 * offset in its context. eval.py stops on the first that fails; here it is one
 * warning with the count and the first few (the figures are eval.py's for a
 * dataset with its ids rewritten), since datasets written by other tools,
 * lexgold's export with `ids: "as-imported"` of such a file among them, use other ids.
 */
export function swordsLoaderCheck(text: string, file: string, sha1: Sha1Hex): Diagnostic[] {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    return [];
  }
  const rec = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const d = rec(value);
  const contexts = rec(d.contexts);
  const bad: string[] = [];
  for (const [cid, c] of Object.entries(contexts)) {
    const ctx = rec(c).context;
    if (typeof ctx === "string" && cid !== swordsContextId(sha1, ctx)) bad.push(`contexts["${cid}"]: not swords' id`);
  }
  for (const [tid, t] of Object.entries(rec(d.targets))) {
    const { context_id: cid, target, offset, pos } = rec(t);
    if (typeof cid !== "string" || typeof target !== "string" || typeof offset !== "number") continue;
    const id = swordsTargetId(sha1, { contextId: cid, offset, pos: typeof pos === "string" ? pos : null, target });
    if (tid !== id) bad.push(`targets["${tid}"]: not swords' id`);
    const ctx = rec(contexts[cid]).context;
    const at = typeof ctx === "string" ? [...ctx].slice(offset, offset + [...target].length).join("") : null;
    if (at !== null && at.toLowerCase() !== target.toLowerCase()) bad.push(`targets["${tid}"]: "${target}" is not at offset ${offset} of its context`);
  }
  for (const [sid, sub] of Object.entries(rec(d.substitutes))) {
    const { target_id: tid, substitute } = rec(sub);
    if (typeof tid === "string" && typeof substitute === "string" && sid !== swordsSubstituteId(sha1, { targetId: tid, substitute })) bad.push(`substitutes["${sid}"]: not swords' id`);
  }
  if (bad.length === 0) return [];
  const first = bad.slice(0, 3).join("; ");
  return [diag("warning", file, 0, `eval.py's loader would stop on this dataset (AssertionError/ValueError): ${bad.length} entr${bad.length === 1 ? "y" : "ies"} fail its checks, e.g. ${first}; scored as eval.py scores the same dataset with its own ids`)];
}

/** eval.py's metric names, in its order (no GAP with skipPreprocessing: eval.py's GAP refuses unpreprocessed lists). */
export function swordsMetricNames(options: { skipPreprocessing?: boolean } = {}): string[] {
  const out: string[] = [];
  for (const s of SWORDS_SETTINGS) out.push(`${s}_f@10`, `${s}_fs@10`, `${s}_p@10`, `${s}_r@10`, `${s}_rs@10`);
  out.push("strict_c_p@1");
  if (!options.skipPreprocessing) out.push("gap", "gap_rat");
  return out;
}

/** eval.py's metric names and values (×100), in its order; null where it prints `e`. GAP absent with skipPreprocessing. */
export function swordsMetrics(f: SwordsFigures, options: { skipPreprocessing?: boolean } = {}): { name: string; value: number | null }[] {
  const out: { name: string; value: number | null }[] = [];
  for (const s of SWORDS_SETTINGS) {
    const v = f.settings[s];
    out.push({ name: `${s}_f@10`, value: v.f }, { name: `${s}_fs@10`, value: v.fs }, { name: `${s}_p@10`, value: v.p }, { name: `${s}_r@10`, value: v.r }, { name: `${s}_rs@10`, value: v.rs });
  }
  out.push({ name: "strict_c_p@1", value: f.strictCP1.p });
  if (!options.skipPreprocessing) out.push({ name: "gap", value: f.gap }, { name: "gap_rat", value: f.gapRat });
  return out;
}
