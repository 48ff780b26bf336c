/**
 * The post-hoc judgement round (task paper §5.1, Table 8) with SWORDS-style escalation.
 * Pure: no fs, db or next.
 *
 * Verdict rule (paper §5.1): "We take the majority verdict for each substitute, but if there
 * is one reasonable and one good verdict, then we categorise the substitute as reasonable."
 * Generalised here to any number of judges, labels ordered good > reasonable > bad:
 *   1. a label given by more than half of the (non-abstaining) judges wins;
 *   2. otherwise the lower median of the labels on that order. With three judges this gives
 *      good+reasonable+bad → reasonable (three different labels: "one reasonable and one good"),
 *      good+reasonable → reasonable, good+bad → bad, and g,g,r,r → reasonable.
 * "abstain" (scheme good/bad/abstain) is left out of the count; all abstaining → no verdict.
 */
import { mulberry32 } from "./agreement";
import type { AnswerKind } from "./types";

export type JudgementScheme = "good-reasonable-bad" | "good-bad-abstain";
export type JudgementLabel = "good" | "reasonable" | "bad" | "abstain";

export const SCHEME_LABELS: Record<JudgementScheme, readonly JudgementLabel[]> = {
  "good-reasonable-bad": ["good", "reasonable", "bad"],
  "good-bad-abstain": ["good", "bad", "abstain"],
};

/** Rank on the ordinal scale (higher is better); abstain has none. */
const RANK: Record<Exclude<JudgementLabel, "abstain">, number> = { bad: 0, reasonable: 1, good: 2 };

export function isLabel(scheme: JudgementScheme, label: string): label is JudgementLabel {
  return (SCHEME_LABELS[scheme] as readonly string[]).includes(label);
}

/** What the §5.1 filter looks at for one instance (a GoldItem fits). */
export interface PostHocItem {
  responses: readonly { kind: AnswerKind; substitutes: readonly string[] }[];
  /** The majority multiword (≥ 2 annotators, no tie), null when none. */
  multiword: string | null;
}

/** Distinct single-word substitutes (no space, no hyphenated phrase split), first-seen order. */
export function singleWordSubstitutes(item: PostHocItem): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of item.responses) {
    if (r.kind !== "substitutes") continue;
    for (const s of r.substitutes) {
      const t = s.trim();
      if (!t || /\s/.test(t) || seen.has(t)) continue;
      seen.add(t);
      out.push(t);
    }
  }
  return out;
}

/**
 * §5.1: more than two single-word substitutes, no NAME response, and the target not
 * part of a majority multiword.
 */
export function isPostHocEligible(item: PostHocItem): boolean {
  if (item.responses.some((r) => r.kind === "NAME")) return false;
  if (item.multiword !== null) return false;
  return singleWordSubstitutes(item).length > 2;
}

/** A 32-bit hash of strings (FNV-1a), to derive sub-seeds. */
export function seedOf(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const ch of parts.join("\u0000")) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A seeded shuffle (Fisher–Yates with mulberry32); the input is left alone. */
function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const rand = mulberry32(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** n items drawn without replacement, reproducible from the seed (all when n ≥ length). */
export function sampleItems<T>(items: readonly T[], n: number, seed: number): T[] {
  if (!Number.isInteger(n) || n < 1) throw new Error(`sample size must be a positive integer, got ${n}`);
  return seededShuffle(items, seed).slice(0, n);
}

export const CONTROL_TARGET = "control:target";
export const CONTROL_RANDOM = "control:random";

export interface CandidateSource {
  /** A tag: "annotators", "run:<name>", "wordnet", … */
  source: string;
  candidates: readonly string[];
}

export interface PooledCandidate {
  text: string;
  /** Every source that proposed it, in the order the sources came. */
  sources: string[];
}

/** The key two candidates are the same under: trimmed, inner space collapsed, lower-cased. */
export function candidateKey(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}

/** Pools the candidates of one item; a candidate from two sources keeps both tags. */
export function poolCandidates(sources: readonly CandidateSource[]): PooledCandidate[] {
  const byKey = new Map<string, PooledCandidate>();
  for (const s of sources) {
    for (const c of s.candidates) {
      const key = candidateKey(c);
      if (!key) continue;
      const have = byKey.get(key);
      if (!have) byKey.set(key, { text: c.trim().replace(/\s+/g, " "), sources: [s.source] });
      else if (!have.sources.includes(s.source)) have.sources.push(s.source);
    }
  }
  return [...byKey.values()];
}

/**
 * Control candidates: the target itself (expected good or reasonable) and a random word from
 * another item's pool that is not in this one (expected bad). Returns the pool with them added.
 */
export function addControls(
  pool: readonly PooledCandidate[],
  target: string,
  otherPools: readonly (readonly PooledCandidate[])[],
  seed: number,
): PooledCandidate[] {
  const out = pool.map((c) => ({ text: c.text, sources: [...c.sources] }));
  const keys = new Map(out.map((c) => [candidateKey(c.text), c]));
  const add = (text: string, tag: string) => {
    const have = keys.get(candidateKey(text));
    if (have) {
      if (!have.sources.includes(tag)) have.sources.push(tag);
      return;
    }
    const c = { text, sources: [tag] };
    keys.set(candidateKey(text), c);
    out.push(c);
  };
  add(target, CONTROL_TARGET);
  const foreign = [
    ...new Set(
      otherPools
        .flat()
        .filter((c) => c.sources.some((s) => !s.startsWith("control:")))
        .map((c) => c.text)
        .filter((t) => !keys.has(candidateKey(t))),
    ),
  ].sort();
  if (foreign.length > 0) add(foreign[Math.floor(mulberry32(seed)() * foreign.length)], CONTROL_RANDOM);
  return out;
}

/** The order one judge sees an item's candidates in: a shuffle seeded by round seed, judge and item. */
export function judgeOrder<T>(candidates: readonly T[], roundSeed: number, judge: string, itemKey: string): T[] {
  return seededShuffle(candidates, seedOf(roundSeed, judge, itemKey));
}

export type Verdict = Exclude<JudgementLabel, "abstain">;

/** The verdict of one candidate from its labels (see the rule at the top); null when none counts. */
export function verdict(labels: readonly JudgementLabel[]): Verdict | null {
  const counted = labels.filter((l): l is Verdict => l !== "abstain");
  if (counted.length === 0) return null;
  const counts = new Map<Verdict, number>();
  for (const l of counted) counts.set(l, (counts.get(l) ?? 0) + 1);
  for (const [l, n] of counts) if (n * 2 > counted.length) return l;
  const sorted = counted.map((l) => RANK[l]).sort((a, b) => a - b);
  const lowerMedian = sorted[Math.floor((sorted.length - 1) / 2)];
  return (Object.keys(RANK) as Verdict[]).find((l) => RANK[l] === lowerMedian)!;
}

export interface EscalationPolicy {
  /** Judges every candidate gets (the paper: 3). */
  judges: number;
  /** The most judges a candidate can get once escalated (≥ judges). */
  cap: number;
}

/**
 * SWORDS-style escalation: every candidate gets `judges` labels; once it has them and any judge
 * said good, it is escalated to `cap` judges. Returns how many labels the candidate needs in all.
 */
export function judgesNeeded(labels: readonly JudgementLabel[], policy: EscalationPolicy): number {
  if (policy.judges < 1 || policy.cap < policy.judges) throw new Error(`escalation cap ${policy.cap} must be at least the judges per candidate ${policy.judges} (≥ 1)`);
  if (labels.length < policy.judges) return policy.judges;
  return labels.includes("good") ? policy.cap : policy.judges;
}

export interface Interval {
  low: number;
  high: number;
}

/** Wilson score interval for k successes of n (95% with z = 1.96); [0, 0] when n = 0. */
export function wilson(k: number, n: number, z = 1.959963984540054): Interval {
  if (n === 0) return { low: 0, high: 0 };
  const p = k / n;
  const z2 = z * z;
  const den = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / den;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / den;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface JudgedCandidate {
  sources: readonly string[];
  verdict: Verdict | null;
}

export interface Table8Cell {
  count: number;
  percent: number;
  interval: Interval;
}

export interface Table8Row {
  source: string;
  /** Candidates with a verdict. */
  total: number;
  good: Table8Cell;
  reasonable: Table8Cell;
  bad: Table8Cell;
}

/**
 * Table 8 per source: the share of that source's candidates (with a verdict) judged good,
 * reasonable and bad, with counts and Wilson 95% intervals. A candidate from two sources counts
 * for both. Sources in first-seen order.
 */
export function table8(candidates: readonly JudgedCandidate[]): Table8Row[] {
  const bySource = new Map<string, Record<Verdict, number>>();
  for (const c of candidates) {
    for (const s of c.sources) {
      if (!bySource.has(s)) bySource.set(s, { good: 0, reasonable: 0, bad: 0 });
      if (c.verdict) bySource.get(s)![c.verdict]++;
    }
  }
  return [...bySource].map(([source, n]) => {
    const total = n.good + n.reasonable + n.bad;
    const cell = (k: number): Table8Cell => ({ count: k, percent: total ? (100 * k) / total : 0, interval: wilson(k, total) });
    return { source, total, good: cell(n.good), reasonable: cell(n.reasonable), bad: cell(n.bad) };
  });
}

/**
 * Krippendorff's α over units (candidates), each the labels its judges gave (abstain left out;
 * units with fewer than two labels are not pairable and left out). Nominal: δ = 0 when equal,
 * else 1. Ordinal on bad < reasonable < good: δ(c,k) = (Σ_{g=c..k} n_g − (n_c + n_k)/2)².
 * null when no disagreement is possible (fewer than two pairable values or one value only).
 */
export function krippendorffAlpha(units: readonly (readonly JudgementLabel[])[], metric: "nominal" | "ordinal"): number | null {
  const cats: Verdict[] = ["bad", "reasonable", "good"];
  const K = cats.length;
  const o = Array.from({ length: K }, () => new Float64Array(K));
  for (const u of units) {
    const vals = u.filter((l): l is Verdict => l !== "abstain").map((l) => RANK[l]);
    const m = vals.length;
    if (m < 2) continue;
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i !== j) o[vals[i]][vals[j]] += 1 / (m - 1);
  }
  const nc = o.map((row) => row.reduce((a, b) => a + b, 0));
  const n = nc.reduce((a, b) => a + b, 0);
  if (n < 2) return null;
  const delta = (c: number, k: number): number => {
    if (c === k) return 0;
    if (metric === "nominal") return 1;
    const [lo, hi] = c < k ? [c, k] : [k, c];
    let s = 0;
    for (let g = lo; g <= hi; g++) s += nc[g];
    return (s - (nc[c] + nc[k]) / 2) ** 2;
  };
  let dObs = 0;
  let dExp = 0;
  for (let c = 0; c < K; c++)
    for (let k = 0; k < K; k++) {
      const d = delta(c, k);
      dObs += o[c][k] * d;
      dExp += nc[c] * nc[k] * d;
    }
  if (dExp === 0) return null;
  return 1 - ((n - 1) * dObs) / dExp;
}
