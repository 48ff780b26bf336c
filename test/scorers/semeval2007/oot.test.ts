import { describe, expect, it } from "vitest";
import { type ItemScore, ScoringKey, formatReport, parseGold, parseSystem, scoreOot } from "../../../lib/scorers/semeval2007/index";

function oot(gold: string, system: string) {
  const { key } = ScoringKey.fromGold(parseGold(gold, "g").lines, "g");
  const items: ItemScore[] = [];
  const result = scoreOot(key, parseSystem(system, "s.oot", "oot").lines, { file: "s.oot", onItem: (i) => items.push(i) });
  return { result, items };
}

// glad 3, merry 2, cheerful 1, jovial 1: |H| = 7.
const HAPPY = "happy.a 9999 :: glad 3;merry 2;cheerful 1;jovial 1;\n";
const OTHERS = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9"];

describe("oot", () => {
  it("does not divide by the number of guesses", () => {
    const r = oot(HAPPY, "happy.a 9999 ::: glad;cheerful;x;y\n");
    expect(r.items[0].score).toBeCloseTo(4 / 7, 15);
    expect(r.result.scores.precision).toBeCloseTo(4 / 7, 15);
  });

  it("finds the mode anywhere among the guesses", () => {
    const r = oot(HAPPY, "happy.a 9999 ::: merry;cheerful;glad\n");
    expect(r.items[0].modeHit).toBe(true);
    expect(r.result.scores.modePrecision).toBe(1);
  });

  it("scores only the first ten guesses, with a warning", () => {
    // glad is the 11th guess: dropped, so no credit and no mode; merry (10th) counts.
    const r = oot(HAPPY, `happy.a 9999 ::: ${OTHERS.join(";")};merry;glad\n`);
    const item = r.items[0];
    expect(item.guesses).toHaveLength(10);
    expect(item).toMatchObject({ truncated: true, modeHit: false });
    expect(item.credit).toBeCloseTo(2 / 7, 15);
    expect(r.result.diagnostics[0]).toMatchObject({ line: 1, severity: "warning" });
    expect(r.result.diagnostics[0].message).toMatch(/11 guesses for id 9999; only the first ten are scored/);
    expect(formatReport(r.result, r.items).split("\n")[0]).toBe("happy.a Item 9999 exceeded 10 guesses");
  });

  it("credits a repeated guess each time, as the official scorer does, and warns", () => {
    // glad ×10: 10 · 3/7 = 30/7 > 1, so precision is above 100%.
    const r = oot(HAPPY, `happy.a 9999 ::: ${Array(10).fill("glad").join(";")}\n`);
    expect(r.items[0].credit).toBeCloseTo(30 / 7, 14);
    expect(r.items[0].repeated).toEqual(["glad"]);
    expect(formatReport(r.result).split("\n")[1]).toBe("precision = 428.57, recall = 428.57");
    expect(r.result.diagnostics.map((d) => [d.line, d.message])).toEqual([
      [1, 'guess "glad" repeated for id 9999; each copy earns credit, as in the official scorer'],
      [0, "the oot file repeats a guess on 1 line"],
    ]);
  });

  it("prints the official oot lines: no 'Mode' on the mode line", () => {
    const r = oot(HAPPY + "happy.a 2 :: sad 2;low 1;\n", "happy.a 9999 ::: jovial;glad\nhappy.a 2 ::: low\n");
    expect(formatReport(r.result, r.items)).toBe(
      [
        "happy.a Item 9999 mode 'glad'  found in guesses",
        "happy.a Item 9999 credit 0.571428571428571 human responses 7: score is 0.571428571428571",
        "happy.a Item 2 mode 'sad'  not found",
        "happy.a Item 2 credit 0.333333333333333 human responses 3: score is 0.333333333333333",
        "Total = 2, attempted = 2",
        "precision = 45.24, recall = 45.24",
        "Total with mode 2 attempted 2",
        "precision = 50.00, recall = 50.00",
        "",
      ].join("\n"),
    );
  });
});
