/**
 * A dataset's imported gold (CoInCo, SWORDS, TSAR counts) joined to the gold
 * derived from annotators' responses: for each instance the imported counts are
 * added to H_i as if that many annotators had given the substitute, then the
 * entries, |H_i|, T, the mode and the gold line are recomputed the way
 * lib/lexsub/gold.ts computes them. Pure. See docs/datasets.md.
 */
import type { GoldEntry } from "./formats/gold";
import { type GoldResult, PN, sortEntries, uniqueMostFrequent } from "./gold";

/** instanceId → the imported entries with a positive count. */
export type ImportedGold = ReadonlyMap<string, readonly GoldEntry[]>;

export function withImportedGold(result: GoldResult, imported: ImportedGold): GoldResult {
  if (imported.size === 0) return result;
  const summary = { ...result.summary, goldLines: 0, inT: 0, withMode: 0 };
  const items = result.items.map((item) => {
    const extra = imported.get(item.instanceId);
    if (!extra || extra.length === 0) return item;
    const merged: GoldEntry[] = item.entries.map((e) => ({ ...e }));
    for (const e of extra) {
      const hit = merged.find((m) => m.substitute === e.substitute);
      if (hit) hit.count += e.count;
      else merged.push({ substitute: e.substitute, count: e.count });
    }
    const entries = sortEntries(merged);
    const size = entries.reduce((s, e) => s + (e.substitute === PN ? 0 : e.count), 0);
    const inT = size >= 2;
    const parts: (string | number)[] = [item.lexelt, " ", item.instanceId, " :: "];
    for (const e of entries) parts.push(e.substitute, " ", e.count, ";");
    return { ...item, entries, size, inT, mode: inT ? uniqueMostFrequent(entries) : null, line: entries.length > 0 ? parts.join("") : null };
  });
  for (const item of items) {
    if (item.excluded !== null) continue;
    if (item.line !== null) summary.goldLines++;
    if (item.inT) summary.inT++;
    if (item.mode !== null) summary.withMode++;
  }
  return { ...result, items, summary };
}
