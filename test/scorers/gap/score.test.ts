import { describe, expect, it } from "vitest";
import { gapItem, gapMean, parseLstGapGold, parseRanked, scoreGapBenchmark, topKItem, topKMeans } from "../../../lib/scorers/ranking";

const w = (pairs: [string, number][]) => pairs.map(([substitute, weight]) => ({ substitute, weight }));

describe("GAP per item, each reference variant", () => {
  // Gold sorted: bright 3, clever 2, smart 1. Denominator (sorted): 3/1 + 5/2 + 6/3 = 7.5
  const gold = w([["bright", 3], ["clever", 2], ["smart", 1]]);

  it.each([
    // system ranking, numerator by hand
    [["bright", "clever", "smart"], 3 / 1 + 5 / 2 + 6 / 3], // perfect: GAP 1
    [["smart", "clever", "bright"], 1 / 1 + 3 / 2 + 6 / 3],
    [["dull", "clever", "witty", "bright"], 2 / 2 + 5 / 4],
    [[], 0],
  ])("melamud: %j", (ranked, numerator) => {
    const r = gapItem(gold, ranked as string[], { variant: "melamud" });
    expect(r.denominator).toBeCloseTo(7.5, 12);
    expect(r.numerator).toBeCloseTo(numerator, 12);
    expect(r.gap).toBeCloseTo(numerator / 7.5, 12);
  });

  it("unsorted gold: melamud sorts it for the denominator, lexsubgen takes it as given", () => {
    const unsorted = w([["smart", 1], ["clever", 2], ["bright", 3]]);
    const m = gapItem(unsorted, ["bright"], { variant: "melamud" });
    expect(m.denominator).toBeCloseTo(7.5, 12);
    expect(m.gap).toBeCloseTo(3 / 7.5, 12);
    // lexsubgen: 1/1 + 3/2 + 6/3 = 4.5
    const l = gapItem(unsorted, ["bright"], { variant: "lexsubgen" });
    expect(l.denominator).toBeCloseTo(4.5, 12);
    expect(l.gap).toBeCloseTo(3 / 4.5, 12);
  });

  it("ties in the gold and in the system: the order given decides, stably", () => {
    const tied = w([["a", 2], ["b", 2], ["c", 1]]);
    // denominator: 2/1 + 4/2 + 5/3
    const den = 2 + 2 + 5 / 3;
    expect(gapItem(tied, ["b", "a"]).denominator).toBeCloseTo(den, 12);
    expect(gapItem(tied, ["b", "a"]).numerator).toBeCloseTo(2 + 4 / 2, 12);
    // scored system lists with tied scores keep the order given (lst format)
    const run = parseRanked("RESULT\tx.n 1\tc 0.5\ta 0.5\tb 0.9\n", "tie.lst", "lst");
    expect(run.items[0].candidates.map((c) => c.substitute)).toEqual(["b", "c", "a"]);
  });

  it("zero-weight gold entries: melamud counts only positive ones in the denominator's ranks, lexsubgen counts all", () => {
    const g = w([["a", 2], ["z", 0], ["b", 1]]);
    expect(gapItem(g, ["a", "b"], { variant: "melamud" }).denominator).toBeCloseTo(2 + 3 / 2, 12);
    // lexsubgen, as given: 2/1 + 2/2 + 3/3
    expect(gapItem(g, ["a", "b"], { variant: "lexsubgen" }).denominator).toBeCloseTo(4, 12);
  });

  it("items with no positive gold: −1 (melamud, swords), null (lexsubgen); the means differ", () => {
    const none = w([["a", 0]]);
    expect(gapItem(none, ["a"], { variant: "melamud" }).gap).toBe(-1);
    expect(gapItem(none, ["a"], { variant: "swords" }).gap).toBe(-1);
    expect(gapItem([], ["a"], { variant: "lexsubgen" }).gap).toBeNull();
    const items = [gapItem(w([["a", 1]]), ["a"]), gapItem(none, ["a"])];
    expect(gapMean(items, "melamud")).toEqual({ gap: 1, used: 1, ignored: 1 });
    expect(gapMean(items, "swords")).toEqual({ gap: 0, used: 2, ignored: 0 });
  });

  it("repeated system candidates: both count each place (LexSubGen's gap_score does, whatever its docstring says)", () => {
    const g = w([["a", 1], ["b", 1]]);
    // melamud: a at 1 → 1/1, a again at 2 → 2/2, b at 3 → 3/3 = 3; den 1 + 2/2 = 2
    expect(gapItem(g, ["a", "a", "b"], { variant: "melamud" }).numerator).toBeCloseTo(3, 12);
    // lexsubgen: compute_gap_nominator walks every place: 1/1 + 2/2 + 3/3 = 3
    expect(gapItem(g, ["a", "a", "b"], { variant: "lexsubgen" }).numerator).toBeCloseTo(3, 12);
  });

  it("no-mwe: melamud drops spaces and hyphens, lexsubgen keeps letters only", () => {
    const g = w([["give up", 3], ["quit", 2], ["e-mail", 1], ["stop2", 1]]);
    const ranked = ["give up", "quit", "stop2"];
    // melamud: gold quit 2, stop2 1 → den 2 + 3/2; system [quit, stop2] → 2 + 3/2
    expect(gapItem(g, ranked, { variant: "melamud", noMwe: true }).gap).toBeCloseTo(1, 12);
    // lexsubgen: gold quit 2 → den 2; system [quit] → 2
    const l = gapItem(g, ranked, { variant: "lexsubgen", noMwe: true });
    expect(l.denominator).toBeCloseTo(2, 12);
    expect(l.gap).toBeCloseTo(1, 12);
    // nothing left: melamud −1
    expect(gapItem(w([["give up", 1]]), ["give up"], { variant: "melamud", noMwe: true }).gap).toBe(-1);
  });
});

describe("P@1, P@3, R@10", () => {
  it("|top_k ∩ G| ÷ k and ÷ |G|, averaged over items with gold", () => {
    const a = topKItem(w([["x", 2], ["y", 1]]), ["x", "q", "y", "z"], [1, 3, 10]);
    const b = topKItem(w([["m", 1], ["n", 1], ["o", 1], ["p", 1]]), ["q", "m"], [1, 3, 10]);
    const none = topKItem([], ["q"], [1, 3, 10]);
    expect(topKMeans([a, b, none], 1)).toEqual({ precision: (1 + 0) / 2, recall: (1 / 2 + 0) / 2, items: 2 });
    const p3 = topKMeans([a, b, none], 3);
    expect(p3.precision).toBeCloseTo((2 / 3 + 1 / 3) / 2, 12);
    expect(topKMeans([a, b, none], 10).recall).toBeCloseTo((2 / 2 + 1 / 4) / 2, 12);
  });
});

describe("the GAP benchmark over a SemEval gold and an oot file", () => {
  const gold = parseLstGapGold("bright.a 1 :: clever 3;smart 1;\nbright.a 2 :: shiny 2;\nbright.a 3 :: vivid 1;\n", "sample.gold");
  it("ranks the oot guesses in order; a gold item without a ranking ranks nothing", () => {
    const run = parseRanked("bright.a 1 ::: smart;clever\nbright.a 2 ::: dull;shiny\n", "sample.oot");
    expect(run.format).toBe("oot");
    const r = scoreGapBenchmark(gold, run);
    // item 1: den 3 + 4/2 = 5; num: smart@1 → 1, clever@2 → 4/2 → 3 → 0.6
    // item 2: den 2; num: shiny@2 → 2/2 = 1 → 0.5;  item 3: missing → 0
    expect(r.items.map((i) => i.gap)).toEqual([expect.closeTo(0.6, 12), expect.closeTo(0.5, 12), 0]);
    expect(r.gap).toBeCloseTo((0.6 + 0.5 + 0) / 3, 12);
    expect(r.p1).toBeCloseTo((1 + 0 + 0) / 3, 12);
    expect(r.r10).toBeCloseTo((2 / 2 + 1 + 0) / 3, 12);
    expect(r.diagnostics.some((d) => d.severity === "warning" && /without a ranking/.test(d.message))).toBe(true);
  });
});
