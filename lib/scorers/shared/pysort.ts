/**
 * Python's `sorted(xs, key=…, reverse=…)` over float keys, as CPython orders
 * them. Without NaN any stable sort gives Python's order. A NaN compares
 * false with everything, so Python's order then follows its algorithm's
 * steps: CPython 2.7's timsort (listobject.c) is reproduced — the list
 * reversed first for `reverse=True`, runs counted and extended by binary
 * insertion to minrun, merged with galloping, the list reversed back.
 * (Python 3.11 merges runs in another order, powersort: lists of 64 or more
 * holding a NaN may differ there.) Pure.
 */

type Keyed<T> = { x: T; k: number };

const lt = (p: { k: number }, q: { k: number }) => p.k < q.k;

/** CPython 2.7's gallop_left: k with a[base+k-1] < key <= a[base+k] (hint: where to start). */
function gallopLeft<T>(key: Keyed<T>, a: Keyed<T>[], base: number, n: number, hint: number): number {
  let lastofs = 0;
  let ofs = 1;
  if (lt(a[base + hint], key)) {
    const maxofs = n - hint;
    while (ofs < maxofs) {
      if (lt(a[base + hint + ofs], key)) {
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      } else break;
    }
    if (ofs > maxofs) ofs = maxofs;
    lastofs += hint;
    ofs += hint;
  } else {
    const maxofs = hint + 1;
    while (ofs < maxofs) {
      if (lt(a[base + hint - ofs], key)) break;
      lastofs = ofs;
      ofs = (ofs << 1) + 1;
    }
    if (ofs > maxofs) ofs = maxofs;
    const k = lastofs;
    lastofs = hint - ofs;
    ofs = hint - k;
  }
  lastofs++;
  while (lastofs < ofs) {
    const m = lastofs + ((ofs - lastofs) >> 1);
    if (lt(a[base + m], key)) lastofs = m + 1;
    else ofs = m;
  }
  return ofs;
}

/** CPython 2.7's gallop_right: k with a[base+k-1] <= key < a[base+k]. */
function gallopRight<T>(key: Keyed<T>, a: Keyed<T>[], base: number, n: number, hint: number): number {
  let lastofs = 0;
  let ofs = 1;
  if (lt(key, a[base + hint])) {
    const maxofs = hint + 1;
    while (ofs < maxofs) {
      if (lt(key, a[base + hint - ofs])) {
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      } else break;
    }
    if (ofs > maxofs) ofs = maxofs;
    const k = lastofs;
    lastofs = hint - ofs;
    ofs = hint - k;
  } else {
    const maxofs = n - hint;
    while (ofs < maxofs) {
      if (lt(key, a[base + hint + ofs])) break;
      lastofs = ofs;
      ofs = (ofs << 1) + 1;
    }
    if (ofs > maxofs) ofs = maxofs;
    lastofs += hint;
    ofs += hint;
  }
  lastofs++;
  while (lastofs < ofs) {
    const m = lastofs + ((ofs - lastofs) >> 1);
    if (lt(key, a[base + m])) ofs = m;
    else lastofs = m + 1;
  }
  return ofs;
}

const MIN_GALLOP = 7;

/** CPython 2.7's timsort (listobject.c): runs, binary insertion to minrun, merges with galloping. */
function timsort<T>(a: Keyed<T>[]): void {
  const n = a.length;
  if (n < 2) return;
  const state = { minGallop: MIN_GALLOP };
  const pending: { base: number; len: number }[] = [];

  const countRun = (lo: number, hi: number): { n: number; descending: boolean } => {
    if (lo + 1 === hi) return { n: 1, descending: false };
    let k = 2;
    if (lt(a[lo + 1], a[lo])) {
      for (let i = lo + 2; i < hi && lt(a[i], a[i - 1]); i++) k++;
      return { n: k, descending: true };
    }
    for (let i = lo + 2; i < hi && !lt(a[i], a[i - 1]); i++) k++;
    return { n: k, descending: false };
  };
  const binarySort = (lo: number, hi: number, start: number) => {
    if (lo === start) start++;
    for (; start < hi; start++) {
      const pivot = a[start];
      let l = lo;
      let r = start;
      while (l < r) {
        const p = l + ((r - l) >> 1);
        if (lt(pivot, a[p])) r = p;
        else l = p + 1;
      }
      for (let p = start; p > l; p--) a[p] = a[p - 1];
      a[l] = pivot;
    }
  };
  const mergeLo = (pa0: number, na: number, pb: number, nb: number) => {
    const tmp = a.slice(pa0, pa0 + na);
    let pa = 0;
    let dest = pa0;
    a[dest++] = a[pb++];
    nb--;
    const finish = () => {
      for (let i = 0; i < na; i++) a[dest + i] = tmp[pa + i];
    };
    const copyB = () => {
      for (let i = 0; i < nb; i++) a[dest + i] = a[pb + i];
      a[dest + nb] = tmp[pa];
    };
    if (nb === 0) return finish();
    if (na === 1) return copyB();
    let minGallop = state.minGallop;
    for (;;) {
      let acount = 0;
      let bcount = 0;
      for (;;) {
        if (lt(a[pb], tmp[pa])) {
          a[dest++] = a[pb++];
          bcount++;
          acount = 0;
          if (--nb === 0) return finish();
          if (bcount >= minGallop) break;
        } else {
          a[dest++] = tmp[pa++];
          acount++;
          bcount = 0;
          if (--na === 1) return copyB();
          if (acount >= minGallop) break;
        }
      }
      minGallop++;
      do {
        minGallop -= minGallop > 1 ? 1 : 0;
        state.minGallop = minGallop;
        let k = gallopRight(a[pb], tmp, pa, na, 0);
        acount = k;
        if (k) {
          for (let i = 0; i < k; i++) a[dest + i] = tmp[pa + i];
          dest += k;
          pa += k;
          na -= k;
          if (na === 1) return copyB();
          if (na === 0) return finish();
        }
        a[dest++] = a[pb++];
        if (--nb === 0) return finish();
        k = gallopLeft(tmp[pa], a, pb, nb, 0);
        bcount = k;
        if (k) {
          for (let i = 0; i < k; i++) a[dest + i] = a[pb + i];
          dest += k;
          pb += k;
          nb -= k;
          if (nb === 0) return finish();
        }
        a[dest++] = tmp[pa++];
        if (--na === 1) return copyB();
      } while (acount >= MIN_GALLOP || bcount >= MIN_GALLOP);
      minGallop++;
      state.minGallop = minGallop;
    }
  };
  const mergeHi = (pa0: number, na: number, pb0: number, nb: number) => {
    const tmp = a.slice(pb0, pb0 + nb);
    let dest = pb0 + nb - 1;
    let pb = nb - 1;
    let pa = pa0 + na - 1;
    a[dest--] = a[pa--];
    na--;
    const finish = () => {
      for (let i = 0; i < nb; i++) a[dest - (nb - 1) + i] = tmp[i];
    };
    const copyA = () => {
      dest -= na;
      pa -= na;
      for (let i = na; i >= 1; i--) a[dest + i] = a[pa + i];
      a[dest] = tmp[pb];
    };
    if (na === 0) return finish();
    if (nb === 1) return copyA();
    let minGallop = state.minGallop;
    for (;;) {
      let acount = 0;
      let bcount = 0;
      for (;;) {
        if (lt(tmp[pb], a[pa])) {
          a[dest--] = a[pa--];
          acount++;
          bcount = 0;
          if (--na === 0) return finish();
          if (acount >= minGallop) break;
        } else {
          a[dest--] = tmp[pb--];
          bcount++;
          acount = 0;
          if (--nb === 1) return copyA();
          if (bcount >= minGallop) break;
        }
      }
      minGallop++;
      do {
        minGallop -= minGallop > 1 ? 1 : 0;
        state.minGallop = minGallop;
        let k = gallopRight(tmp[pb], a, pa0, na, na - 1);
        k = na - k;
        acount = k;
        if (k) {
          dest -= k;
          pa -= k;
          for (let i = k; i >= 1; i--) a[dest + i] = a[pa + i];
          na -= k;
          if (na === 0) return finish();
        }
        a[dest--] = tmp[pb--];
        if (--nb === 1) return copyA();
        k = gallopLeft(a[pa], tmp, 0, nb, nb - 1);
        k = nb - k;
        bcount = k;
        if (k) {
          dest -= k;
          pb -= k;
          for (let i = 1; i <= k; i++) a[dest + i] = tmp[pb + i];
          nb -= k;
          if (nb === 1) return copyA();
          if (nb === 0) return finish();
        }
        a[dest--] = a[pa--];
        if (--na === 0) return finish();
      } while (acount >= MIN_GALLOP || bcount >= MIN_GALLOP);
      minGallop++;
      state.minGallop = minGallop;
    }
  };
  const mergeAt = (i: number) => {
    let pa = pending[i].base;
    let na = pending[i].len;
    const pb = pending[i + 1].base;
    let nb = pending[i + 1].len;
    pending[i].len = na + nb;
    pending.splice(i + 1, 1);
    const k = gallopRight(a[pb], a, pa, na, 0);
    pa += k;
    na -= k;
    if (na === 0) return;
    nb = gallopLeft(a[pa + na - 1], a, pb, nb, nb - 1);
    if (nb <= 0) return;
    if (na <= nb) mergeLo(pa, na, pb, nb);
    else mergeHi(pa, na, pb, nb);
  };
  const mergeCollapse = () => {
    while (pending.length > 1) {
      let m = pending.length - 2;
      const p = pending;
      if ((m > 0 && p[m - 1].len <= p[m].len + p[m + 1].len) || (m > 1 && p[m - 2].len <= p[m - 1].len + p[m].len)) {
        if (p[m - 1].len < p[m + 1].len) m--;
        mergeAt(m);
      } else if (p[m].len <= p[m + 1].len) mergeAt(m);
      else break;
    }
  };

  let minrun = n;
  let r = 0;
  while (minrun >= 64) {
    r |= minrun & 1;
    minrun >>= 1;
  }
  minrun += r;
  let lo = 0;
  let remaining = n;
  while (remaining > 0) {
    const run = countRun(lo, lo + remaining);
    let len = run.n;
    if (run.descending) a.splice(lo, len, ...a.slice(lo, lo + len).reverse());
    if (len < minrun) {
      const force = remaining <= minrun ? remaining : minrun;
      binarySort(lo, lo + force, lo + len);
      len = force;
    }
    pending.push({ base: lo, len });
    mergeCollapse();
    lo += len;
    remaining -= len;
  }
  while (pending.length > 1) {
    let m = pending.length - 2;
    if (m > 0 && pending[m - 1].len < pending[m + 1].len) m--;
    mergeAt(m);
  }
}

/** Python's order of the items: `sorted(items, key=key, reverse=reverse)` as CPython 2.7 sorts. */
export function pySorted<T>(items: readonly T[], key: (x: T) => number, reverse: boolean): T[] {
  const keyed = items.map((x) => ({ x, k: key(x) }));
  if (!keyed.some((e) => Number.isNaN(e.k))) {
    // Without NaN every stable sort gives Python's order.
    const idx = keyed.map((e, i) => ({ e, i }));
    idx.sort((a, b) => {
      const [p, q] = reverse ? [b.e.k, a.e.k] : [a.e.k, b.e.k];
      return p < q ? -1 : p > q ? 1 : a.i - b.i;
    });
    return idx.map((v) => v.e.x);
  }
  // reverse=True: the list reversed, sorted ascending (stable), reversed back.
  const a = reverse ? keyed.reverse() : keyed;
  timsort(a);
  if (reverse) a.reverse();
  return a.map((e) => e.x);
}
