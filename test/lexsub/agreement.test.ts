import { describe, expect, it } from "vitest";
import {
  ANNOTATOR_FIELDS,
  type AgreementOptions,
  GROUP_FIELDS,
  binomialDraw,
  computeAgreement,
  emptyAnnotatorSums,
  emptyGroupSums,
  masiAgreementSum,
  masiDistance,
  mulberry32,
  quantile,
} from "../../lib/lexsub/agreement";
import { type GoldInstance, deriveGold } from "../../lib/lexsub/gold";
import type { AnnotatorResponse } from "../../lib/lexsub/types";
import { wordnetLemmaProposer } from "../../lib/wordnet/load";

type Answer = string[] | "NAME" | "NIL" | null;

/**
 * Items from a table: annotator names, then per instance its answers in that
 * order (null: did not answer) and optional multiwords. Lemmatisation is off
 * (`unreviewed: "keep"`) so the sets are exactly the words written here.
 */
function agreement(
  annotators: string[],
  instances: { lexelt: string; id: string; answers: Answer[]; multiwords?: (string | null)[]; excluded?: string }[],
  options: AgreementOptions = {},
) {
  const insts: GoldInstance[] = [];
  const responses: AnnotatorResponse[] = [];
  for (const i of instances) {
    insts.push({ lexelt: i.lexelt, instanceId: i.id, excludedReason: i.excluded ?? null });
    i.answers.forEach((a, k) => {
      if (a === null) return;
      responses.push({
        annotator: annotators[k],
        lexelt: i.lexelt,
        instanceId: i.id,
        kind: a === "NAME" || a === "NIL" ? a : "substitutes",
        substitutes: Array.isArray(a) ? a : [],
        multiword: i.multiwords?.[k] ?? null,
      });
    });
  }
  const gold = deriveGold(insts, responses, { unreviewed: "keep" });
  expect(gold.problems).toEqual([]);
  return computeAgreement(gold.items, { bootstrapIterations: 200, ...options });
}

const close = (actual: number | null, expected: number | null) => {
  if (expected === null) expect(actual).toBeNull();
  else expect(actual).toBeCloseTo(expected, 12);
};

// ---------------------------------------------------------------------------
// A: the paper's happy.a item. Sets: A {glad, merry}, B {glad}, C {cheerful, glad},
// D {merry}, E {jovial}; H = glad 3, merry 2, cheerful 1, jovial 1; mode glad.
// Pairs |∩|/|∪|: AB 1/2, AC 1/3, AD 1/2, BC 1/2, the other six 0 → Σ = 11/6 over 10 pairs.
// Mode: A, B, C contain glad → 3/5.
const happy = () =>
  agreement(
    ["A", "B", "C", "D", "E"],
    [{ lexelt: "happy.a", id: "9999", answers: [["glad", "merry"], ["glad"], ["cheerful", "glad"], ["merry"], ["jovial"]] }],
  );

describe("A: the paper's happy.a item", () => {
  const r = happy();

  it("pairwise 11/60, mode agreement 3/5, α 0", () => {
    expect(r).toMatchObject({ items: 1, itemsWithMode: 1, pairs: 10, modeResponses: 5, mwInstances: 1, mwDetectionPairs: 10, mwIdentificationPairs: 0 });
    close(r.pairwise, 11 / 60);
    close(r.modeAgreement, 3 / 5);
    // Nobody flagged a multiword: all ten pairs agree on detection; no identification pairs.
    close(r.mwDetection, 1);
    close(r.mwIdentification, null);
    // MASI distances: AB {glad,merry}⊃{glad}: 1 - 1/2·2/3 = 2/3; AC overlap: 1 - 1/3·1/3 = 8/9;
    // AD 2/3; BC 2/3; the six disjoint pairs 1. Σ unordered = 80/9, ordered 160/9.
    // D_o = (160/9)/(5-1) / 5 = 8/9; D_e over the same five values = (160/9)/(5·4) = 8/9:
    // with a single item α = 1 - D_o/D_e = 0.
    close(r.alphaMasi, 0);
  });

  it.each([
    // annotator, own pairwise (mean of their 4 pairs), mode hit, without them: pairs Σ and mode
    ["A", (1 / 2 + 1 / 3 + 1 / 2) / 4, 1, { itemsWithMode: 1, pairwise: 1 / 12, modeResponses: 4, modeAgreement: 1 / 2 }],
    // Without B: glad 2, merry 2 tie → no mode.
    ["B", (1 / 2 + 1 / 2) / 4, 1, { itemsWithMode: 0, pairwise: 5 / 36, modeResponses: 0, modeAgreement: null }],
    ["C", (1 / 3 + 1 / 2) / 4, 1, { itemsWithMode: 0, pairwise: 1 / 6, modeResponses: 0, modeAgreement: null }],
    ["D", 1 / 2 / 4, 0, { itemsWithMode: 1, pairwise: 4 / 3 / 6, modeResponses: 4, modeAgreement: 3 / 4 }],
    ["E", 0, 0, { itemsWithMode: 1, pairwise: 11 / 6 / 6, modeResponses: 4, modeAgreement: 3 / 4 }],
  ])("annotator %s: pairwise %d, mode %d, and the figures without them", (name, pairwise, mode, without) => {
    const a = r.perAnnotator.find((p) => p.annotator === name)!;
    expect(a).toMatchObject({ items: 1, pairs: 4, modeResponses: 1, answered: 1, names: 0, nils: 0 });
    close(a.pairwise, pairwise);
    close(a.modeAgreement, mode);
    expect(a.without).toMatchObject({ items: 1, pairs: 6, itemsWithMode: without.itemsWithMode, modeResponses: without.modeResponses });
    close(a.without.pairwise, without.pairwise);
    close(a.without.modeAgreement, without.modeAgreement);
  });

  it("reports each annotator's mean number of substitutes", () => {
    expect(r.perAnnotator.map((a) => [a.annotator, a.meanSubstitutes])).toEqual([
      ["A", 2],
      ["B", 1],
      ["C", 2],
      ["D", 1],
      ["E", 1],
    ]);
  });

  it("gives the item, the histogram and the intervals of a one-item sample", () => {
    expect(r.perItem).toHaveLength(1);
    expect(r.perItem[0]).toMatchObject({ lexelt: "happy.a", instanceId: "9999", pos: "a", annotators: 5, pairs: 10, mode: "glad", modeResponses: 5 });
    close(r.perItem[0].pairwise, 11 / 60);
    expect(r.histogram.map((b) => b.count)).toEqual([0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    // Every resample is the same item.
    close(r.intervals.pairwise!.low, 11 / 60);
    close(r.intervals.pairwise!.high, 11 / 60);
    close(r.intervals.alphaMasi!.low, 0);
    close(r.intervals.alphaMasi!.high, 0);
  });

  it("leaves excluded instances out of every figure", () => {
    const withExcluded = agreement(
      ["A", "B", "C", "D", "E"],
      [
        { lexelt: "happy.a", id: "9999", answers: [["glad", "merry"], ["glad"], ["cheerful", "glad"], ["merry"], ["jovial"]] },
        { lexelt: "happy.a", id: "1", answers: [["sad"], ["sad"], ["sad"], ["sad"], ["sad"]], multiwords: ["x y"], excluded: "duplicate" },
      ],
    );
    expect({ ...withExcluded, intervals: null }).toEqual({ ...happy(), intervals: null });
  });
});

// ---------------------------------------------------------------------------
// B: two annotators, two items (a = ant, b = bee, c = cat). 1: A {a}, B {a}; 2: A {b}, B {b, c}.
// Pairwise: 1 and 1/2 → 3/4. Modes a (2/2 hits) and b (2/2) → 1.
// α: D_o: item 1 contributes 0; item 2 d({b},{b,c}) = 1 - 1/2·2/3 = 2/3, ordered 4/3, /(2-1).
//    D_o = (4/3)/4 = 1/3. D_e: unordered distances among {a},{a},{b},{b,c}:
//    a-a 0, a-b 1 (×2), a-bc 1 (×2), b-bc 2/3 → 14/3; ordered 28/3 over 4·3 → 7/9.
//    α = 1 - (1/3)/(7/9) = 4/7.
// With the rounded weights of older NLTK releases (0.67, 0.33): d = 1 - 0.5·0.67 = 0.665, D_o = 2·0.665/4 = 0.3325,
//    D_e = 2·(4 + 0.665)/12 = 0.7775, α = 1 - 0.3325/0.7775.
const pairItems = [
  { lexelt: "pair.n", id: "1", answers: [["ant"], ["ant"]] as Answer[] },
  { lexelt: "pair.n", id: "2", answers: [["bee"], ["bee", "cat"]] as Answer[] },
];

describe("B: two annotators, two items", () => {
  const r = agreement(["A", "B"], pairItems);

  it("pairwise 3/4, mode agreement 1, α 4/7", () => {
    expect(r).toMatchObject({ items: 2, itemsWithMode: 2, pairs: 2, modeResponses: 4 });
    close(r.pairwise, 3 / 4);
    close(r.modeAgreement, 1);
    close(r.alphaMasi, 4 / 7);
  });

  it("α with the rounded weights of older NLTK releases", () => {
    close(agreement(["A", "B"], pairItems, { masiWeights: "rounded" }).alphaMasi, 1 - 0.3325 / 0.7775);
  });

  it("without either annotator, T loses items and nothing is left to pair", () => {
    const [a, b] = r.perAnnotator;
    // Without A: item 1 has |H| = 1 (out of T); item 2 keeps b, c from B: in T, no pair, no mode (tie).
    expect(a.without).toEqual({ items: 1, itemsWithMode: 0, pairs: 0, pairwise: null, modeResponses: 0, modeAgreement: null });
    // Without B: item 1 |H| = 1, item 2 |H| = 1: T is empty.
    expect(b.without).toEqual({ items: 0, itemsWithMode: 0, pairs: 0, pairwise: null, modeResponses: 0, modeAgreement: null });
    close(a.pairwise, 3 / 4);
    close(b.pairwise, 3 / 4);
  });
});

// ---------------------------------------------------------------------------
// C: three annotators, three verb items (x = fox, y = yak, z = zebu).
// 1: A {x, y}, B {x}, C {z}   H = x 2, y 1, z 1 → mode x; pairs AB 1/2, AC 0, BC 0.
// 2: A {x, y}, B NIL, C NAME  H = x 1, y 1 → in T (|H| = 2), one value only, no mode.
// 3: A {z}, B {z}, C {z}      mode z; three pairs of 1.
// Pairwise (1/2 + 3)/6 = 7/12; mode (2 + 3)/(3 + 3) = 5/6.
// α: item 1 distances AB 1 - 1/2·2/3 = 2/3, AC 1, BC 1: ordered 16/3, /(3-1) = 8/3;
//    item 3: 0; item 2 has one value and is ignored. N = 6, D_o = (8/3)/6 = 4/9.
//    D_e: unordered among {x,y},{x},{z}×4: xy-x 2/3, xy-z 1 (×4), x-z 1 (×4), z-z 0 → 26/3;
//    ordered 52/3 over 6·5 → 26/45. α = 1 - (4/9)/(26/45) = 1 - 10/13 = 3/13.
const trioItems = [
  { lexelt: "trio.v", id: "11", answers: [["fox", "yak"], ["fox"], ["zebu"]] as Answer[] },
  { lexelt: "trio.v", id: "12", answers: [["fox", "yak"], "NIL", "NAME"] as Answer[] },
  { lexelt: "trio.v", id: "13", answers: [["zebu"], ["zebu"], ["zebu"]] as Answer[] },
];

describe("C: three annotators, an item with a single value", () => {
  const r = agreement(["A", "B", "C"], trioItems);

  it("pairwise 7/12, mode agreement 5/6, α 3/13; detection 1 over nine pairs", () => {
    expect(r).toMatchObject({ items: 3, itemsWithMode: 2, pairs: 6, modeResponses: 6, mwInstances: 3, mwDetectionPairs: 9 });
    close(r.pairwise, 7 / 12);
    close(r.modeAgreement, 5 / 6);
    close(r.alphaMasi, 3 / 13);
    close(r.mwDetection, 1);
    close(r.mwIdentification, null);
  });

  it.each([
    // A: pairs 1/2, 0 (item 1), 1, 1 (item 3) → 5/2 over 4; modes hit in 1 and 3.
    // Without A: item 1 B{x} C{z}: in T, pair 0, tie; item 2 empty; item 3 pair 1, mode z 2/2.
    ["A", { items: 3, pairs: 4, pairwise: 5 / 8, modeResponses: 2, modeAgreement: 1 }, { items: 2, itemsWithMode: 1, pairs: 2, pairwise: 1 / 2, modeResponses: 2, modeAgreement: 1 }],
    // B: 1/2, 0, 1, 1 → 5/8. Without B: item 1 A{x,y} C{z}: pair 0, x y z tie; item 2 unchanged; item 3 pair 1.
    ["B", { items: 2, pairs: 4, pairwise: 5 / 8, modeResponses: 2, modeAgreement: 1 }, { items: 3, itemsWithMode: 1, pairs: 2, pairwise: 1 / 2, modeResponses: 2, modeAgreement: 1 }],
    // C: 0, 0, 1, 1 → 1/2; misses the mode x of item 1. Without C: item 1 pair 1/2, mode x 2/2; item 3 pair 1, mode z 2/2.
    ["C", { items: 2, pairs: 4, pairwise: 1 / 2, modeResponses: 2, modeAgreement: 1 / 2 }, { items: 3, itemsWithMode: 2, pairs: 2, pairwise: 3 / 4, modeResponses: 4, modeAgreement: 1 }],
  ])("annotator %s", (name, own, without) => {
    const a = r.perAnnotator.find((p) => p.annotator === name)!;
    expect(a).toMatchObject({ items: own.items, pairs: own.pairs, modeResponses: own.modeResponses });
    close(a.pairwise, own.pairwise);
    close(a.modeAgreement, own.modeAgreement);
    expect(a.without).toMatchObject({ items: without.items, itemsWithMode: without.itemsWithMode, pairs: without.pairs, modeResponses: without.modeResponses });
    close(a.without.pairwise, without.pairwise);
    close(a.without.modeAgreement, without.modeAgreement);
  });

  it("counts NAME and NIL answers per annotator", () => {
    expect(r.perAnnotator.map((a) => [a.annotator, a.answered, a.names, a.nils])).toEqual([
      ["A", 3, 0, 0],
      ["B", 3, 0, 1],
      ["C", 3, 1, 0],
    ]);
  });

  it("lists items lowest first and bins them", () => {
    // Item 12 has no pair: no per-item figure, not listed.
    expect(r.perItem.map((i) => [i.instanceId, i.pairwise, i.modeAgreement])).toEqual([
      ["11", 1 / 6, 2 / 3],
      ["12", null, null],
      ["13", 1, 1],
    ]);
    expect(r.lowest.map((i) => i.instanceId)).toEqual(["11", "13"]);
    expect(r.histogram.map((b) => b.count)).toEqual([0, 1, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(agreement(["A", "B", "C"], trioItems, { lowestCount: 1 }).lowest.map((i) => i.instanceId)).toEqual(["11"]);
  });
});

// ---------------------------------------------------------------------------
// D: multiword agreement, over all instances (not only T).
// 1: A occur / take place, B happen / took place (kept as typed here), C NIL / take part, D happen / -.
// 2: A NIL, B NIL, C NAME, D NIL; nobody flags.
// Detection: item 1, 4 answers, 3 flagged: C(3,2) + C(1,2) = 3 of 6 pairs agree; item 2: 6 of 6 → 9/12.
// Identification: item 1's 3 flagging pairs, A-B both "take place"? No: B typed "took place", a
// different phrase without lemmatisation; so 0 of 3. With lemmatisation (see below) 1 of 3.
describe("D: multiword detection and identification", () => {
  const items = [
    { lexelt: "take.v", id: "1", answers: [["occur"], ["happen"], "NIL", ["happen"]] as Answer[], multiwords: ["take place", "took place", "take part", null] },
    { lexelt: "take.v", id: "2", answers: ["NIL", "NIL", "NAME", "NIL"] as Answer[] },
  ];

  it("detection 3/4, identification 0/3 on the phrases as typed", () => {
    const r = agreement(["A", "B", "C", "D"], items);
    expect(r).toMatchObject({ items: 1, mwInstances: 2, mwDetectionPairs: 12, mwIdentificationPairs: 3 });
    close(r.mwDetection, 3 / 4);
    close(r.mwIdentification, 0);
    // The one item in T: A {occur}, B {happen}, D {happen}: pairs 0, 0, 1 → 1/3; mode happen 2/3.
    close(r.pairwise, 1 / 3);
    close(r.modeAgreement, 2 / 3);
    // One item with values: α = 0.
    close(r.alphaMasi, 0);
    expect(r.perAnnotator.map((a) => a.multiwords)).toEqual([1, 1, 1, 0]);
  });

  it("identification 1/3 once the phrases are lemmatised (took place → take place)", () => {
    const responses: AnnotatorResponse[] = items.flatMap((i) =>
      i.answers.map((a, k) => ({
        annotator: "ABCD"[k],
        lexelt: i.lexelt,
        instanceId: i.id,
        kind: Array.isArray(a) ? ("substitutes" as const) : a!,
        substitutes: Array.isArray(a) ? a : [],
        multiword: i.multiwords?.[k] ?? null,
      })),
    );
    // Lemmatised as the project does (lib/server/gold/gold.ts passes the WordNet proposer).
    const gold = deriveGold(items.map((i) => ({ lexelt: i.lexelt, instanceId: i.id })), responses, { propose: wordnetLemmaProposer() });
    const r = computeAgreement(gold.items, { bootstrapIterations: 0 });
    close(r.mwIdentification, 1 / 3);
    close(r.mwDetection, 3 / 4);
  });
});

// ---------------------------------------------------------------------------
// E: NLTK's degenerate cases for α.
describe("E: α's edge cases, as NLTK decides them", () => {
  it.each([
    {
      name: "everyone gives the same set: one label value → 1",
      annotators: ["A", "B"],
      items: [
        { lexelt: "e.n", id: "1", answers: [["ant"], ["ant"]] as Answer[] },
        { lexelt: "e.n", id: "2", answers: [["ant"], ["ant"]] as Answer[] },
      ],
      alpha: 1,
      pairwise: 1,
    },
    {
      name: "one annotator, one item, one value → 1 (the one-value rule comes first)",
      annotators: ["A"],
      items: [{ lexelt: "e.n", id: "1", answers: [["ant", "bee"]] as Answer[] }],
      alpha: 1,
      pairwise: null,
    },
    {
      name: "several values, but the items with two or more hold only one → 1",
      annotators: ["A", "B"],
      items: [
        { lexelt: "e.n", id: "1", answers: [["ant"], ["ant"]] as Answer[] },
        { lexelt: "e.n", id: "2", answers: [["bee", "cat"], "NIL"] as Answer[] },
      ],
      alpha: 1,
      pairwise: 1,
    },
    {
      name: "no item with two values: NLTK divides by zero → null",
      annotators: ["A", "B"],
      items: [
        { lexelt: "e.n", id: "1", answers: [["ant", "bee"], "NIL"] as Answer[] },
        { lexelt: "e.n", id: "2", answers: ["NIL", ["cat", "dog"]] as Answer[] },
      ],
      alpha: null,
      pairwise: null,
    },
    {
      name: "no item in T: every figure null",
      annotators: ["A", "B"],
      items: [{ lexelt: "e.n", id: "1", answers: [["ant"], "NAME"] as Answer[] }],
      alpha: null,
      pairwise: null,
    },
  ])("$name", ({ annotators, items, alpha, pairwise }) => {
    const r = agreement(annotators, items);
    close(r.alphaMasi, alpha);
    close(r.pairwise, pairwise);
    if (alpha === 1) expect(r.intervals.alphaMasi).toEqual({ low: 1, high: 1 });
    if (alpha === null) expect(r.intervals.alphaMasi).toBeNull();
    if (pairwise === null) expect(r.intervals.pairwise).toBeNull();
  });

  it("an empty project: zeros and nulls, no crash", () => {
    const r = computeAgreement([]);
    expect(r).toMatchObject({ items: 0, pairs: 0, pairwise: null, modeAgreement: null, mwDetection: null, alphaMasi: null, perAnnotator: [], byPos: [], perItem: [] });
    expect(r.intervals).toEqual({ iterations: 1000, seed: 1, level: 0.95, pairwise: null, alphaMasi: null });
  });
});

// ---------------------------------------------------------------------------
// F: per PoS and per lexelt; B (nouns) and C (verbs) together.
// Overall pairwise (3/2 + 7/2)/(2 + 6) = 5/8; mode (4 + 5)/(4 + 6) = 9/10.
// Overall α: Σ_i ordered/(n-1) = 4/3 + 8/3 = 4 over N = 10 → D_o = 2/5. D_e: within B 14/3,
// within C 26/3, and the 4·6 cross pairs share nothing (d = 1): Σ unordered = 40/3 + 24 = 112/3,
// ordered 224/3 over 10·9 → 112/135. α = 1 - (2/5)(135/112) = 29/56.
describe("F: by PoS and by lexelt", () => {
  const r = agreement(["A", "B", "C"], [...pairItems, ...trioItems]);

  it("overall", () => {
    close(r.pairwise, 5 / 8);
    close(r.modeAgreement, 9 / 10);
    close(r.alphaMasi, 29 / 56);
  });

  it("each group has the figures of its items alone", () => {
    expect(r.byPos.map((g) => g.pos)).toEqual(["n", "v"]);
    expect(r.byLexelt.map((g) => [g.lexelt, g.pos])).toEqual([
      ["pair.n", "n"],
      ["trio.v", "v"],
    ]);
    const [n, v] = r.byPos;
    close(n.pairwise, 3 / 4);
    close(n.alphaMasi, 4 / 7);
    close(v.pairwise, 7 / 12);
    close(v.alphaMasi, 3 / 13);
    close(v.modeAgreement, 5 / 6);
    const { pos: _p, ...nFigures } = n;
    const { lexelt: _l, pos: _q, ...pairFigures } = r.byLexelt[0];
    expect(pairFigures).toEqual(nFigures);
  });
});

// ---------------------------------------------------------------------------
// G: the bootstrap.
describe("G: bootstrap intervals", () => {
  // 40 items, 3 annotators, answers drawn from a seeded generator over five words.
  const rand = mulberry32(42);
  const words = ["ant", "bee", "cat", "dog", "eel"];
  const many = Array.from({ length: 40 }, (_, i) => ({
    lexelt: "boot.n",
    id: String(i + 1),
    answers: [0, 1, 2].map(() => [...new Set([0, 1].map(() => words[Math.floor(rand() * rand() * words.length)]))]) as Answer[],
  }));

  it("is deterministic for a seed, and another seed gives another interval", () => {
    const a = agreement(["A", "B", "C"], many, { seed: 7 });
    const b = agreement(["A", "B", "C"], many, { seed: 7 });
    const c = agreement(["A", "B", "C"], many, { seed: 8 });
    expect(a.intervals).toEqual(b.intervals);
    expect(c.intervals.pairwise).not.toEqual(a.intervals.pairwise);
    expect(a.intervals).toMatchObject({ iterations: 200, seed: 7, level: 0.95 });
  });

  it("brackets the estimates", () => {
    const r = agreement(["A", "B", "C"], many, { bootstrapIterations: 1000 });
    const { pairwise, alphaMasi } = r.intervals;
    expect(pairwise!.low).toBeLessThan(r.pairwise!);
    expect(pairwise!.high).toBeGreaterThan(r.pairwise!);
    expect(alphaMasi!.low).toBeLessThan(r.alphaMasi!);
    expect(alphaMasi!.high).toBeGreaterThan(r.alphaMasi!);
  });

  it("is off with zero iterations", () => {
    expect(agreement(["A", "B", "C"], many, { bootstrapIterations: 0 }).intervals).toMatchObject({ pairwise: null, alphaMasi: null });
  });

  // The bootstrap draws how many items of each class a resample takes, one binomial
  // at a time: the sampler must have the binomial's mean and variance, on both of its
  // paths (mean under 12: search from 0; else from the mode outwards).
  it.each([
    [10, 0.3],
    [200, 0.01],
    [1000, 0.5],
    [5000, 0.9],
    [100000, 0.02],
  ])("binomialDraw(%i, %d) has mean Np and variance Np(1-p)", (N, p) => {
    const logFact = new Float64Array(N + 1);
    for (let k = 1; k <= N; k++) logFact[k] = logFact[k - 1] + Math.log(k);
    const rand = mulberry32(N);
    const draws = 20000;
    let sum = 0;
    let sq = 0;
    let outside = 0;
    for (let i = 0; i < draws; i++) {
      const k = binomialDraw(N, p, rand(), logFact);
      if (!Number.isInteger(k) || k < 0 || k > N) outside++;
      sum += k;
      sq += k * k;
    }
    expect(outside).toBe(0);
    const mean = sum / draws;
    const variance = sq / draws - mean * mean;
    const sd = Math.sqrt(N * p * (1 - p));
    // Within five standard errors of the mean; variance within 10%.
    expect(Math.abs(mean - N * p)).toBeLessThan((5 * sd) / Math.sqrt(draws));
    expect(Math.abs(variance / (N * p * (1 - p)) - 1)).toBeLessThan(0.1);
  });

  it.each([
    [[1, 2, 3, 4, 5], 0.5, 3],
    [[1, 2, 3, 4, 5], 0.025, 1.1],
    [[1, 2, 3, 4, 5], 0.975, 4.9],
    [[7], 0.025, 7],
  ])("quantile(%j, %d) = %d (linear interpolation)", (xs, q, expected) => {
    expect(quantile(xs, q)).toBeCloseTo(expected, 12);
  });
});

// ---------------------------------------------------------------------------
// H: MASI and the linear expected-disagreement sum.
describe("H: MASI distance and its sum over all pairs", () => {
  it.each([
    // NLTK's doctest pair: J = 2/4, subset → m = 2/3: 1 - 1/3 = 2/3 (0.665 with 0.67).
    [[1, 2], [1, 2, 3, 4], 2 / 3, 0.665],
    [[1, 2], [1, 2], 0, 0],
    [[1, 2], [3], 1, 1],
    // Overlap: J = 1/3, m = 1/3 → 8/9 (1 - 0.33/3 = 0.89).
    [[1, 2], [2, 3], 8 / 9, 1 - 0.33 / 3],
  ])("masiDistance(%j, %j) = %d (rounded %d)", (a, b, exact, rounded) => {
    expect(masiDistance(a, b)).toBeCloseTo(exact, 15);
    expect(masiDistance(a, b, true)).toBeCloseTo(rounded, 15);
  });

  /** Σ over ordered pairs, self pairs included, of 1 - d: the direct O(n²) definition. */
  const bruteForce = (values: number[][], rounded: boolean) => {
    let s = 0;
    for (const x of values) for (const y of values) s += 1 - masiDistance(x, y, rounded);
    return s;
  };

  const sets = (count: number, maxSize: number, vocabulary: number, seed: number) => {
    const rand = mulberry32(seed);
    return Array.from({ length: count }, () => {
      const size = 1 + Math.floor(rand() * maxSize);
      const s = new Set<number>();
      while (s.size < size) s.add(Math.floor(rand() * vocabulary));
      return [...s].sort((a, b) => a - b);
    });
  };

  it.each([
    ["few values: summed pair by pair", 30, 3, 6, 1],
    ["many values: counted through shared subsets", 400, 3, 12, 2],
    ["many values, sets up to five", 300, 5, 9, 3],
    ["many values over a large vocabulary", 500, 3, 3000, 4],
    ["sets larger than the subset limit", 80, 14, 20, 5],
  ])("%s", (_name, count, maxSize, vocabulary, seed) => {
    const values = sets(count, maxSize, vocabulary, seed);
    for (const rounded of [false, true]) {
      const expected = bruteForce(values, rounded);
      expect(Math.abs(masiAgreementSum(values, rounded) - expected)).toBeLessThan(1e-9 * expected);
    }
  });
});

describe("the empty sums", () => {
  // Written out field by field for speed: they must hold every field of the lists, in order, each 0
  // (the stored sums and the columns of agreement_sums and annotator_sums are read by the lists).
  it("hold every field of GROUP_FIELDS and ANNOTATOR_FIELDS, in order, at 0", () => {
    expect(Object.entries(emptyGroupSums())).toEqual(GROUP_FIELDS.map((k) => [k, 0]));
    expect(Object.entries(emptyAnnotatorSums())).toEqual(ANNOTATOR_FIELDS.map((k) => [k, 0]));
  });

  it("are new records each time", () => {
    const a = emptyAnnotatorSums();
    a.answered = 3;
    expect(emptyAnnotatorSums().answered).toBe(0);
  });
});
