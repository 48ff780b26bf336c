/**
 * Python's `sorted(xs, key=…, reverse=…)` over float keys, as CPython orders
 * them. Without NaN any stable sort gives Python's order. A NaN compares
 * false with everything, so Python's order then follows its algorithm's steps
 * (timsort: the list reversed first for `reverse=True`, a first run counted,
 * binary insertion, the list reversed back); those steps are reproduced for
 * lists under 64 items, where CPython sorts by binary insertion alone. Pure.
 */

/** Python's order of the items, or null for a list of 64 or more with a NaN key (merge steps not reproduced). */
export function pySorted<T>(items: readonly T[], key: (x: T) => number, reverse: boolean): T[] | null {
  const keyed = items.map((x) => ({ x, k: key(x) }));
  if (!keyed.some((e) => Number.isNaN(e.k))) {
    const idx = keyed.map((e, i) => ({ e, i }));
    idx.sort((a, b) => {
      const [p, q] = reverse ? [b.e.k, a.e.k] : [a.e.k, b.e.k];
      return p < q ? -1 : p > q ? 1 : a.i - b.i;
    });
    return idx.map((v) => v.e.x);
  }
  if (keyed.length >= 64) return null;
  const a = reverse ? [...keyed].reverse() : [...keyed];
  const lt = (p: { k: number }, q: { k: number }) => p.k < q.k;
  const n = a.length;
  if (n >= 2) {
    // count_run: a strictly descending run is reversed in place.
    let run = 2;
    if (lt(a[1], a[0])) {
      while (run < n && lt(a[run], a[run - 1])) run++;
      a.splice(0, run, ...a.slice(0, run).reverse());
    } else {
      while (run < n && !lt(a[run], a[run - 1])) run++;
    }
    // binarysort from the end of the run.
    for (let start = run; start < n; start++) {
      const pivot = a[start];
      let l = 0;
      let r = start;
      while (l < r) {
        const p = l + ((r - l) >> 1);
        if (lt(pivot, a[p])) r = p;
        else l = p + 1;
      }
      a.splice(start, 1);
      a.splice(l, 0, pivot);
    }
  }
  if (reverse) a.reverse();
  return a.map((e) => e.x);
}
