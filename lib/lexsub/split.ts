/**
 * The "split the lexelts evenly over these annotators with k per instance" rule
 * of the Team tab. Pure.
 */

export interface SplitLexelt {
  id: number;
  instances: number;
}

/**
 * Give each lexelt to k of the annotators (all of them when there are fewer than k),
 * the ones with the fewest instances so far, ties to the earlier annotator in the
 * list. Lexelts are dealt largest first (ties in the order given), which keeps the
 * instance counts within one lexelt's size of each other. Returns each annotator's
 * lexelt ids in the order the lexelts were given.
 */
export function splitEvenly(lexelts: readonly SplitLexelt[], annotators: readonly number[], k: number): Map<number, number[]> {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a whole number ≥ 1, got ${k}`);
  if (new Set(annotators).size !== annotators.length) throw new RangeError("an annotator is listed twice");
  const per = Math.min(k, annotators.length);
  const load = annotators.map(() => 0);
  const chosen = annotators.map(() => new Set<number>());
  const order = lexelts.map((l, i) => ({ l, i })).sort((a, b) => b.l.instances - a.l.instances || a.i - b.i);
  for (const { l } of order) {
    const picks = annotators
      .map((_, j) => j)
      .sort((a, b) => load[a] - load[b] || a - b)
      .slice(0, per);
    for (const j of picks) {
      chosen[j].add(l.id);
      load[j] += l.instances;
    }
  }
  return new Map(annotators.map((id, j) => [id, lexelts.filter((l) => chosen[j].has(l.id)).map((l) => l.id)]));
}
