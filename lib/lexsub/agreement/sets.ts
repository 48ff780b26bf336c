/**
 * Substitute sets as the agreement measures read them: sorted arrays of distinct
 * substitute ids; many sets are stored flat: set t is flat[start[t]] .. flat[start[t + 1] - 1].
 */

/** |A ∩ B| for A = f[a0..a1), B = f[b0..b1), both sorted. */
export function intersectionSize(f: ArrayLike<number>, a0: number, a1: number, b0: number, b1: number): number {
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

/** A key for the set f[s0..s1): a number for up to three small ids, else a string. */
export function setKey(f: readonly number[], s0: number, s1: number): number | string {
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

/** Whether f[s0..s1) holds exactly the set `first`. */
export function sameSet(first: readonly number[], f: ArrayLike<number>, s0: number, s1: number): boolean {
  if (first.length !== s1 - s0) return false;
  for (let i = 0; i < first.length; i++) if (first[i] !== f[s0 + i]) return false;
  return true;
}
