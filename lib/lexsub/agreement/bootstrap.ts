/**
 * 95% intervals for pairwise agreement and α: a seeded percentile bootstrap over T's
 * items that resamples per-item sums (identical items pooled into classes).
 */
import type { GroupAcc } from "./group";
import { pairsOf } from "./pairwise";
import type { AgreementIntervals, Interval } from "./types";

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

/**
 * Per-item sums for the bootstrap, with identical items pooled into classes (a
 * resample only needs how many of each class it drew).
 */
export class BootstrapStats {
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
