/** Precision, recall, F and means: shared by the scorers (CPA, LFi, ...). Pure. */
import { ratio } from "../../lexsub/ratio";

/** Precision, recall and their harmonic mean, null where undefined. */
export interface PRF {
  precision: number | null;
  recall: number | null;
  f: number | null;
}

export function prf(precision: number | null, recall: number | null): PRF {
  let f: number | null = null;
  if (precision !== null && recall !== null) {
    f = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  }
  return { precision, recall, f };
}

/** Precision and recall from counts (correct of given, correct of expected), with their F. */
export function prfCounts(correct: number, given: number, expected: number): PRF {
  return prf(ratio(correct, given), ratio(correct, expected));
}

/** Arithmetic mean, null for an empty list. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}
