/**
 * Inter-annotator agreement (paper §2.2, seed 000 §6) over derived gold items.
 *
 * Over T (items in the gold, not excluded, |H_i| >= 2):
 * - pairwise: for every item and every pair of annotators who both gave
 *   substitutes, |A ∩ B| / |A ∪ B| of their sets; the mean over all such pairs;
 * - agreement with the mode: over items with a mode and the annotators who gave
 *   substitutes there, the share whose set contains the mode;
 * - both again without each annotator in turn (H_i, T and the modes recomputed
 *   without them), and each annotator's own figures;
 * - Krippendorff's α with the MASI distance over the substitute sets of annotators
 *   who gave substitutes (coder = annotator, item = instance, label = set), exactly
 *   as NLTK's AnnotationTask(distance=masi_distance).alpha() computes it, degenerate
 *   cases included (GroupAcc.alpha); checked against NLTK 3.10.3.
 * Over all instances not excluded: multiword detection (pairs of annotators who
 * both answered: both flagged or both not) and identification (pairs who both
 * flagged: the same normalised, lemmatised phrase).
 * Everything also per PoS and per lexelt; a seeded bootstrap over T's items gives
 * 95% intervals for pairwise agreement and α.
 *
 * Linear in the number of responses: α's observed disagreement is summed per item,
 * its expected disagreement is counted through shared subsets (never a loop over
 * all pairs of values), and the bootstrap resamples per-item sums.
 * Proportions are unrounded; null where a denominator is zero (or NLTK raises).
 */
import { ratio } from "./ratio";
import { type GoldItem, type GoldEntry, PN } from "./gold";
import { cmp } from "./normalize";

export interface AgreementOptions {
  /** Bootstrap resamples (default 1000; 0 leaves the intervals null). */
  bootstrapIterations?: number;
  /** Seed of the bootstrap's PRNG (default 1): the same seed gives the same intervals. */
  seed?: number;
  /** Interval coverage (default 0.95). */
  level?: number;
  /** How many items `lowest` lists (default 20). */
  lowestCount?: number;
  /**
   * MASI's weights: "exact" 2/3 and 1/3 (default: Passonneau 2006, and NLTK since
   * nltk/nltk#3695, e.g. 3.10.3) or "rounded" 0.67 and 0.33 (older NLTK releases).
   */
  masiWeights?: "exact" | "rounded";
}

/** The figures reported overall and for each PoS and lexelt. */
export interface AgreementFigures {
  /** |T|. */
  items: number;
  /** |TM|: items in T with a mode. */
  itemsWithMode: number;
  /** Pairs of annotators who both gave substitutes, over T. */
  pairs: number;
  pairwise: number | null;
  /** Substitute responses on items with a mode. */
  modeResponses: number;
  modeAgreement: number | null;
  /** Instances (not excluded, any |H_i|) with at least one pair of answers. */
  mwInstances: number;
  mwDetectionPairs: number;
  mwDetection: number | null;
  mwIdentificationPairs: number;
  mwIdentification: number | null;
  alphaMasi: number | null;
}

export interface LeaveOneOut {
  items: number;
  itemsWithMode: number;
  pairs: number;
  pairwise: number | null;
  modeResponses: number;
  modeAgreement: number | null;
}

export interface AnnotatorAgreement {
  annotator: string;
  /** Instances (not excluded) the annotator answered, and how. */
  answered: number;
  names: number;
  nils: number;
  /** Mean number of substitutes over the answers that gave substitutes; null when none. */
  meanSubstitutes: number | null;
  multiwords: number;
  /** Items in T where the annotator gave substitutes. */
  items: number;
  /** Pairs with the others over T, and the mean agreement over them. */
  pairs: number;
  pairwise: number | null;
  /** Their substitute responses on items with a mode, and the share containing the mode. */
  modeResponses: number;
  modeAgreement: number | null;
  /** The overall pairwise and mode figures recomputed without this annotator. */
  without: LeaveOneOut;
}

export interface ItemAgreement {
  lexelt: string;
  instanceId: string;
  pos: string;
  /** Annotators who gave substitutes. */
  annotators: number;
  pairs: number;
  /** Mean over the item's pairs; null with fewer than two annotators. */
  pairwise: number | null;
  mode: string | null;
  modeResponses: number;
  modeAgreement: number | null;
}

export interface Interval {
  low: number;
  high: number;
}

export interface AgreementIntervals {
  iterations: number;
  seed: number;
  level: number;
  pairwise: Interval | null;
  /** Expected disagreement held at the full sample's value (Hayes & Krippendorff 2007). */
  alphaMasi: Interval | null;
}

export interface HistogramBin {
  /** [from, to), the last bin [0.9, 1] closed. */
  from: number;
  to: number;
  count: number;
}

export interface AgreementReport extends AgreementFigures {
  perAnnotator: AnnotatorAgreement[];
  byPos: ({ pos: string } & AgreementFigures)[];
  byLexelt: ({ lexelt: string; pos: string } & AgreementFigures)[];
  intervals: AgreementIntervals;
  /** Every item in T, in gold order. */
  perItem: ItemAgreement[];
  /** Items in T with a pairwise figure, lowest first (ties: more pairs first, then gold order). */
  lowest: ItemAgreement[];
  /** Ten bins of per-item pairwise agreement. */
  histogram: HistogramBin[];
}

// ---------------------------------------------------------------------------
// MASI and α, NLTK's definitions. Sets are sorted arrays of distinct substitute
// ids; many sets are stored flat: set t is flat[start[t]] .. flat[start[t + 1] - 1].

/**
 * MASI's monotonicity weight m. Current NLTK uses Passonneau's exact 2/3 and 1/3
 * (nltk/nltk#3695); older releases used the rounded 0.67 and 0.33 (`rounded`).
 */
function masiM(la: number, lb: number, k: number, rounded: boolean): number {
  if (la === lb && la === k) return 1;
  if (k === (la < lb ? la : lb)) return rounded ? 0.67 : 2 / 3;
  if (k > 0) return rounded ? 0.33 : 1 / 3;
  return 0;
}

/** |A ∩ B| for A = f[a0..a1), B = f[b0..b1), both sorted. */
function intersectionSize(f: ArrayLike<number>, a0: number, a1: number, b0: number, b1: number): number {
  let k = 0;
  while (a0 < a1 && b0 < b1) {
    const x = f[a0];
    const y = f[b0];
    if (x === y) {
      k++;
      a0++;
      b0++;
    } else if (x < y) a0++;
    else b0++;
  }
  return k;
}

/** 1 - MASI distance, |A∩B|/|A∪B| · m, for A = f[a0..a1), B = f[b0..b1). */
function masiSimilarity(f: ArrayLike<number>, a0: number, a1: number, b0: number, b1: number, rounded: boolean): number {
  const k = intersectionSize(f, a0, a1, b0, b1);
  if (k === 0) return 0;
  const la = a1 - a0;
  const lb = b1 - b0;
  return (k / (la + lb - k)) * masiM(la, lb, k, rounded);
}

/**
 * nltk.metrics.distance.masi_distance of two non-empty sets (sorted, distinct numbers):
 * 1 - |A∩B|/|A∪B| · m, m = 1 equal, 2/3 one contains the other, 1/3 overlap, 0 disjoint
 * (0.67 and 0.33 with `rounded`, as older NLTK releases).
 */
export function masiDistance(a: readonly number[], b: readonly number[], rounded = false): number {
  const f = [...a, ...b];
  return 1 - masiSimilarity(f, 0, a.length, a.length, f.length, rounded);
}

/** Largest set size handled by subset counting (2^size subsets per value). */
const SUBSET_LIMIT = 10;
/** Groups up to this many values sum their pairs directly. */
const DIRECT_LIMIT = 32;

/**
 * Σ over all ordered pairs (x, y) of values, x = y included, of MASI similarity:
 * NLTK's Σ_j Σ_l n_j n_l d(l, j) is N² minus this.
 */
export function masiAgreementSum(values: readonly (readonly number[])[], rounded = false): number {
  const flat: number[] = [];
  const start: number[] = [0];
  for (const v of values) {
    for (const x of v) flat.push(x);
    start.push(flat.length);
  }
  return masiAgreementSums(flat, start, null, new Float64Array(values.length).fill(1), 1, rounded)[0];
}

/**
 * The same sum with weights, for each group of a partition and for all groups
 * together (G + 1 sums). The distinct values are sets in flat/start; `vals` picks
 * some of them (all when null) and weights[i * G + g] says how many times the i-th
 * picked value occurs in group g.
 *
 * Linear: each value adds its weight to each of its non-empty subsets S (by
 * value size and group); Σ_S c_a(S) c_b(S) over |S| = s counts the pairs of sizes
 * (a, b) weighted by C(|x∩y|, s), and a binomial inversion turns those into the
 * number of pairs sharing exactly k elements. Few values (and sets over
 * SUBSET_LIMIT elements) are summed pair by pair.
 */
function masiAgreementSums(
  flat: ArrayLike<number>,
  start: ArrayLike<number>,
  vals: ArrayLike<number> | null,
  weights: ArrayLike<number>,
  G: number,
  rounded: boolean,
): Float64Array {
  const out = new Float64Array(G + 1);
  const V = vals ? vals.length : start.length - 1;
  let M = 0;
  let base = 0;
  for (let i = 0; i < V; i++) {
    const t = vals ? vals[i] : i;
    const a = start[t + 1] - start[t];
    if (a > M) M = a;
    for (let o = start[t]; o < start[t + 1]; o++) if (flat[o] + 1 > base) base = flat[o] + 1;
  }
  if (M === 0) return out;
  if (M > SUBSET_LIMIT || V <= DIRECT_LIMIT) {
    for (let i = 0; i < V; i++) {
      const t = vals ? vals[i] : i;
      let wi = 0;
      for (let g = 0; g < G; g++) {
        const w = weights[i * G + g];
        out[g] += w * w;
        wi += w;
      }
      out[G] += wi * wi;
      for (let j = i + 1; j < V; j++) {
        const u = vals ? vals[j] : j;
        const sim = 2 * masiSimilarity(flat, start[t], start[t + 1], start[u], start[u + 1], rounded);
        if (sim === 0) continue;
        let wj = 0;
        for (let g = 0; g < G; g++) {
          const w = weights[j * G + g];
          out[g] += weights[i * G + g] * w * sim;
          wj += w;
        }
        out[G] += wi * wj * sim;
      }
    }
    if (G === 1) out[0] = out[1];
    return out;
  }
  // Per subset size s, counts[s][slot * W_s + (a - s) * G + g] with W_s = (M - s + 1) * G;
  // subsets of size 1 are their id's slot when a dense array is small enough.
  const dense = base * M * G <= 8 * V * M * G + 65536;
  const slots: Map<number | string, number>[] = [];
  const counts: (number[] | Float64Array)[] = [];
  for (let s = 0; s <= M; s++) {
    slots.push(new Map());
    counts.push(s === 1 && dense ? new Float64Array(base * M * G) : []);
  }
  const pairKeys = base < 2 ** 26;
  const tripleKeys = base * base * base < 2 ** 53;
  const sub: number[] = new Array<number>(M).fill(0);
  for (let i = 0; i < V; i++) {
    const t = vals ? vals[i] : i;
    const o0 = start[t];
    const a = start[t + 1] - o0;
    const full = 1 << a;
    for (let mask = 1; mask < full; mask++) {
      let s = 0;
      for (let b = 0; b < a; b++) if (mask & (1 << b)) sub[s++] = flat[o0 + b];
      const W = (M - s + 1) * G;
      const c = counts[s];
      let slot: number | undefined;
      if (s === 1 && dense) slot = sub[0];
      else {
        const key: number | string =
          s === 1
            ? sub[0]
            : s === 2 && pairKeys
              ? sub[0] * base + sub[1]
              : s === 3 && tripleKeys
                ? (sub[0] * base + sub[1]) * base + sub[2]
                : sub.slice(0, s).join(",");
        const map = slots[s];
        slot = map.get(key);
        if (slot === undefined) {
          slot = map.size;
          map.set(key, slot);
          for (let w = 0; w < W; w++) (c as number[]).push(0);
        }
      }
      const o = slot * W + (a - s) * G;
      for (let g = 0; g < G; g++) c[o + g] += weights[i * G + g];
    }
  }
  // P[g][s][a][b] = Σ_{|S|=s} c_a^g(S) c_b^g(S); g = G: counts summed over groups.
  const P: number[][][][] = [];
  for (let g = 0; g <= G; g++) {
    P.push([]);
    for (let s = 0; s <= M; s++) {
      P[g].push([]);
      for (let a = 0; a <= M; a++) P[g][s].push(new Array<number>(M + 1).fill(0));
    }
  }
  const total = new Float64Array(M + 1);
  for (let s = 1; s <= M; s++) {
    const c = counts[s];
    const A = M - s + 1;
    const W = A * G;
    for (let o = 0; o < c.length; o += W) {
      let any = false;
      for (let ia = 0; ia < A; ia++) {
        total[ia] = 0;
        for (let g = 0; g < G; g++) {
          const x = c[o + ia * G + g];
          if (x === 0) continue;
          any = true;
          total[ia] += x;
          for (let ib = 0; ib < A; ib++) {
            const y = c[o + ib * G + g];
            if (y !== 0) P[g][s][s + ia][s + ib] += x * y;
          }
        }
      }
      if (!any || G === 1) continue;
      for (let ia = 0; ia < A; ia++) {
        if (total[ia] === 0) continue;
        for (let ib = 0; ib < A; ib++) P[G][s][s + ia][s + ib] += total[ia] * total[ib];
      }
    }
  }
  for (let g = 0; g <= G; g++) {
    const Pg = G === 1 ? P[0] : P[g];
    let sum = 0;
    for (let a = 1; a <= M; a++) {
      for (let b = 1; b <= M; b++) {
        const top = Math.min(a, b);
        for (let k = 1; k <= top; k++) {
          // Pairs of sizes (a, b) sharing exactly k elements.
          let n = 0;
          for (let s = k; s <= top; s++) n += ((s - k) % 2 === 0 ? 1 : -1) * binomial(s, k) * Pg[s][a][b];
          if (n !== 0) sum += n * (k / (a + b - k)) * masiM(a, b, k, rounded);
        }
      }
    }
    out[g] = sum;
  }
  return out;
}

/** A key for the set f[s0..s1): a number for up to three small ids, else a string. */
function setKey(f: readonly number[], s0: number, s1: number): number | string {
  if (s1 - s0 <= 3) {
    let k = 0;
    let o = s0;
    for (; o < s1; o++) {
      const x = f[o] + 1;
      if (x >= 131072) break;
      k = k * 131072 + x;
    }
    if (o === s1) return k;
  }
  return f.slice(s0, s1).join(",");
}

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** Whether f[s0..s1) holds exactly the set `first`. */
function sameSet(first: readonly number[], f: ArrayLike<number>, s0: number, s1: number): boolean {
  if (first.length !== s1 - s0) return false;
  for (let i = 0; i < first.length; i++) if (first[i] !== f[s0 + i]) return false;
  return true;
}

// ---------------------------------------------------------------------------
// Group sums.

class GroupAcc {
  items = 0;
  itemsWithMode = 0;
  pairs = 0;
  pairSum = 0;
  modeResponses = 0;
  modeHits = 0;
  mwInstances = 0;
  mwDetectionPairs = 0;
  mwDetectionAgree = 0;
  mwIdentificationPairs = 0;
  mwIdentificationAgree = 0;
  // α: Σ_i (Σ over ordered pairs of item i's values of d) / (n_i - 1) over items
  // with n_i >= 2; N, their number of values; NLTK's degenerate cases.
  doTotal = 0;
  pairable = 0;
  itemsWithValues = 0;
  firstCoder: string | null = null;
  manyCoders = false;
  firstValue: number[] | null = null;
  manyValues = false;
  firstPairable: number[] | null = null;
  manyPairable = false;
  /** Σ over ordered pairs of pairable values of MASI similarity (filled in at the end). */
  agreementSum = 0;

  addMw(n: number, flagged: number, idAgree: number): void {
    this.mwInstances++;
    this.mwDetectionPairs += pairsOf(n);
    this.mwDetectionAgree += pairsOf(flagged) + pairsOf(n - flagged);
    this.mwIdentificationPairs += pairsOf(flagged);
    this.mwIdentificationAgree += idAgree;
  }

  addItem(
    mode: boolean,
    pairs: number,
    pairSum: number,
    modeResponses: number,
    modeHits: number,
    n: number,
    coders: readonly string[],
    f: readonly number[],
    fStart: readonly number[],
    orderedDisagreement: number,
  ): void {
    this.items++;
    if (mode) this.itemsWithMode++;
    this.pairs += pairs;
    this.pairSum += pairSum;
    this.modeResponses += modeResponses;
    this.modeHits += modeHits;
    if (n === 0) return;
    this.itemsWithValues++;
    for (let u = 0; u < n; u++) {
      const c = coders[u];
      if (this.firstCoder === null) this.firstCoder = c;
      else if (!this.manyCoders && c !== this.firstCoder) this.manyCoders = true;
      const s0 = fStart[u];
      const s1 = fStart[u + 1];
      if (this.firstValue === null) this.firstValue = f.slice(s0, s1);
      else if (!this.manyValues && !sameSet(this.firstValue, f, s0, s1)) this.manyValues = true;
      if (n >= 2) {
        if (this.firstPairable === null) this.firstPairable = f.slice(s0, s1);
        else if (!this.manyPairable && !sameSet(this.firstPairable, f, s0, s1)) this.manyPairable = true;
      }
    }
    if (n < 2) return;
    this.doTotal += orderedDisagreement / (n - 1);
    this.pairable += n;
  }

  /** α is 1 by NLTK's rules "only one (valid) annotation value". */
  unanimous(): boolean {
    return this.itemsWithValues > 0 && (!this.manyValues || (this.pairable > 0 && !this.manyPairable));
  }

  /** The expected disagreement D_e, null when NLTK would divide by zero. */
  expected(): number | null {
    const N = this.pairable;
    if (N < 2) return null;
    const de = (N * N - this.agreementSum) / (N * (N - 1));
    return de === 0 ? null : de;
  }

  /**
   * AnnotationTask(distance=masi_distance).alpha() of NLTK 3.10.3: no values →
   * undefined (NLTK raises); one distinct value → 1; one coder and one item →
   * undefined; items with fewer than two values are ignored; one distinct value
   * among the rest → 1; else 1 - D_o / D_e with D_o = Σ_i n_i·Disagreement(i) / N
   * and D_e = Disagreement(all those values); undefined where NLTK divides by zero.
   */
  alpha(): number | null {
    if (this.itemsWithValues === 0) return null;
    if (!this.manyValues) return 1;
    if (!this.manyCoders && this.itemsWithValues === 1) return null;
    if (this.pairable === 0) return null;
    if (!this.manyPairable) return 1;
    const de = this.expected();
    if (de === null) return null;
    return 1 - this.doTotal / this.pairable / de;
  }

  figures(): AgreementFigures {
    return {
      items: this.items,
      itemsWithMode: this.itemsWithMode,
      pairs: this.pairs,
      pairwise: ratio(this.pairSum, this.pairs),
      modeResponses: this.modeResponses,
      modeAgreement: ratio(this.modeHits, this.modeResponses),
      mwInstances: this.mwInstances,
      mwDetectionPairs: this.mwDetectionPairs,
      mwDetection: ratio(this.mwDetectionAgree, this.mwDetectionPairs),
      mwIdentificationPairs: this.mwIdentificationPairs,
      mwIdentification: ratio(this.mwIdentificationAgree, this.mwIdentificationPairs),
      alphaMasi: this.alpha(),
    };
  }
}

class AnnotatorAcc {
  answered = 0;
  names = 0;
  nils = 0;
  substituteAnswers = 0;
  substitutesGiven = 0;
  multiwords = 0;
  items = 0;
  pairs = 0;
  pairSum = 0;
  modeResponses = 0;
  modeHits = 0;
  // What removing this annotator changes in the overall sums, item by item.
  dItems = 0;
  dItemsWithMode = 0;
  dPairs = 0;
  dPairSum = 0;
  dModeResponses = 0;
  dModeHits = 0;

  constructor(readonly annotator: string) {}
}

/** Seeded PRNG (mulberry32): uniform in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Linear-interpolation quantile (numpy's default) of ascending values. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

const POS_ORDER: Record<string, number> = { n: 0, v: 1, a: 2, r: 3 };
const posRank = (p: string) => POS_ORDER[p] ?? 4;

function pairsOf(n: number): number {
  return (n * (n - 1)) / 2;
}

/** Agreement over derived gold items (excluded items are skipped). */
/**
 * One item's pairwise agreement, as computeAgreement's perItem reports it: over
 * the annotators who gave substitutes, the mean of |A ∩ B| / |A ∪ B| over their
 * pairs; null when the item is excluded, not in T, or fewer than two annotators
 * gave substitutes. O(annotators² · substitutes) per item, no allocation per pair:
 * the review queue orders every instance of a project by it.
 */
export function itemPairwise(item: GoldItem): number | null {
  if (item.excluded !== null || !item.inT) return null;
  const sets: (readonly string[])[] = [];
  for (const r of item.responses) if (r.substitutes.length > 0) sets.push(r.substitutes);
  const n = sets.length;
  if (n < 2) return null;
  let sum = 0;
  for (let u = 0; u < n; u++) {
    const a = sets[u];
    for (let v = u + 1; v < n; v++) {
      const b = sets[v];
      let k = 0;
      for (const x of a) if (b.includes(x)) k++;
      sum += k / (a.length + b.length - k);
    }
  }
  return sum / pairsOf(n);
}

export function computeAgreement(items: readonly GoldItem[], options: AgreementOptions = {}): AgreementReport {
  const iterations = Math.max(0, Math.floor(options.bootstrapIterations ?? 1000));
  const seed = options.seed ?? 1;
  const level = options.level ?? 0.95;
  const lowestCount = options.lowestCount ?? 20;
  const rounded = options.masiWeights === "rounded";

  const overall = new GroupAcc();
  const posIndex = new Map<string, number>();
  const posAccs: GroupAcc[] = [];
  const lexIndex = new Map<string, number>();
  const lexAccs: GroupAcc[] = [];
  const lexPos: string[] = [];
  const annotators = new Map<string, AnnotatorAcc>();
  const ids = new Map<string, number>();
  const perItem: ItemAgreement[] = [];

  // α's pairable values: the distinct sets (flat), and per value given its set, PoS and lexelt.
  const valueOf = new Map<number | string, number>();
  const flat: number[] = [];
  const start: number[] = [0];
  const tokValue: number[] = [];
  const tokPos: number[] = [];
  const tokLex: number[] = [];
  // Per item in T, for the bootstrap.
  const boot = new BootstrapStats();

  // Scratch per item: the givers' sets, flat.
  const giverIdx: number[] = [];
  const f: number[] = [];
  const fStart: number[] = [];
  const coders: string[] = [];
  const jSum: number[] = [];
  const hit: boolean[] = [];
  const accs: AnnotatorAcc[] = [];
  const lastAt: AnnotatorAcc[] = [];
  // The value of each one-substitute set, by substitute id (most sets have one).
  let singleValue = new Int32Array(1024).fill(-1);

  for (const item of items) {
    if (item.excluded !== null) continue;
    let pi = posIndex.get(item.pos);
    if (pi === undefined) {
      pi = posAccs.length;
      posIndex.set(item.pos, pi);
      posAccs.push(new GroupAcc());
    }
    let li = lexIndex.get(item.lexelt);
    if (li === undefined) {
      li = lexAccs.length;
      lexIndex.set(item.lexelt, li);
      lexAccs.push(new GroupAcc());
      lexPos.push(item.pos);
    }
    const posAcc = posAccs[pi];
    const lexAcc = lexAccs[li];

    // Every answer: the annotators' own counts and multiword agreement (all instances).
    const rs = item.responses;
    let flagged = 0;
    let idAgree = 0;
    for (let u = 0; u < rs.length; u++) {
      const r = rs[u];
      // Annotators tend to keep their place from item to item: try it before the map.
      let a: AnnotatorAcc | undefined = lastAt[u];
      if (a === undefined || a.annotator !== r.annotator) {
        a = annotators.get(r.annotator);
        if (a === undefined) {
          a = new AnnotatorAcc(r.annotator);
          annotators.set(r.annotator, a);
        }
        lastAt[u] = a;
      }
      accs[u] = a;
      a.answered++;
      if (r.kind === "NAME") a.names++;
      else if (r.kind === "NIL") a.nils++;
      if (r.substitutes.length > 0) {
        a.substituteAnswers++;
        a.substitutesGiven += r.substitutes.length;
      }
      if (r.multiword !== null) {
        a.multiwords++;
        flagged++;
        // Pairs with earlier flaggers of the same phrase.
        for (let v = 0; v < u; v++) if (rs[v].multiword === r.multiword) idAgree++;
      }
    }
    if (rs.length >= 2) {
      overall.addMw(rs.length, flagged, idAgree);
      posAcc.addMw(rs.length, flagged, idAgree);
      lexAcc.addMw(rs.length, flagged, idAgree);
    }

    if (!item.inT) continue;

    // The substitute sets of the annotators who gave substitutes, as sorted ids.
    let n = 0;
    let fl = 0;
    fStart[0] = 0;
    for (let u = 0; u < rs.length; u++) {
      const subs = rs[u].substitutes;
      if (subs.length === 0) continue;
      const s0 = fl;
      for (const s of subs) {
        let id = ids.get(s);
        if (id === undefined) {
          id = ids.size;
          ids.set(s, id);
        }
        // Insertion sort: a handful of ids.
        let p = fl++;
        while (p > s0 && f[p - 1] > id) {
          f[p] = f[p - 1];
          p--;
        }
        f[p] = id;
      }
      giverIdx[n] = u;
      coders[n] = rs[u].annotator;
      jSum[n] = 0;
      n++;
      fStart[n] = fl;
    }
    let pairSum = 0;
    let masiSum = 0;
    for (let u = 0; u < n; u++) {
      const u0 = fStart[u];
      const u1 = fStart[u + 1];
      for (let v = u + 1; v < n; v++) {
        const v0 = fStart[v];
        const v1 = fStart[v + 1];
        const k = intersectionSize(f, u0, u1, v0, v1);
        if (k === 0) {
          masiSum += 1;
          continue;
        }
        const j = k / (u1 - u0 + (v1 - v0) - k);
        pairSum += j;
        jSum[u] += j;
        jSum[v] += j;
        masiSum += 1 - j * masiM(u1 - u0, v1 - v0, k, rounded);
      }
    }
    const pairs = pairsOf(n);
    const mode = item.mode;
    let modeHits = 0;
    for (let u = 0; u < n; u++) {
      const h = mode !== null && rs[giverIdx[u]].substitutes.includes(mode);
      hit[u] = h;
      if (h) modeHits++;
    }
    const modeResponses = mode !== null ? n : 0;

    overall.addItem(mode !== null, pairs, pairSum, modeResponses, modeHits, n, coders, f, fStart, 2 * masiSum);
    posAcc.addItem(mode !== null, pairs, pairSum, modeResponses, modeHits, n, coders, f, fStart, 2 * masiSum);
    lexAcc.addItem(mode !== null, pairs, pairSum, modeResponses, modeHits, n, coders, f, fStart, 2 * masiSum);
    if (n >= 2) {
      for (let u = 0; u < n; u++) {
        const s0 = fStart[u];
        const s1 = fStart[u + 1];
        let v: number | undefined;
        if (s1 - s0 === 1) {
          const id = f[s0];
          if (id >= singleValue.length) {
            const grown = new Int32Array(Math.max(2 * singleValue.length, id + 1)).fill(-1);
            grown.set(singleValue);
            singleValue = grown;
          }
          v = singleValue[id];
          if (v < 0) {
            v = start.length - 1;
            singleValue[id] = v;
            flat.push(f[s0]);
            start.push(flat.length);
          }
        } else {
          const key = setKey(f, s0, s1);
          v = valueOf.get(key);
          if (v === undefined) {
            v = start.length - 1;
            valueOf.set(key, v);
            for (let o = s0; o < s1; o++) flat.push(f[o]);
            start.push(flat.length);
          }
        }
        tokValue.push(v);
        tokPos.push(pi);
        tokLex.push(li);
      }
    }
    boot.add(pairSum, n, n >= 2 ? (2 * masiSum) / (n - 1) : 0);

    perItem.push({
      lexelt: item.lexelt,
      instanceId: item.instanceId,
      pos: item.pos,
      annotators: n,
      pairs,
      pairwise: ratio(pairSum, pairs),
      mode,
      modeResponses,
      modeAgreement: ratio(modeHits, modeResponses),
    });

    // Each giver's own figures, and the item recomputed without them.
    for (let u = 0; u < n; u++) {
      const a = accs[giverIdx[u]];
      a.items++;
      a.pairs += n - 1;
      a.pairSum += jSum[u];
      if (mode !== null) {
        a.modeResponses++;
        if (hit[u]) a.modeHits++;
      }
      const removed = rs[giverIdx[u]].substitutes;
      const inT = item.size - removed.length >= 2;
      let modeWithout: string | null = null;
      let hitsWithout = 0;
      if (!inT) {
        // Out of T without them.
      } else if (mode !== null && !hit[u]) {
        // They did not give the mode: only other counts drop, the mode stays.
        modeWithout = mode;
        hitsWithout = modeHits;
      } else {
        modeWithout = modeWithoutAnnotator(item.entries, removed);
        if (modeWithout === mode) hitsWithout = modeHits - 1;
        else if (modeWithout !== null) {
          for (let v = 0; v < n; v++) if (v !== u && rs[giverIdx[v]].substitutes.includes(modeWithout)) hitsWithout++;
        }
      }
      if (!inT) a.dItems--;
      a.dItemsWithMode += (modeWithout !== null ? 1 : 0) - (mode !== null ? 1 : 0);
      a.dPairs += (inT ? pairsOf(n - 1) : 0) - pairs;
      a.dPairSum += (inT ? pairSum - jSum[u] : 0) - pairSum;
      a.dModeResponses += (modeWithout !== null ? n - 1 : 0) - modeResponses;
      a.dModeHits += hitsWithout - modeHits;
    }
  }

  // α's expected disagreement: overall and per PoS in one pass, then per lexelt.
  const G = posAccs.length;
  const weights = new Float64Array((start.length - 1) * G);
  for (let t = 0; t < tokValue.length; t++) weights[tokValue[t] * G + tokPos[t]]++;
  const byPosSums = masiAgreementSums(flat, start, null, weights, G, rounded);
  for (let g = 0; g < G; g++) posAccs[g].agreementSum = byPosSums[g];
  overall.agreementSum = byPosSums[G];
  lexeltAgreementSums(flat, start, tokValue, tokLex, lexAccs, rounded);

  const perAnnotator: AnnotatorAgreement[] = [...annotators.values()]
    .sort((x, y) => cmp(x.annotator, y.annotator))
    .map((a) => ({
      annotator: a.annotator,
      answered: a.answered,
      names: a.names,
      nils: a.nils,
      meanSubstitutes: ratio(a.substitutesGiven, a.substituteAnswers),
      multiwords: a.multiwords,
      items: a.items,
      pairs: a.pairs,
      pairwise: ratio(a.pairSum, a.pairs),
      modeResponses: a.modeResponses,
      modeAgreement: ratio(a.modeHits, a.modeResponses),
      without: {
        items: overall.items + a.dItems,
        itemsWithMode: overall.itemsWithMode + a.dItemsWithMode,
        pairs: overall.pairs + a.dPairs,
        pairwise: ratio(overall.pairSum + a.dPairSum, overall.pairs + a.dPairs),
        modeResponses: overall.modeResponses + a.dModeResponses,
        modeAgreement: ratio(overall.modeHits + a.dModeHits, overall.modeResponses + a.dModeResponses),
      },
    }));

  const figures = overall.figures();
  return {
    ...figures,
    perAnnotator,
    byPos: [...posIndex]
      .sort((x, y) => posRank(x[0]) - posRank(y[0]) || cmp(x[0], y[0]))
      .map(([pos, g]) => ({ pos, ...posAccs[g].figures() })),
    byLexelt: [...lexIndex]
      .sort((x, y) => cmp(x[0], y[0]))
      .map(([lexelt, g]) => ({ lexelt, pos: lexPos[g], ...lexAccs[g].figures() })),
    intervals: boot.intervals(overall, figures.alphaMasi, iterations, seed, level),
    perItem,
    lowest: lowestItems(perItem, lowestCount),
    histogram: histogram(perItem),
  };
}

/** The mode of H_i without one annotator's substitutes (pn excluded), or null. */
function modeWithoutAnnotator(entries: readonly GoldEntry[], removed: readonly string[]): string | null {
  let best: string | null = null;
  let bestCount = 0;
  let tie = false;
  for (const e of entries) {
    if (e.substitute === PN) continue;
    const count = removed.includes(e.substitute) ? e.count - 1 : e.count;
    if (count <= 0) continue;
    if (count > bestCount) {
      best = e.substitute;
      bestCount = count;
      tie = false;
    } else if (count === bestCount) tie = true;
  }
  return tie ? null : best;
}

/** Each lexelt's Σ of MASI similarity over ordered pairs of its pairable values. */
function lexeltAgreementSums(
  flat: readonly number[],
  start: readonly number[],
  tokValue: readonly number[],
  tokLex: readonly number[],
  lexAccs: GroupAcc[],
  rounded: boolean,
): void {
  const L = lexAccs.length;
  const first = new Int32Array(L + 1);
  for (const l of tokLex) first[l + 1]++;
  for (let l = 0; l < L; l++) first[l + 1] += first[l];
  const next = first.slice(0, L);
  const ordered = new Int32Array(tokLex.length);
  for (let t = 0; t < tokLex.length; t++) ordered[next[tokLex[t]]++] = tokValue[t];
  // Distinct values of one lexelt and their counts, without a map per lexelt.
  const seenIn = new Int32Array(start.length - 1).fill(-1);
  const slot = new Int32Array(start.length - 1);
  const vals = new Int32Array(tokLex.length);
  const weights = new Float64Array(tokLex.length);
  for (let l = 0; l < L; l++) {
    if (first[l] === first[l + 1]) continue;
    let d = 0;
    for (let t = first[l]; t < first[l + 1]; t++) {
      const v = ordered[t];
      if (seenIn[v] !== l) {
        seenIn[v] = l;
        slot[v] = d;
        vals[d] = v;
        weights[d] = 0;
        d++;
      }
      weights[slot[v]]++;
    }
    lexAccs[l].agreementSum = masiAgreementSums(flat, start, vals.subarray(0, d), weights.subarray(0, d), 1, rounded)[0];
  }
}

/**
 * Per-item sums for the bootstrap, with identical items pooled into classes (a
 * resample only needs how many of each class it drew).
 */
class BootstrapStats {
  private classOf: number[] = [];
  /** pair sum → α statistic → classes by number of givers. */
  private classes = new Map<number, Map<number, number[]>>();
  private pairSum: number[] = [];
  private pairs: number[] = [];
  private doStat: number[] = [];
  private values: number[] = [];
  private sizes: number[] = [];


  add(pairSum: number, givers: number, doStat: number): void {
    let byDo = this.classes.get(pairSum);
    if (byDo === undefined) this.classes.set(pairSum, (byDo = new Map()));
    let byGivers = byDo.get(doStat);
    if (byGivers === undefined) byDo.set(doStat, (byGivers = []));
    let c = byGivers[givers];
    if (c === undefined) {
      c = this.pairSum.length;
      byGivers[givers] = c;
      this.pairSum.push(pairSum);
      this.pairs.push(pairsOf(givers));
      this.doStat.push(doStat);
      this.values.push(givers >= 2 ? givers : 0);
      this.sizes.push(0);
    }
    this.sizes[c]++;
    this.classOf.push(c);
  }

  /**
   * Percentile bootstrap over T's items: each resample draws |T| items with
   * replacement (xorshift32 seeded from `seed`) and recomputes pairwise agreement
   * and α from the drawn items' sums, α with the full sample's expected
   * disagreement (Hayes & Krippendorff 2007). Undefined resamples are skipped.
   */
  intervals(overall: GroupAcc, alpha: number | null, iterations: number, seed: number, level: number): AgreementIntervals {
    const result: AgreementIntervals = { iterations, seed, level, pairwise: null, alphaMasi: null };
    const n = this.classOf.length;
    if (iterations === 0 || n === 0) return result;
    const classOf = Int32Array.from(this.classOf);
    const K = this.pairSum.length;
    const ps = Float64Array.from(this.pairSum);
    const pc = Float64Array.from(this.pairs);
    const ds = Float64Array.from(this.doStat);
    const dn = Float64Array.from(this.values);
    const unanimous = overall.unanimous();
    const de = unanimous ? null : overall.expected();
    const counts = new Int32Array(K);
    const pw = new Float64Array(iterations);
    const al = new Float64Array(iterations);
    let npw = 0;
    let nal = 0;
    let x = xorshiftState(seed);
    // Few classes (the usual case: items share their sums): draw class counts.
    const byClass = K >= 2 && K * 8 <= n;
    const plan = byClass ? classPlan(this.sizes, n) : null;
    const logFact = new Float64Array(byClass ? n + 1 : 0);
    for (let k = 1; k < logFact.length; k++) logFact[k] = logFact[k - 1] + Math.log(k);
    for (let b = 0; b < iterations; b++) {
      counts.fill(0);
      if (K === 1) counts[0] = n;
      else if (plan) x = drawByClass(counts, n, plan, logFact, x);
      else x = drawByItem(counts, n, classOf, x);
      let sPs = 0;
      let sPc = 0;
      let sDs = 0;
      let sDn = 0;
      for (let k = 0; k < K; k++) {
        const c = counts[k];
        sPs += c * ps[k];
        sPc += c * pc[k];
        sDs += c * ds[k];
        sDn += c * dn[k];
      }
      if (sPc > 0) pw[npw++] = sPs / sPc;
      if (de !== null && sDn > 0) al[nal++] = 1 - sDs / sDn / de;
    }
    const tail = (1 - level) / 2;
    const interval = (xs: Float64Array, m: number): Interval | null => {
      if (m === 0) return null;
      const sorted = xs.subarray(0, m).sort();
      return { low: quantile(sorted, tail), high: quantile(sorted, 1 - tail) };
    };
    result.pairwise = interval(pw, npw);
    // One distinct value: α is 1 in every resample.
    result.alphaMasi = alpha === null ? null : unanimous ? { low: 1, high: 1 } : interval(al, nal);
    return result;
  }
}

/**
 * Add one multinomial draw of n items over the classes to counts: class by
 * class (largest first), the number drawn from it is Binomial(items left,
 * its size / size of the classes left). The same distribution as n draws of
 * single items, in O(classes · √count) steps instead of O(n).
 */
function drawByClass(counts: Int32Array, n: number, plan: ClassPlan, logFact: Float64Array, state: number): number {
  const { order, p, logP, logQ } = plan;
  let x = state;
  let left = n;
  for (let i = 0; i < order.length && left > 0; i++) {
    const k = order[i];
    if (p[i] >= 1) {
      counts[k] = left;
      break;
    }
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const c = binomialDraw(left, p[i], ((x >>> 0) + 0.5) / 4294967296, logFact, logP[i], logQ[i]);
    counts[k] = c;
    left -= c;
  }
  return x;
}

/**
 * The classes in drawing order (largest first) and each one's conditional
 * probability size / (size of it and the classes after it), the same every resample.
 */
interface ClassPlan {
  order: Int32Array;
  p: Float64Array;
  logP: Float64Array;
  logQ: Float64Array;
}

function classPlan(sizes: readonly number[], n: number): ClassPlan {
  const order = Int32Array.from(sizes.keys()).sort((a, b) => sizes[b] - sizes[a] || a - b);
  const p = new Float64Array(order.length);
  let sizeLeft = n;
  for (let i = 0; i < order.length; i++) {
    const size = sizes[order[i]];
    p[i] = i === order.length - 1 ? 1 : size / sizeLeft;
    sizeLeft -= size;
  }
  return { order, p, logP: p.map(Math.log), logQ: p.map((x) => Math.log1p(-x)) };
}

/**
 * Binomial(N, p) by inversion of u in (0, 1): from 0 when the mean is small, else
 * from the mode outwards (Kemp 1986), so the search takes O(√(Np(1-p))) steps.
 * logFact[k] = ln k! for k <= N. Exported for its tests.
 */
export function binomialDraw(N: number, p: number, u: number, logFact: Float64Array, logP = Math.log(p), logQ = Math.log1p(-p)): number {
  if (N === 0 || p <= 0) return 0;
  if (p >= 1) return N;
  const q = 1 - p;
  const r = p / q;
  if (N * p < 12) {
    let k = 0;
    let pk = Math.exp(N * logQ);
    while (u > pk && k < N) {
      u -= pk;
      pk *= ((N - k) / (k + 1)) * r;
      k++;
    }
    return k;
  }
  const m = Math.min(N, Math.floor((N + 1) * p));
  const pm = Math.exp(logFact[N] - logFact[m] - logFact[N - m] + m * logP + (N - m) * logQ);
  u -= pm;
  if (u <= 0) return m;
  let lo = m;
  let hi = m;
  let plo = pm;
  let phi = pm;
  while (lo > 0 || hi < N) {
    if (lo > 0) {
      plo *= lo / ((N - lo + 1) * r);
      lo--;
      u -= plo;
      if (u <= 0) return lo;
    }
    if (hi < N) {
      phi *= ((N - hi) / (hi + 1)) * r;
      hi++;
      u -= phi;
      if (u <= 0) return hi;
    }
  }
  // Rounding left a sliver of probability unassigned: the mode takes it.
  return m;
}

/** Add n draws of single items to their classes' counts (when items rarely share a class). */
function drawByItem(counts: Int32Array, n: number, classOf: Int32Array, state: number): number {
  let x = state;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    counts[classOf[Math.floor(((x >>> 0) * n) / 4294967296)]]++;
  }
  return x;
}

/** xorshift32 state from a seed (never zero). */
function xorshiftState(seed: number): number {
  let x = Math.imul((seed | 0) ^ 0x9e3779b9, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x === 0 ? 0x6d2b79f5 : x;
}

/** The k items with the lowest pairwise agreement (ties: more pairs first, then gold order). */
function lowestItems(perItem: readonly ItemAgreement[], k: number): ItemAgreement[] {
  const out: ItemAgreement[] = [];
  if (k <= 0) return out;
  const before = (x: ItemAgreement, y: ItemAgreement) =>
    x.pairwise! < y.pairwise! || (x.pairwise === y.pairwise && x.pairs > y.pairs);
  for (const it of perItem) {
    if (it.pairwise === null) continue;
    if (out.length === k && !before(it, out[k - 1])) continue;
    let i = out.length === k ? k - 1 : out.length;
    if (out.length < k) out.push(it);
    while (i > 0 && before(it, out[i - 1])) {
      out[i] = out[i - 1];
      i--;
    }
    out[i] = it;
  }
  return out;
}

function histogram(perItem: readonly ItemAgreement[]): HistogramBin[] {
  const bins: HistogramBin[] = [];
  for (let b = 0; b < 10; b++) bins.push({ from: b / 10, to: (b + 1) / 10, count: 0 });
  for (const it of perItem) {
    if (it.pairwise === null) continue;
    bins[Math.min(9, Math.floor(it.pairwise * 10))].count++;
  }
  return bins;
}
