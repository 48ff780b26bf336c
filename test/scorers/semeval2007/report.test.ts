import { describe, expect, it } from "vitest";
import {
  type ItemScore,
  ScoringKey,
  formatBestItem,
  formatReport,
  officialPercent,
  parseGold,
  parseSystem,
  perlNumber,
  type SubstitutionResult,
  scoreBest,
  scoreTexts,
  substitutionJson,
} from "../../../lib/scorers/semeval2007/index";

describe("perlNumber: Perl's %.15g", () => {
  // Each expected string is what `perl -e 'print <x>'` prints.
  it.each([
    [1 / 6, "0.166666666666667"],
    [2 / 7, "0.285714285714286"],
    [1, "1"],
    [0, "0"],
    [0.125, "0.125"],
    [5, "5"],
    [2.5, "2.5"],
    [0.1 + 0.2, "0.3"],
    [0.0001, "0.0001"],
    [1e-5, "1e-05"],
    [1 / 30000, "3.33333333333333e-05"],
    [1e15, "1e+15"],
    [999999999999999.5, "1e+15"],
    [123456789012345678, "1.23456789012346e+17"],
    // Exact ties round to even, as glibc does (JavaScript's toPrecision rounds them up).
    [1234567890123445, "1.23456789012344e+15"],
    [1234567890123455, "1.23456789012346e+15"],
    [-1 / 3, "-0.333333333333333"],
  ])("%d → %s", (x, s) => expect(perlNumber(x)).toBe(s));
});

describe("officialPercent: ×100, half-up to two decimals, zero-padded", () => {
  it.each([
    [31 / 295, "10.51"],
    [0.5, "50.00"],
    [0, "0.00"],
    [1, "100.00"],
    [5, "500.00"],
    [2 / 3, "66.67"],
    [2 / 13, "15.38"],
    [0.125, "12.50"],
    [0.00005, "0.01"],
    [0.00004, "0.00"],
    [null, ""],
  ])("%d → %j", (x, s) => expect(officialPercent(x)).toBe(s));
});

describe("best text and JSON output", () => {
  const gold = "happy.a 1 :: glad 3;merry 2;cheerful 1;jovial 1;\nhappy.a 2 :: content 2;pleased 2;\nfun.n 3 :: joy 4;\n";
  const system = "happy.a 1 :: glad;cheerful\nhappy.a 2 :: content\nfun.n 3 :: glee\n";
  const { key } = ScoringKey.fromGold(parseGold(gold, "g").lines, "g");
  const items: ItemScore[] = [];
  const result = scoreBest(key, parseSystem(system, "s", "best").lines, { onItem: (i) => items.push(i) });

  it("prints the -v lines and totals as the official scorer", () => {
    // Item scores: 1: (4/7)/2 = 2/7; 2: 2/4 = 1/2; 3: 0. P = R = (2/7 + 1/2)/3 = 11/42 = .2619.
    // Modes: 1 glad (hit), 3 joy (miss); 2 has none. Mode P = R = 1/2.
    expect(formatReport(result, items)).toBe(
      [
        "happy.a Item 1 mode 'glad' : system 'glad'  correct",
        "happy.a Item 1 credit 0.571428571428571 guesses 2 human responses 7: score is 0.571428571428571",
        "happy.a Item 2 credit 0.5 guesses 1 human responses 4: score is 0.5",
        "fun.n Item 3 mode 'joy' : system 'glee' wrong",
        "fun.n Item 3 credit 0 guesses 1 human responses 4: score is 0",
        "Total = 3, attempted = 3",
        "precision = 26.19, recall = 26.19",
        "Total with mode 2 attempted 2",
        "Mode precision = 50.00, Mode recall = 50.00",
        "",
      ].join("\n"),
    );
  });

  it("prints the undivided credit after 'score is', as the official scorer does", () => {
    expect(formatBestItem(items[0])[1]).toMatch(/score is 0\.571428571428571$/);
    expect(items[0].score).toBeCloseTo(2 / 7, 15);
  });

  it("gives exactly the issue's JSON keys, proportions unrounded", () => {
    const json = substitutionJson("best", result.stats);
    expect(Object.keys(json)).toEqual(["type", "total", "attempted", "precision", "recall", "totalWithMode", "attemptedWithMode", "modePrecision", "modeRecall"]);
    expect(json).toMatchObject({ type: "best", total: 3, attempted: 3, totalWithMode: 2, attemptedWithMode: 2, modePrecision: 0.5, modeRecall: 0.5 });
    expect(json.precision).toBeCloseTo(11 / 42, 15);
  });
});

describe("scoreTexts: texts in, the CLI's result and items out", () => {
  it("scores best with a per-PoS breakdown and lists the items", () => {
    const out = scoreTexts({
      type: "best",
      gold: "happy.a 1 :: glad 3;merry 2;cheerful 1;jovial 1;\nfun.n 3 :: joy 4;\n",
      system: "happy.a 1 :: glad;cheerful\nfun.n 3 :: glee\nnot a line\n",
      systemName: "up.best",
      by: "pos",
    });
    expect(formatReport(out.result, out.items).split("\n").slice(-5)).toEqual([
      "Total = 2, attempted = 2",
      "precision = 14.29, recall = 14.29",
      "Total with mode 2 attempted 2",
      "Mode precision = 50.00, Mode recall = 50.00",
      "",
    ]);
    expect((out.result as SubstitutionResult).groups!.map((g) => g.group)).toEqual(["a", "n"]);
    expect(out.systemDiagnostics).toEqual([expect.objectContaining({ severity: "error", file: "up.best", line: 3 })]);
    expect(out.lines).toEqual({ read: 3, matched: 2, refused: 1 });
  });

  it("scores mw", () => {
    const out = scoreTexts({ type: "mw", gold: "take.v 1 :: take place 2;\n", system: "take.v 1 :: take place\n" });
    expect(out.result.stats).toEqual({ totalMultiwords: 1, systemFound: 1, genuine: 1, matched: 1 });
  });
});
