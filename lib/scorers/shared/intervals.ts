/**
 * Bootstrap intervals for a run's precision and recall (the Scoring tab's chart): the items of T
 * resampled with replacement, each attempted item with its score, each other item with 0 and not
 * attempted; precision = Σ score / attempted and recall = Σ score / |T| in each resample; the
 * percentile interval of `level`. Seeded (the same run gives the same interval) and linear in
 * |T| per resample.
 */
import { mulberry32, quantile } from "../../lexsub/agreement";

export interface ScoreInterval {
  low: number;
  high: number;
}

export interface ScoreIntervals {
  iterations: number;
  level: number;
  precision: ScoreInterval | null;
  recall: ScoreInterval | null;
}

export function scoreIntervals(scores: readonly number[], total: number, options: { iterations?: number; seed?: number; level?: number } = {}): ScoreIntervals | null {
  const iterations = options.iterations ?? 1000;
  const level = options.level ?? 0.95;
  if (total <= 0 || scores.length > total || iterations <= 0) return null;
  const random = mulberry32(options.seed ?? 1);
  const p = new Float64Array(iterations);
  const r = new Float64Array(iterations);
  let pn = 0;
  for (let b = 0; b < iterations; b++) {
    let sum = 0;
    let attempted = 0;
    for (let k = 0; k < total; k++) {
      const i = Math.floor(random() * total);
      if (i < scores.length) {
        sum += scores[i];
        attempted++;
      }
    }
    r[b] = sum / total;
    if (attempted > 0) p[pn++] = sum / attempted;
  }
  const tail = (1 - level) / 2;
  const interval = (values: Float64Array): ScoreInterval | null => {
    if (values.length === 0) return null;
    const sorted = values.slice().sort();
    return { low: quantile(sorted, tail), high: quantile(sorted, 1 - tail) };
  };
  return { iterations, level, precision: interval(p.subarray(0, pn)), recall: interval(r) };
}
