import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { floor4, parseTsarGold, parseTsarPredictions, scoreTsar, type TsarGoldItem, tsarGoldCounts } from "../../../lib/scorers/ranking";
import { describeWithSharedData } from "../../support/shared-data";

const data = path.resolve(__dirname, "../../../../shared/data/tsar2022");
const TRIAL = path.join(data, "tsar2022_en_trial_gold.tsv");
const TEST = path.join(data, "tsar2022_en_test_gold.tsv");

/** The gold's substitute types for an instance, by count (descending), the complex word left out. */
function types(item: TsarGoldItem): { top: string; lower: string | null } {
  const counts = tsarGoldCounts(item).sort((a, b) => b.count - a.count);
  const max = counts[0].count;
  return { top: counts[0].substitute, lower: counts.find((c) => c.count < max)?.substitute ?? null };
}

const line = (i: TsarGoldItem, subs: string[]) => [i.sentence, i.word, ...subs].join("\t");

describe("TSAR measures on my own sample", () => {
  const gold = parseTsarGold("The dog sat quietly.\tquietly\tsilently\tcalmly\tquietly\tsilently\nRain fell.\tfell\tdropped\n", "sample.tsv");
  it("filters the complex word and repeats, matches case-sensitively, truncates", () => {
    const run = parseTsarPredictions("The dog sat quietly.\tquietly\tquietly\tCalmly\tsilently\tsilently\n", "run.tsv");
    const r = scoreTsar(gold, run);
    // labels: [Calmly, silently]; gold {silently 2, calmly 1}; the missing instance is ignored
    expect(r.items[0].labels).toEqual(["Calmly", "silently"]);
    expect(r.instances).toBe(1);
    expect(r.figures).toMatchObject({ acc1: 0, potential: { 3: 1 }, accuracyTop1: { 1: 0, 2: 1 } });
    // MAP@3 = (0 + 1/2) / 3 = 0.1666…
    expect(r.figures!.map[3]).toBe(0.1666);
    expect(r.exact!.map[3]).toBeCloseTo(1 / 6, 12);
  });
  it("MLSP's flag keeps the complex word in the gold (so it can be the top-count substitute)", () => {
    const g = parseTsarGold("It was vast.\tvast\tvast\tvast\thuge\n", "g.tsv");
    const run = parseTsarPredictions("It was vast.\tvast\thuge\n", "r.tsv");
    expect(scoreTsar(g, run).figures!.accuracyTop1[1]).toBe(1);
    expect(scoreTsar(g, run, { keepComplexWord: true }).figures!.accuracyTop1[1]).toBe(0);
    expect(scoreTsar(g, run, { keepComplexWord: true }).items[0].gold).toEqual([{ substitute: "vast", count: 2 }, { substitute: "huge", count: 1 }]);
  });
  it("refuses (as the script stops) an instance not in the gold, naming file and line; repaired leaves it out", () => {
    const run = parseTsarPredictions("The dog sat quietly.\tquietly\tsilently\nUnknown sentence.\tword\tx\n", "run.tsv");
    const r = scoreTsar(gold, run);
    expect(r.figures).toBeNull();
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", file: "run.tsv", line: 2 }));
    const fixed = scoreTsar(gold, run, { repaired: true });
    expect(fixed.instances).toBe(1);
    expect(fixed.figures!.acc1).toBe(1);
  });
  it("a gold left empty by the complex-word rule: refused by default (the script stops), a miss when repaired", () => {
    const g = parseTsarGold("It rained.\trained\trained\trained\n", "empty.tsv");
    const run = parseTsarPredictions("It rained.\trained\tpoured\n", "r.tsv");
    const plain = scoreTsar(g, run);
    expect(plain.figures).toBeNull();
    expect(plain.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", file: "empty.tsv", line: 1 }));
    expect(scoreTsar(g, run, { repaired: true }).figures).toMatchObject({ acc1: 0, map: { 3: 0 }, accuracyTop1: { 1: 0 } });
    // with MLSP's flag the complex word stays: no refusal
    expect(scoreTsar(g, run, { keepComplexWord: true }).figures!.acc1).toBe(0);
  });
  it("truncates as math.floor(x * 10000) / 10000 does", () => {
    expect(floor4(2 / 3)).toBe(0.6666);
    expect(floor4(0.57)).toBe(0.5699); // 0.57 * 10000 = 5699.999999999999, as in Python
    expect(floor4(1)).toBe(1);
  });
});

describeWithSharedData(TRIAL, "TSAR measures on the shared English trial gold", () => {
  const gold = parseTsarGold(readFileSync(TRIAL, "utf8"), "trial_gold.tsv");
  const items = [...gold.items.values()];
  // Six instances predicted, four missing (ignored). By hand, per instance:
  //  0: [word, top, top, zzz]  → labels [top, zzz]: ACC@1 1, top1 1, MAP@3 1/3, MAP@5 1/5, MAP@10 1/10, Pot@3 1
  //  1: [lower, top]           → ACC@1 1, Acc@1@top1 0, Acc@2@top1 1, MAP@K 2/K, Pot 1
  //  2: [zzz, yyy, top]        → ACC@1 0, Acc@3@top1 1 only, MAP@K (1/3)/K, Pot@3 1
  //  3: []                     → all 0 (still counted)
  //  4: [TOP in upper case]    → all 0 (case-sensitive)
  //  5: [zzz]                  → all 0
  const pick = items.filter((i) => types(i).lower !== null && types(i).top !== types(i).top.toUpperCase());
  const [a, b, c, d, e, f] = pick;
  const run = [
    line(a, [a.word, types(a).top, types(a).top, "zzz"]),
    line(b, [types(b).lower!, types(b).top]),
    line(c, ["zzz", "yyy", types(c).top]),
    line(d, []),
    line(e, [types(e).top.toUpperCase()]),
    line(f, ["zzz"]),
  ].join("\n");
  const r = scoreTsar(gold, parseTsarPredictions(run + "\n", "hand.tsv"));

  it("averages over the six predicted instances only", () => {
    expect(pick.length).toBeGreaterThanOrEqual(6);
    expect(r.instances).toBe(6);
    expect(r.diagnostics).toEqual([]);
  });
  it("every measure equals the hand computation, truncated to 4 decimals", () => {
    const fig = r.figures!;
    expect(fig.acc1).toBe(floor4(2 / 6)); // 0.3333
    expect(fig.accuracyTop1).toEqual({ 1: floor4(1 / 6), 2: floor4(2 / 6), 3: floor4(3 / 6) });
    expect(fig.accuracyTop1[1]).toBe(0.1666);
    expect(fig.map[3]).toBe(floor4((1 / 3 + 2 / 3 + 1 / 9) / 6)); // 0.1851
    expect(fig.map[3]).toBe(0.1851);
    expect(fig.map[5]).toBe(floor4((1 / 5 + 2 / 5 + 1 / 15) / 6));
    expect(fig.map[10]).toBe(floor4((1 / 10 + 2 / 10 + 1 / 30) / 6)); // 0.0555
    expect(fig.map[10]).toBe(0.0555);
    expect(fig.potential).toEqual({ 1: floor4(2 / 6), 3: 0.5, 5: 0.5, 10: 0.5 });
  });
  it("the filter removed the complex word and the repeat", () => {
    expect(r.items[0].labels).toEqual([types(a).top, "zzz"]);
  });
});

describeWithSharedData(TEST, "TSAR measures on the shared English test gold", () => {
  const gold = parseTsarGold(readFileSync(TEST, "utf8"), "test_gold.tsv");
  const items = [...gold.items.values()];
  it("the most frequent substitute first for every instance: ACC@1 = Acc@1@top1 = 1, MAP@3 = 1/3 floored", () => {
    const run = items.map((i) => line(i, [types(i).top])).join("\n");
    const r = scoreTsar(gold, parseTsarPredictions(run, "top.tsv"));
    expect(r.instances).toBe(items.length);
    expect(r.figures!.acc1).toBe(1);
    expect(r.figures!.accuracyTop1[1]).toBe(1);
    expect(r.figures!.map[3]).toBe(0.3333);
    expect(r.figures!.map[10]).toBe(0.1);
  });
  it("MLSP's flag: where annotators gave the complex word most often, Acc@1@top1 drops for the flagged gold", () => {
    const wordOnTop = items.filter((i) => {
      const all = tsarGoldCounts(i, true);
      const w = all.find((c) => c.substitute === i.word)?.count ?? 0;
      return w > 0 && all.every((c) => c.substitute === i.word || c.count < w);
    });
    expect(wordOnTop.length).toBeGreaterThan(0);
    const run = wordOnTop.map((i) => line(i, [types(i).top])).join("\n");
    const plain = scoreTsar(gold, parseTsarPredictions(run, "r.tsv"));
    const mlsp = scoreTsar(gold, parseTsarPredictions(run, "r.tsv"), { keepComplexWord: true });
    expect(plain.figures!.accuracyTop1[1]).toBe(1);
    expect(mlsp.figures!.accuracyTop1[1]).toBe(0);
    // ACC@1 (any gold substitute) is the same either way
    expect(mlsp.figures!.acc1).toBe(plain.figures!.acc1);
  });
});
