import { describe, expect, it } from "vitest";
import {
  type KeyOptions,
  ScoringKey,
  formatGroups,
  groupOf,
  lexeltKey,
  multiwordIds,
  parseGold,
  parseIdList,
  parseMwGold,
  parseSystem,
  parseWordList,
  posOf,
  scoreBest,
  scoreOot,
} from "../../../lib/scorers/semeval2007/index";

// Four items in T; |H| 4, 4, 2, 3.
const GOLD = [
  "take.v 1 :: take place 2;happen 1;occur 1;",
  "take.v 2 :: grab 3;seize 1;",
  "bright.a 3 :: clever 2;",
  "stand.n.v 4 :: rise 2;get up 1;",
  "",
].join("\n");
const BEST = "take.v 1 :: happen\ntake.v 2 :: grab\nbright.a 3 :: smart\nstand.n.v 4 :: rise\n";
// Item scores: 1: 1/4; 2: 3/4; 3: 0; 4: 2/3.

function best(options: KeyOptions = {}, groupBy?: (l: string) => string, system = BEST) {
  const { key } = ScoringKey.fromGold(parseGold(GOLD, "g").lines, "g", options);
  return scoreBest(key, parseSystem(system, "s", "best").lines, { groupBy });
}

describe("further analysis", () => {
  it("scores everything by default", () => {
    const r = best();
    expect(r.stats.total).toBe(4);
    expect(r.scores.precision).toBeCloseTo((1 / 4 + 3 / 4 + 2 / 3) / 4, 15);
  });

  it("NMWT: leaves out the multiword items, from an id list", () => {
    const { ids } = parseIdList("1  take place\n\n", "mwids");
    const r = best({ excludeIds: ids });
    expect(r.stats).toMatchObject({ total: 3, attempted: 3 });
    expect(r.scores.precision).toBeCloseTo((3 / 4 + 2 / 3) / 3, 15);
  });

  it("NMWT: derives the multiword items from an mwgold", () => {
    const mw = parseMwGold("take.v 1 :: take place 3;\ntake.v 2 :: take hold 1;\nbright.a 3 :: see the light 2;look bright 2;\n", "mwgold");
    expect([...multiwordIds(mw.lines)]).toEqual(["1"]);
  });

  it("NMWS: drops multiword substitutes from the gold and multiword guesses from the answers", () => {
    // Without "take place": 1 is happen 1, occur 1 (|H| 2, no mode); without "get up": 4 is rise 2 (|H| 2).
    // Answers: 1 "take place;happen" → "happen" only: 1/2; 4 "rise": 2/2 = 1.
    const r = best({ singleWordOnly: true }, undefined, "take.v 1 :: take place;happen\nstand.n.v 4 :: rise\nbright.a 3 :: very bright\n");
    expect(r.stats).toMatchObject({ total: 4, attempted: 2, totalWithMode: 3 });
    expect(r.stats.credit).toBeCloseTo(1 / 2 + 1, 15);
  });

  it("NMWS: a hyphenated guess counts as a multiword, as in the official scorer", () => {
    const r = best({ singleWordOnly: true }, undefined, "take.v 2 :: get-hold\n");
    expect(r.stats.attempted).toBe(0);
  });

  it("subsets: keeps or leaves out the lexelts of a word list (MAN / RAND)", () => {
    const { lexelts, diagnostics } = parseWordList("take;v.man   \nstand;v.man\n\n", "MRsamples");
    expect(diagnostics).toEqual([]);
    expect([...lexelts]).toEqual(["take.v", "stand.v"]);
    expect(best({ includeLexelts: lexelts }).stats.total).toBe(3);
    expect(best({ excludeLexelts: lexelts }).stats.total).toBe(1);
  });

  it("refuses word-list lines it cannot read, with the line", () => {
    expect(parseWordList("take;v\nwhat is this\n", "w").diagnostics).toEqual([expect.objectContaining({ severity: "error", file: "w", line: 2 })]);
  });

  it.each([
    ["take.v", "v", "take.v"],
    ["stand.n.v", "v", "stand.v"],
    ["bright.a", "a", "bright.a"],
    ["odd", "", "odd"],
  ])("lexelt %s: PoS %j, word-list form %j", (lexelt, pos, key) => {
    expect(posOf(lexelt)).toBe(pos);
    expect(lexeltKey(lexelt)).toBe(key);
  });
});

describe("breakdowns", () => {
  it("per PoS, from the same computation as the totals", () => {
    const r = best({}, groupOf("pos"));
    expect(r.groups!.map((g) => [g.group, g.stats.total, g.stats.attempted])).toEqual([
      ["v", 3, 3],
      ["a", 1, 1],
    ]);
    const v = r.groups![0];
    expect(v.scores.precision).toBeCloseTo((1 / 4 + 3 / 4 + 2 / 3) / 3, 15);
    expect(r.groups!.reduce((n, g) => n + g.stats.attempted, 0)).toBe(r.stats.attempted);
    expect(formatGroups("pos", r)).toEqual([
      "pos\ttotal\tattempted\tprecision\trecall\ttotal with mode\tattempted with mode\tMode precision\tMode recall",
      "v\t3\t3\t55.56\t55.56\t3\t3\t66.67\t66.67",
      "a\t1\t1\t0.00\t0.00\t1\t1\t0.00\t0.00",
    ]);
  });

  it("per lexelt, counting unanswered items in each group's T", () => {
    const { key } = ScoringKey.fromGold(parseGold(GOLD, "g").lines, "g");
    const r = scoreOot(key, parseSystem("take.v 2 ::: grab;seize\n", "s", "oot").lines, { groupBy: groupOf("lexelt") });
    expect(r.groups!.map((g) => [g.group, g.stats.total, g.stats.attempted, g.scores.recall])).toEqual([
      ["take.v", 2, 1, 0.5],
      ["bright.a", 1, 0, 0],
      ["stand.n.v", 1, 0, 0],
    ]);
  });
});
