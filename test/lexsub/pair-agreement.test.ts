/**
 * Pairwise agreement per pair of annotators (the heatmap's numbers): each pair over the items in T
 * where both gave substitutes; pooled over the pairs it is the overall pairwise figure; excluded
 * items, items outside T, NAME and NIL add nothing; topPairs keeps the annotators sharing the most.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeAgreement, pairAgreement, topPairs } from "../../lib/lexsub/agreement";
import { deriveGold, type GoldInstance } from "../../lib/lexsub/gold";
import type { AnnotatorResponse } from "../../lib/lexsub/types";

function items(rows: Array<{ id: string; excluded?: string; answers: Record<string, string[] | "NAME" | "NIL"> }>) {
  const insts: GoldInstance[] = rows.map((r) => ({ lexelt: "bright.a", instanceId: r.id, excludedReason: r.excluded ?? null }));
  const responses: AnnotatorResponse[] = rows.flatMap((r) =>
    Object.entries(r.answers).map(([annotator, a]) => ({
      annotator,
      lexelt: "bright.a",
      instanceId: r.id,
      kind: a === "NAME" || a === "NIL" ? a : ("substitutes" as const),
      substitutes: Array.isArray(a) ? a : [],
      multiword: null,
    })),
  );
  return deriveGold(insts, responses, { unreviewed: "keep" }).items;
}

describe("pairAgreement", () => {
  it("gives each pair its mean Jaccard over the items both answered, and 0 items for pairs who never met", () => {
    const g = items([
      { id: "1", answers: { ann: ["clever", "smart"], bob: ["clever"], cy: ["sunny"] } },
      { id: "2", answers: { ann: ["shining"], bob: ["shining", "sunny"] } },
      { id: "3", excluded: "typo", answers: { ann: ["x1"], cy: ["x1"] } },
      { id: "4", answers: { ann: "NAME", cy: ["vivid"], dee: ["vivid"] } },
    ]);
    const byPair = new Map(pairAgreement(g).map((p) => [`${p.a}-${p.b}`, p]));
    expect(byPair.get("ann-bob")).toEqual({ a: "ann", b: "bob", items: 2, pairwise: (1 / 2 + 1 / 2) / 2 });
    expect(byPair.get("ann-cy")).toEqual({ a: "ann", b: "cy", items: 1, pairwise: 0 });
    expect(byPair.get("cy-dee")).toEqual({ a: "cy", b: "dee", items: 1, pairwise: 1 });
    expect(byPair.get("ann-dee")).toEqual({ a: "ann", b: "dee", items: 0, pairwise: null });
    expect(byPair.size).toBe(6);
  });

  it("pooled over its pairs, it is the overall pairwise agreement", () => {
    const word = fc.constantFrom("a1", "b1", "c1", "d1", "e1");
    const answer = fc.oneof(fc.uniqueArray(word, { minLength: 1, maxLength: 3 }), fc.constant("NIL" as const));
    fc.assert(
      fc.property(fc.array(fc.dictionary(fc.constantFrom("ann", "bob", "cy", "dee"), answer), { minLength: 1, maxLength: 12 }), (rows) => {
        const g = items(rows.map((answers, k) => ({ id: String(k + 1), answers })));
        const pairs = pairAgreement(g);
        const n = pairs.reduce((s, p) => s + p.items, 0);
        const sum = pairs.reduce((s, p) => s + (p.pairwise ?? 0) * p.items, 0);
        const overall = computeAgreement(g, { bootstrapIterations: 0 }).pairwise;
        if (n === 0) expect(overall).toBeNull();
        else expect(sum / n).toBeCloseTo(overall!, 12);
      }),
      { numRuns: 200 },
    );
  });

  it("topPairs keeps the pairs among the annotators who share the most items, and counts them all", () => {
    const pairs = [
      { a: "ann", b: "bob", items: 10, pairwise: 0.5 },
      { a: "ann", b: "cy", items: 1, pairwise: 0.1 },
      { a: "bob", b: "cy", items: 1, pairwise: 0.2 },
      { a: "ann", b: "dee", items: 0, pairwise: null },
    ];
    expect(topPairs(pairs, 2)).toEqual({ pairs: [pairs[0]], annotators: 4 });
    expect(topPairs(pairs, 4).pairs).toHaveLength(4);
  });
});
