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
