/**
 * MASI and the sums behind Krippendorff's α, NLTK's definitions (nltk.metrics.distance.masi_distance,
 * AnnotationTask.alpha; checked against NLTK 3.10.3). Sets are sorted arrays of distinct
 * substitute ids (sets.ts). α's expected disagreement is counted through shared subsets,
 * never by a loop over all pairs of values; its observed disagreement and NLTK's degenerate
 * cases are in group.ts.
 */
import { intersectionSize } from "./sets";

/**
 * MASI's monotonicity weight m. Current NLTK uses Passonneau's exact 2/3 and 1/3
 * (nltk/nltk#3695); older releases used the rounded 0.67 and 0.33 (`rounded`).
 */
export function masiM(la: number, lb: number, k: number, rounded: boolean): number {
  if (la === lb && la === k) return 1;
  if (k === (la < lb ? la : lb)) return rounded ? 0.67 : 2 / 3;
  if (k > 0) return rounded ? 0.33 : 1 / 3;
  return 0;
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
export function masiAgreementSums(
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

function binomial(n: number, k: number): number {
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return r;
}

/** Each lexelt's Σ of MASI similarity over ordered pairs of its pairable values. */
export function lexeltAgreementSums(
  flat: readonly number[],
  start: readonly number[],
  tokValue: readonly number[],
  tokLex: readonly number[],
  lexAccs: { agreementSum: number }[],
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
