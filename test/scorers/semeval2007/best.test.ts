import { describe, expect, it } from "vitest";
import {
  type ItemScore,
  type KeyOptions,
  ScoringKey,
  formatReport,
  itemStats,
  parseGold,
  parseSystem,
  scoreBest,
  substitutionScores,
} from "../../../lib/scorers/semeval2007/index";

/** Score `system` (best) against `gold`; keep the attempted items. */
function best(gold: string, system: string, options: KeyOptions = {}) {
  const { key, diagnostics: goldDiagnostics } = ScoringKey.fromGold(parseGold(gold, "g").lines, "g", options);
  const parsed = parseSystem(system, "s", "best", { repaired: options.repaired });
  const items: ItemScore[] = [];
  const result = scoreBest(key, parsed.lines, { file: "s", onItem: (i) => items.push(i) });
  return { key, result, items, byId: new Map(items.map((i) => [i.id, i])), goldDiagnostics, systemDiagnostics: parsed.diagnostics };
}

// The documentation's example item: glad 3, merry 2, cheerful 1, jovial 1 → |H| = 7.
const HAPPY = "happy.a 9999 :: glad 3;merry 2;cheerful 1;jovial 1;\n";

describe("best: the formula", () => {
  it("credits the worked example glad;cheerful with (3 + 1) / (2 · 7) = .286", () => {
    const r = best(HAPPY, "happy.a 9999 :: glad;cheerful\n");
    const item = r.items[0];
    expect(item.credit).toBeCloseTo(4 / 7, 15);
    expect(item.score).toBeCloseTo(4 / 14, 15);
    expect(item.score.toFixed(3)).toBe("0.286");
    expect(r.result.stats).toEqual({ total: 1, attempted: 1, credit: item.score, totalWithMode: 1, attemptedWithMode: 1, modeHits: 1 });
  });

  it.each([
    // answer, credit Σfreq/|H|, |a_i|
    ["glad", 3 / 7, 1],
    ["merry;glad", 5 / 7, 2],
    ["glad;glad", 6 / 7, 2],
    ["glad;nonsense", 3 / 7, 2],
    ["glad;;merry", 5 / 7, 3],
    ["nonsense", 0, 1],
  ])("answer %j: credit %d over %d guesses", (answer, credit, n) => {
    const item = best(HAPPY, `happy.a 9999 :: ${answer}\n`).items[0];
    expect(item.credit).toBeCloseTo(credit, 15);
    expect(item.guesses).toHaveLength(n);
    expect(item.score).toBeCloseTo(credit / n, 15);
  });

  it("sums item scores over A for precision and over T for recall", () => {
    // |T| = 3; answered: 1 (3/7 · 1/1), 2 (content: 2/4 over 2 guesses = 1/4); 3 unanswered.
    const gold = HAPPY + "happy.a 2 :: content 2;pleased 2;\nhappy.a 3 :: lucky 2;\n";
    const r = best(gold, "happy.a 9999 :: glad\nhappy.a 2 :: content;sad\n");
    const sum = 3 / 7 + 1 / 4;
    expect(r.result.scores.precision).toBeCloseTo(sum / 2, 15);
    expect(r.result.scores.recall).toBeCloseTo(sum / 3, 15);
    // Modes: 9999 glad (hit), 2 none (tie), 3 lucky (unanswered): AM = 1, TM = 2.
    expect(r.result.scores.modePrecision).toBe(1);
    expect(r.result.scores.modeRecall).toBe(0.5);
  });

  it("gives per-item statistics from the same computation as the totals", () => {
    const r = best(HAPPY, "happy.a 9999 :: glad;cheerful\n");
    const s = substitutionScores(itemStats(r.items[0]));
    expect(s.precision).toBe(r.result.scores.precision);
    expect(s.modePrecision).toBe(1);
  });
});

describe("best: the gold", () => {
  it("puts an item in T when it has two entries or a count of 2", () => {
    const gold = "bank.n 1 :: shore 1;\nbank.n 2 :: shore 2;\nbank.n 3 :: shore 1;edge 1;\n";
    const r = best(gold, "bank.n 1 :: shore\nbank.n 2 :: shore\nbank.n 3 :: shore\n");
    expect(r.key.total).toBe(2);
    expect([...r.byId.keys()]).toEqual(["2", "3"]);
    // 2: 2/2 = 1; 3: 1/2. P = R = 1.5 / 2.
    expect(r.result.scores.precision).toBe(0.75);
    expect(r.result.scores.recall).toBe(0.75);
    expect(r.result.ignored.outsideT).toBe(1);
  });

  it("drops pn entries before T, |H_i| and the mode", () => {
    // 5: sprint 2, pn 2, dash 1 → without pn: |H| = 3, mode sprint (no tie with pn).
    // 6: pn 3, jog 1 → jog 1 alone: not in T.
    const gold = "run.v 5 :: sprint 2;pn 2;dash 1;\nrun.v 6 :: pn 3;jog 1;\n";
    const r = best(gold, "run.v 5 :: sprint\nrun.v 6 :: jog\n");
    expect(r.key.total).toBe(1);
    expect(r.byId.get("5")).toMatchObject({ humanResponses: 3, mode: "sprint", modeHit: true });
    expect(r.byId.get("5")!.credit).toBeCloseTo(2 / 3, 15);
    expect(r.byId.has("6")).toBe(false);
  });

  it.each([
    ["shore 3;edge 3;side 1;", null],
    ["shore 3;edge 2;side 2;", "shore"],
    ["shore 2;", "shore"],
    ["shore 1;edge 1;", null],
  ])("mode of %j is %j", (entries, mode) => {
    const r = best(`bank.n 1 :: ${entries}\n`, "bank.n 1 :: shore\n");
    expect(r.items[0].mode).toBe(mode);
    expect(r.items[0].modeHit).toBe(mode === null ? null : true);
    expect(r.key.totalWithMode).toBe(mode === null ? 0 : 1);
  });
});

describe("best: matching answers to the gold", () => {
  // |H| = 2 + 1 + 1 + 1 = 5.
  const gold = "x.a 1 :: open-air 2;nondescript 1;people's 1;non-native 1;\n";
  it.each([
    // answer, credit as score.pl gives it, credit repaired
    ["open-air", 2 / 5, 2 / 5],
    ["open air", 2 / 5, 2 / 5],
    ["non-descript", 1 / 5, 1 / 5],
    ["non descript", 1 / 5, 1 / 5],
    ["nondescript", 1 / 5, 1 / 5],
    ["people's", 1 / 5, 1 / 5],
    ["peoples", 1 / 5, 1 / 5],
    // score.pl turns the answers into "nonnative" but keeps the gold "non-native" / "non native".
    ["non-native", 0, 1 / 5],
    ["non native", 0, 1 / 5],
    ["nonnative", 0, 1 / 5],
    ["Open air", 0, 0],
    ["OPEN-AIR", 0, 0],
    ["openair", 0, 0],
  ])("%j earns %d (score.pl) and %d (repaired)", (answer, official, repaired) => {
    expect(best(gold, `x.a 1 :: ${answer}\n`).items[0].credit).toBeCloseTo(official, 15);
    expect(best(gold, `x.a 1 :: ${answer}\n`, { repaired: true }).items[0].credit).toBeCloseTo(repaired, 15);
  });

  it("never hits a hyphenated mode as score.pl (the answer's hyphens become spaces); repaired, hits it", () => {
    for (const answer of ["open air", "open-air"]) {
      expect(best(gold, `x.a 1 :: ${answer}\n`).items[0]).toMatchObject({ credit: 2 / 5, modeHit: false });
      expect(best(gold, `x.a 1 :: ${answer}\n`, { repaired: true }).items[0].modeHit).toBe(true);
    }
  });

  it("is case-sensitive on both sides", () => {
    const r = best("m.a 1 :: BSE 2;crazy 1;\n", "m.a 1 :: bse\n");
    expect(r.items[0]).toMatchObject({ credit: 0, modeHit: false });
    expect(best("m.a 1 :: BSE 2;crazy 1;\n", "m.a 1 :: BSE\n").items[0].modeHit).toBe(true);
  });

  it("keeps spaces around guesses as score.pl does; repaired, matches as written first, then trimmed", () => {
    // "garden  1" is read as "garden " (trailing space), as the official scorer reads it.
    const gold = "yard.n 1 :: garden 2;lot 1;garden  1;\n";
    expect(best(gold, "yard.n 1 :: garden;garden \n").items[0].credit).toBeCloseTo(3 / 4, 15);
    expect(best(gold, "yard.n 1 :: garden;garden \n", { repaired: true }).items[0].credit).toBeCloseTo(3 / 4, 15);
    const official = best(gold, "yard.n 1 :: lot ; garden\n");
    expect(official.items[0].guesses).toEqual(["lot ", " garden"]);
    expect(official.items[0].credit).toBe(0);
    expect(official.systemDiagnostics[0].message).toMatch(/spaces around.*stay in the guess/);
    const r = best(gold, "yard.n 1 :: lot ; garden\n", { repaired: true });
    expect(r.items[0].guesses).toEqual(["lot", "garden"]);
    expect(r.items[0].credit).toBeCloseTo(3 / 4, 15);
    expect(r.systemDiagnostics[0].message).toMatch(/spaces around/);
  });

  it("keeps a CRLF's \\r in the last guess as score.pl does; repaired, scores a CRLF file as its LF twin", () => {
    const lf = best(HAPPY, "happy.a 9999 :: glad;merry\n");
    const official = best(HAPPY, "happy.a 9999 :: glad;merry\r\n");
    expect(official.items[0].guesses).toEqual(["glad", "merry\r"]);
    expect(official.items[0].credit).toBeCloseTo(3 / 7, 15);
    expect(official.systemDiagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/stays in the last guess/)]);
    const crlf = best(HAPPY, "happy.a 9999 :: glad;merry\r\n", { repaired: true });
    expect(crlf.result.stats).toEqual(lf.result.stats);
    expect(crlf.systemDiagnostics.map((d) => d.severity)).toEqual(["warning"]);
  });
});

describe("best: which lines count", () => {
  it("lets the first line for an id win, with a warning for the later one", () => {
    const r = best(HAPPY, "happy.a 9999 :: jovial\nhappy.a 9999 :: glad\n");
    expect(r.items.map((i) => i.guesses)).toEqual([["jovial"]]);
    expect(r.result.ignored.repeats).toBe(1);
    expect(r.result.diagnostics[0]).toMatchObject({ severity: "warning", line: 2 });
    expect(r.result.diagnostics[0].message).toMatch(/id 9999 was answered on line 1/);
  });

  it("ignores ids outside T, and keys items by id alone", () => {
    const gold = HAPPY + "happy.a 3 :: lucky 1;\n";
    const r = best(gold, "happy.a 3 :: lucky\nhappy.a 77 :: glad\nfilm.n 9999 :: glad\n");
    expect(r.result.stats.attempted).toBe(1);
    expect(r.items[0]).toMatchObject({ id: "9999", lexelt: "happy.a", systemLexelt: "film.n", modeHit: true });
    expect(r.result.ignored.outsideT).toBe(2);
    expect(r.result.diagnostics.at(-1)!.message).toMatch(/2 lines answer ids outside T/);
  });

  it("does not attempt an empty answer, and it earns nothing", () => {
    const gold = HAPPY + "happy.a 2 :: sad 2;\n";
    const r = best(gold, "happy.a 9999 :: glad\nhappy.a 2 :: \n");
    expect(r.result.stats).toMatchObject({ attempted: 1, attemptedWithMode: 1, modeHits: 1 });
    expect(r.result.stats.credit).toBeCloseTo(3 / 7, 15);
  });

  it("leaves precision undefined when nothing is attempted, and prints it empty", () => {
    const r = best(HAPPY, "happy.a 9999 :: \n");
    expect(r.result.scores).toEqual({ precision: null, recall: 0, modePrecision: null, modeRecall: 0 });
    expect(formatReport(r.result)).toBe(
      "Total = 1, attempted = 0\nprecision = , recall = 0.00\nTotal with mode 1 attempted 0\nMode precision = , Mode recall = 0.00\n",
    );
  });

  it("gives nulls for an empty gold and an empty system file", () => {
    const r = best("", "");
    expect(r.result.stats).toEqual({ total: 0, attempted: 0, credit: 0, totalWithMode: 0, attemptedWithMode: 0, modeHits: 0 });
    expect(r.result.scores).toEqual({ precision: null, recall: null, modePrecision: null, modeRecall: null });
  });
});
