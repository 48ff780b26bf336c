import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import type { WordNetData } from "../../../lib/lexsub/morphy";
import { nltkLemmatize, parseSwordsGold, parseSwordsResult, prepareSwords, scoreSwords, type SwordsLabel } from "../../../lib/scorers/ranking";
import { wordnetLemma } from "../../../lib/lexsub/morphy";
import { readWordNet } from "../../../lib/wordnet/load";
import { readWordNet30 } from "../../../lib/wordnet/wn30";
import { describeWithSharedData } from "../../support/shared-data";

const fixtures = path.resolve(__dirname, "../../fixtures/ranking");
const DEV = path.resolve(__dirname, "../../../../shared/data/swords/swords-v1.1_dev.json.gz");
// Read at collection time: the describe blocks score with it. SWORDS lemmatises over WordNet 3.0 (eval.py's NLTK data).
const wn: WordNetData = readWordNet30();
// The project's own lemmatiser stays on WordNet 3.1.
const wn31: WordNetData = readWordNet();

describe("nltkLemmatize: NLTK's WordNetLemmatizer (shortest lemma), for SWORDS only", () => {
  it.each([
    ["boss", "n", "bos"],
    ["species", "n", "specie"],
    ["bosses", "n", "boss"],
    ["wolves", "n", "wolf"],
    ["ran", "v", "run"],
    ["sprinted", "v", "sprint"],
    ["better", "a", "good"],
    ["Boss", "n", "Boss"], // case-sensitive: WordNet's lemmas are lower case
    ["give up", "v", "give up"], // a phrase is looked up as typed
  ] as const)("%s (%s) → %s", (word, pos, lemma) => {
    expect(nltkLemmatize(wn, word, pos)).toBe(lemma);
  });
  it("the gold lemmatiser never does so", () => {
    expect(wordnetLemma(wn31, "boss", "n")).toBe("boss");
    expect(wordnetLemma(wn31, "species", "n")).toBe("species");
  });
});

describe("SWORDS measures on my own sample, by hand", () => {
  const gold = parseSwordsGold(readFileSync(path.join(fixtures, "swords-sample.json"), "utf8"), "swords-sample.json");
  const run = parseSwordsResult(readFileSync(path.join(fixtures, "swords-sample-result.json"), "utf8"), "result.json");

  it("preprocesses as eval.py: lemmas, target stripped, UNSURE dropped, repeats merged", () => {
    const p = prepareSwords(gold, run, wn);
    // boss → bos (the target's lemma), so `boss` is dropped from both sides; `bosses` → boss stays.
    expect([...p.gold.get("t:boss")!.keys()]).toEqual(["manager", "chief", "boss", "head"]);
    expect(p.gold.get("t:boss")!.get("manager")).toEqual(["TRUE", "TRUE_IMPLICIT", "FALSE"] satisfies SwordsLabel[]);
    expect(p.system.get("t:boss")).toEqual(["manager", "chief", "head", "leader"]);
    expect(p.system.get("t:ran")).toEqual(["sprint", "race", "hurry"]);
  });

  // Per target (A acceptable, C conceivable, J judged; R the system list):
  //  boss:    A {manager 2/3, boss 1}, C + {chief 0.1}, J + {head}; R [manager, chief, head, leader]
  //  quickly: A {fast}, C {fast, rapidly 0.5}; no list
  //  ran:     A = C = J = {sprint}; R [sprint, race, hurry]
  //  big:     A = C = {}, J {large}; R [large]
  const scored = scoreSwords(gold, run, wn);
  const r = { ...scored, figures: scored.figures! };
  const f = (p: number, q: number) => (2 * p * q) / (p + q);
  it.each([
    ["strict_a", 2, 4 + 0 + 3 + 1, 2 + 1 + 1 + 0],
    ["strict_c", 3, 8, 3 + 2 + 1 + 0],
    ["lenient_a", 2, 3 + 0 + 1 + 1, 4],
    ["lenient_c", 3, 5, 6],
  ] as const)("%s: P@10 = %i / %i, R@10 = ·/%i, F@10", (setting, num, pDen, rDen) => {
    const s = r.figures.settings[setting];
    expect([s.numerator, s.pDenominator, s.rDenominator]).toEqual([num, pDen, rDen]);
    expect(s.p).toBeCloseTo((100 * num) / pDen, 10);
    expect(s.r).toBeCloseTo((100 * num) / rDen, 10);
    expect(s.f).toBeCloseTo(100 * f(num / pDen, num / rDen), 10);
  });
  it("strict conceivable P@1 = 2 / 3 (targets with a list)", () => {
    expect(r.figures.strictCP1.p).toBeCloseTo((100 * 2) / 3, 10);
  });
  it("GAP: −1 for the target with no positive gold averaged in; repaired leaves it out", () => {
    // boss: gold by #positive sorted manager 2, boss 2, chief 1 → 2/1 + 4/2 + 5/3; R: manager 2/1, chief 3/2
    const boss = (2 + 3 / 2) / (2 + 4 / 2 + 5 / 3);
    const items = [boss, 0, 1, -1];
    expect(r.figures.gap).toBeCloseTo((100 * items.reduce((a, b) => a + b)) / 4, 10);
    const fixed = scoreSwords(gold, run, wn, { repaired: true });
    expect(fixed.figures!.gap).toBeCloseTo((100 * (boss + 0 + 1)) / 3, 10);
    // gap_rat, boss: weights boss 1, manager 2/3, chief 0.1 → 1 + (5/3)/2 + (53/30)/3; R: manager (2/3)/1, chief (23/30)/2
    const bossRat = (2 / 3 + 23 / 30 / 2) / (1 + 5 / 3 / 2 + 53 / 30 / 3);
    expect(r.figures.gapRat).toBeCloseTo((100 * (bossRat + 0 + 1 - 1)) / 4, 10);
  });
  it("a target the gold lacks is an error (eval.py stops on it)", () => {
    const bad = parseSwordsResult('{"t:nope": [["x", 1]]}', "bad.json");
    expect(scoreSwords(gold, bad, wn).diagnostics).toContainEqual(expect.objectContaining({ severity: "error", file: "bad.json" }));
  });
  it("zero denominators: no figures and an error by default (eval.py stops with ZeroDivisionError), 0 when repaired", () => {
    const empty = parseSwordsResult("{}", "empty.json");
    const r0 = scoreSwords(gold, empty, wn);
    expect(r0.figures).toBeNull();
    expect(r0.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", message: expect.stringContaining("ZeroDivisionError") }));
    expect(scoreSwords(gold, empty, wn, { repaired: true }).figures!.settings.strict_a.p).toBe(0);
  });
});

describeWithSharedData(DEV, "SWORDS measures on the shared dev set, a baseline of mine", () => {
  const text = gunzipSync(readFileSync(DEV)).toString("utf8");
  const gold = parseSwordsGold(text, "swords-v1.1_dev.json");
  // Baseline: each target's judged candidates in the dataset's order, scored by their position.
  const result: Record<string, [string, number][]> = {};
  for (const t of gold.targets.values()) result[t.id] = t.substitutes.map((s, i) => [s.substitute, -i]);
  const run = parseSwordsResult(JSON.stringify({ substitutes: result }), "baseline.json");

  it("without preprocessing, every variant equals a direct count over the raw labels", () => {
    const scored = scoreSwords(gold, run, null, { skipPreprocessing: true });
    const r = { ...scored, figures: scored.figures! };
    const rat = (ls: SwordsLabel[]) => ls.filter((l) => l === "TRUE" || l === "TRUE_IMPLICIT").length / ls.length;
    for (const [name, threshold, lenient] of [["strict_a", 0.5001, false], ["strict_c", 0.1, false], ["lenient_a", 0.5001, true], ["lenient_c", 0.1, true]] as const) {
      let num = 0;
      let pDen = 0;
      let rDen = 0;
      for (const t of gold.targets.values()) {
        if (t.substitutes.length === 0) continue;
        const g = new Set(t.substitutes.filter((s) => rat(s.labels) >= threshold).map((s) => s.substitute));
        // every candidate is judged, so lenient = strict for this baseline
        const top = t.substitutes.slice(0, 10).map((s) => s.substitute);
        num += top.filter((s) => g.has(s)).length;
        pDen += top.length;
        rDen += Math.min(g.size, 10);
        void lenient;
      }
      const s = r.figures.settings[name];
      expect([s.numerator, s.pDenominator, s.rDenominator]).toEqual([num, pDen, rDen]);
    }
  });

  it("with eval.py's preprocessing, lenient never ranks more than strict, and a target's own word never counts", () => {
    const scored = scoreSwords(gold, run, wn);
    const r = { ...scored, figures: scored.figures! };
    expect(r.targets).toBeGreaterThan(0);
    for (const k of ["a", "c"] as const) {
      const strict = r.figures.settings[`strict_${k}`];
      const lenient = r.figures.settings[`lenient_${k}`];
      expect(lenient.pDenominator).toBeLessThanOrEqual(strict.pDenominator);
      expect(lenient.numerator).toBe(strict.numerator);
      expect(strict.rDenominator).toBe(lenient.rDenominator);
    }
    const prep = prepareSwords(gold, run, wn);
    for (const t of gold.targets.values()) {
      const list = prep.system.get(t.id) ?? [];
      const own = nltkLemmatize(wn, t.target, t.pos === "VERB" ? "v" : t.pos === "ADJ" ? "a" : t.pos === "ADV" ? "r" : "n").toLowerCase().trim();
      expect(list).not.toContain(own);
      expect(new Set(list).size).toBe(list.length);
    }
    expect(r.figures.gap).not.toBeNull();
  });
});
