import { describe, expect, it } from "vitest";
import { MwKey, type MwItem, formatReport, mwJson, parseMwGold, parseSystem, scoreMw } from "../../../lib/scorers/semeval2007/index";

// |MW| = 2: take place (1), bulls eye (4). 2 ties, 3 has a count of 1.
const MWGOLD = [
  "take.v 1 :: take place 3;take part 1;",
  "take.v 2 :: take off 2;take up 2;",
  "take.v 3 :: take in 1;",
  "bull.n 4 :: bull's eye 2;",
  "",
].join("\n");

function mw(system: string, gold = MWGOLD, repaired = false) {
  const key = MwKey.fromGold(parseMwGold(gold, "mwgold").lines);
  const items: MwItem[] = [];
  const result = scoreMw(key, parseSystem(system, "s.mw", "mw", { repaired }).lines, { onItem: (i) => items.push(i) });
  return { key, result, items };
}

describe("mw", () => {
  it("takes an item as a multiword item when its first count is above 1 and untied", () => {
    expect([...mw("").key.modes]).toEqual([
      ["1", "take place"],
      ["4", "bulls eye"],
    ]);
  });

  it("counts detection and identification", () => {
    // Found 3 (1, 2, 4); genuine 2 (1, 4); matched 1 (1; 4's "bull's-eye" is not "bulls eye").
    const r = mw("take.v 1 :: take place\ntake.v 2 :: take off\nbull.n 4 :: bull's-eye\n");
    expect(r.result.stats).toEqual({ totalMultiwords: 2, systemFound: 3, genuine: 2, matched: 1 });
    expect(r.result.scores).toEqual({ detectionPrecision: 2 / 3, detectionRecall: 1, identificationPrecision: 1 / 3, identificationRecall: 0.5 });
    expect(formatReport(r.result, r.items)).toBe(
      [
        "take.v 1 human mode is take place system take place",
        "take.v 2 No MW found by annotators, system take off",
        "bull.n 4 human mode is bulls eye system bull's-eye",
        "Total MWs in GS = 2, System found 3 of which 2 were genuine",
        "Detection precision = 66.67, recall = 100.00",
        "Number that matched GS",
        "Identification precision = 33.33, recall = 50.00",
        "",
      ].join("\n"),
    );
  });

  it("removes the gold's first apostrophe but not the answer's, and keeps trailing spaces, as score.pl does", () => {
    expect(mw("bull.n 4 :: bull's eye\n").result.stats.matched).toBe(0);
    expect(mw("bull.n 4 :: bulls eye\n").result.stats.matched).toBe(1);
    expect(mw("take.v 1 :: Take place\n").result.stats.matched).toBe(0);
    expect(mw("take.v 1 :: take place \n").result.stats.matched).toBe(0);
  });

  it("repaired, removes the first apostrophe on both sides and drops trailing spaces, and is exact otherwise", () => {
    expect(mw("bull.n 4 :: bull's eye\n", MWGOLD, true).result.stats.matched).toBe(1);
    expect(mw("take.v 1 :: Take place\n", MWGOLD, true).result.stats.matched).toBe(0);
    expect(mw("take.v 1 :: take place \n", MWGOLD, true).result.stats.matched).toBe(1);
  });

  it("does not count an empty answer as found or genuine", () => {
    const r = mw("take.v 1 :: \nbull.n 4 :: bulls eye\n");
    expect(r.result.stats).toEqual({ totalMultiwords: 2, systemFound: 1, genuine: 1, matched: 1 });
  });

  it("lets the first line for an id win", () => {
    const r = mw("take.v 1 :: take part\ntake.v 1 :: take place\n");
    expect(r.result.stats).toMatchObject({ systemFound: 1, matched: 0 });
    expect(r.result.ignored.repeats).toBe(1);
  });

  it("prints undefined precisions and zero counts empty, as the official scorer does", () => {
    const r = mw("take.v 1 :: \n");
    expect(formatReport(r.result)).toBe(
      "Total MWs in GS = 2, System found  of which  were genuine\nDetection precision = , recall = 0.00\nNumber that matched GS\nIdentification precision = , recall = 0.00\n",
    );
    expect(mwJson(r.result.stats)).toEqual({
      type: "mw",
      totalMultiwords: 2,
      systemFound: 0,
      genuine: 0,
      matched: 0,
      detectionPrecision: null,
      detectionRecall: 0,
      identificationPrecision: null,
      identificationRecall: 0,
    });
  });

  it("gives null recalls for a gold with no multiword item", () => {
    const r = mw("take.v 3 :: take in\n", "take.v 3 :: take in 1;\n");
    expect(r.result.scores).toEqual({ detectionPrecision: 0, detectionRecall: null, identificationPrecision: 0, identificationRecall: null });
  });
});
