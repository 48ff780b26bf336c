/** Pure number helpers shared by the agreement measures (lib/lexsub) and the scorers (lib/scorers). */

/** A proportion that is undefined (null) when its denominator is zero. */
export function ratio(num: number, den: number): number | null {
  return den === 0 ? null : num / den;
}
