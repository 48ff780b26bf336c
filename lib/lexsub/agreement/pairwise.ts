/** Pairwise agreement (paper §2.2): |A ∩ B| / |A ∪ B| over pairs of annotators who both gave substitutes. */
import type { GoldItem } from "../gold";

/** The fields of an item its pairwise agreement reads. */
type PairwiseItem = Pick<GoldItem, "excluded" | "inT" | "responses">;

export function pairsOf(n: number): number {
  return (n * (n - 1)) / 2;
}

/**
 * One item's pairwise agreement, as computeAgreement's perItem reports it: over
 * the annotators who gave substitutes, the mean of |A ∩ B| / |A ∪ B| over their
 * pairs; null when the item is excluded, not in T, or fewer than two annotators
 * gave substitutes. O(annotators² · substitutes) per item, no allocation per pair:
 * the review queue orders every instance of a project by it.
 */
export function itemPairwise(item: PairwiseItem): number | null {
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

/** Two annotators' agreement over the items in T where both gave substitutes. */
export interface PairAgreement {
  /** The two annotators, `a` before `b` in the order they are first met. */
  a: string;
  b: string;
  /** Items in T where both gave substitutes. */
  items: number;
  /** The mean of |A ∩ B| / |A ∪ B| over those items; null when none. */
  pairwise: number | null;
}

/**
 * Pairwise agreement for every pair of annotators (the Agreement page's heatmap): over the items
 * in T (not excluded) where both gave substitutes, the mean of |A ∩ B| / |A ∪ B|, the same
 * quantity as the overall figure, split by pair. Pairs who never met on an item are listed with
 * 0 items. O(items · annotators² per item).
 */
export function pairAgreement(
  items: Iterable<Pick<GoldItem, "excluded" | "inT"> & { responses: readonly { annotator: string; substitutes: readonly string[] }[] }>,
): PairAgreement[] {
  const order = new Map<string, number>();
  const sums = new Map<string, { items: number; sum: number }>();
  for (const item of items) {
    for (const r of item.responses) if (!order.has(r.annotator)) order.set(r.annotator, order.size);
    if (item.excluded !== null || !item.inT) continue;
    const given = item.responses.filter((r) => r.substitutes.length > 0).sort((x, y) => order.get(x.annotator)! - order.get(y.annotator)!);
    for (let u = 0; u < given.length; u++) {
      const a = given[u].substitutes;
      for (let v = u + 1; v < given.length; v++) {
        const b = given[v].substitutes;
        let k = 0;
        for (const x of a) if (b.includes(x)) k++;
        const key = `${given[u].annotator}\u0000${given[v].annotator}`;
        const s = sums.get(key) ?? { items: 0, sum: 0 };
        s.items++;
        s.sum += k / (a.length + b.length - k);
        sums.set(key, s);
      }
    }
  }
  const names = [...order.keys()];
  const out: PairAgreement[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const s = sums.get(`${names[i]}\u0000${names[j]}`);
      out.push({ a: names[i], b: names[j], items: s?.items ?? 0, pairwise: s ? s.sum / s.items : null });
    }
  }
  return out;
}

/**
 * The pairs among the `max` annotators who share the most items (all pairs when there are no more):
 * what a heatmap can draw legibly, and bounded whatever the crowd's size.
 */
export function topPairs(pairs: readonly PairAgreement[], max: number): { pairs: PairAgreement[]; annotators: number } {
  const shared = new Map<string, number>();
  for (const p of pairs) {
    shared.set(p.a, (shared.get(p.a) ?? 0) + p.items);
    shared.set(p.b, (shared.get(p.b) ?? 0) + p.items);
  }
  if (shared.size <= max) return { pairs: [...pairs], annotators: shared.size };
  const keep = new Set([...shared.keys()].sort((x, y) => shared.get(y)! - shared.get(x)! || (x < y ? -1 : 1)).slice(0, max));
  return { pairs: pairs.filter((p) => keep.has(p.a) && keep.has(p.b)), annotators: shared.size };
}
