/**
 * The charts (lib/charts): standalone SVG with a title and a description named for assistive
 * technology, text escaped, the numbers in the table, and the limits each says it applies.
 */
import { describe, expect, it } from "vitest";
import { itemAgreementHistogram, pairAgreementHeatmap, HEATMAP_MAX } from "../../lib/charts/agreement";
import { answersPerDayChart, timeOnTaskChart, TIMES_MAX } from "../../lib/charts/progress";
import { table8Chart } from "../../lib/charts/judgement";
import { modelAgreementChart } from "../../lib/charts/models";
import { table8 } from "../../lib/lexsub/judgement";

const bins = Array.from({ length: 10 }, (_, k) => ({ from: k / 10, to: (k + 1) / 10, count: k === 3 ? 5 : k }));

function accessible(svg: string, id: string) {
  expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  expect(svg).toContain(`role="img"`);
  expect(svg).toContain(`aria-labelledby="${id}-title"`);
  expect(svg).toContain(`aria-describedby="${id}-desc"`);
  expect(svg).toMatch(new RegExp(`<title id="${id}-title">[^<]+</title><desc id="${id}-desc">[^<]+</desc>`));
}

describe("charts", () => {
  it("the histogram: ten bands, their counts in the table and the description, the mean", () => {
    const c = itemAgreementHistogram(bins, 0.42, "h");
    accessible(c.svg, "h");
    expect(c.title).toBe(`Per-item pairwise agreement over ${bins.reduce((s, b) => s + b.count, 0)} items`);
    expect(c.table.rows.map((r) => r[1])).toEqual(bins.map((b) => b.count));
    expect(c.description).toContain("30–40 %: 5");
    expect(c.description).toContain("mean over all pairs, 42.0 %");
  });

  it("the heatmap escapes names, leaves pairs who never met blank, and draws at most HEATMAP_MAX annotators", () => {
    const names = Array.from({ length: HEATMAP_MAX + 5 }, (_, k) => `a${k}<&>`);
    const pairs = names.flatMap((a, i) => names.slice(i + 1).map((b, j) => ({ a, b, items: i < 3 ? 0 : 50 - i - j, pairwise: i < 3 ? null : 0.5 })));
    const c = pairAgreementHeatmap(pairs, "m")!;
    accessible(c.svg, "m");
    expect(c.svg).not.toContain("a5<&>");
    expect(c.svg).toContain("a5&lt;&amp;&gt;");
    expect(c.description).toContain(`Only the ${HEATMAP_MAX} of ${HEATMAP_MAX + 5} annotators`);
    expect(new Set(c.table.rows.flatMap((r) => [r[0], r[1]])).size).toBe(HEATMAP_MAX);
    expect(pairAgreementHeatmap([{ a: "x", b: "y", items: 0, pairwise: null }].slice(0, 0))).toBeNull();
  });

  it("the heatmap of the same pairs is drawn once and shared; other pairs, or names given, draw anew", () => {
    const pairs = [
      { a: "ann", b: "bob", items: 12, pairwise: 0.5 },
      { a: "ann", b: "cy", items: 3, pairwise: 0.25 },
      { a: "bob", b: "cy", items: 0, pairwise: null },
    ];
    const first = pairAgreementHeatmap(pairs, "same", undefined, 3)!;
    // The same figures (a copy of them, as a page's next load reads them again): the same drawing, not a new one.
    expect(pairAgreementHeatmap(pairs.map((p) => ({ ...p })), "same", undefined, 3)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // One pair's figure moved (the snapshot recomputed): drawn again, with the new figure in it.
    const moved = pairAgreementHeatmap([{ ...pairs[0], pairwise: 0.75 }, ...pairs.slice(1)], "same", undefined, 3)!;
    expect(moved).not.toBe(first);
    expect(moved.svg).toContain("75.0 %");
    expect(first.svg).not.toContain("75.0 %");
    // Another id on the page, or pseudonyms (a release): drawn for it.
    expect(pairAgreementHeatmap(pairs, "other", undefined, 3)!.svg).toContain('id="other-title"');
    const named = pairAgreementHeatmap(pairs, "same", (n) => `P-${n}`, 3)!;
    expect(named).not.toBe(first);
    expect(named.svg).toContain("P-ann");
  });

  it("a model beside the people: the people on one row with their range and mean, each model a row; nothing to draw without both", () => {
    const people = [
      { annotator: "ann", pairwise: 0.5 },
      { annotator: "bob", pairwise: 0.25 },
      { annotator: "cy<&>", pairwise: null },
    ];
    const c = modelAgreementChart(people, 0.4, [
      { name: "llama", withPool: 0.3 },
      { name: "gpt", withPool: null },
    ])!;
    accessible(c.svg, "model-agreement");
    expect(c.title).toBe("Pairwise agreement: the model beside 2 people");
    expect(c.description).toContain("from 25.0 % (bob) to 50.0 % (ann), their mean over all pairs 40.0 %");
    expect(c.description).toContain("llama 30.0 %");
    expect(c.description).not.toContain("gpt");
    expect(c.table.rows).toEqual([
      ["llama", "model", "30.0"],
      ["ann", "person", "50.0"],
      ["bob", "person", "25.0"],
    ]);
    expect(modelAgreementChart(people, 0.4, [{ name: "gpt", withPool: null }])).toBeNull();
    expect(modelAgreementChart([], null, [{ name: "llama", withPool: 0.3 }])).toBeNull();
  });

  it("answers per day: every day between the first and the last, a quiet one as 0; the table as given", () => {
    const c = answersPerDayChart([
      { day: "2026-01-01", who: "ann", answers: 3 },
      { day: "2026-01-03", who: "ann", answers: 1 },
      { day: "2026-01-03", who: "bob", answers: 7 },
    ])!;
    accessible(c.svg, "answers-per-day");
    expect(c.title).toBe("Answers per day, by annotator (3 days, 11 answers)");
    expect(c.description).toContain("The busiest: bob on 2026-01-03, 7.");
    expect(c.table.rows).toEqual([
      ["2026-01-01", "ann", 3],
      ["2026-01-03", "ann", 1],
      ["2026-01-03", "bob", 7],
    ]);
    expect(answersPerDayChart([])).toBeNull();
  });

  it("time on task: fastest first, those under the threshold named, at most TIMES_MAX drawn", () => {
    const rows = Array.from({ length: TIMES_MAX + 3 }, (_, k) => ({ who: `p${k}`, timed: 10, p10: 1 + k, q1: 2 + k, median: 3 + k, q3: 4 + k, p90: 5 + k }));
    const c = timeOnTaskChart(rows.reverse(), 4.5)!;
    accessible(c.svg, "time-on-task");
    expect(c.title).toContain(`the ${TIMES_MAX} fastest of ${TIMES_MAX + 3}`);
    expect(c.description).toContain("2 medians are below it (p0, p1)");
    expect(c.table.rows[0][0]).toBe("p0");
  });

  it("Table 8: each source's shares with their intervals", () => {
    const rows = table8([
      { sources: ["annotators"], verdict: "good" },
      { sources: ["annotators", "wordnet"], verdict: "bad" },
      { sources: ["wordnet"], verdict: "reasonable" },
    ]);
    const c = table8Chart(rows, "t8")!;
    accessible(c.svg, "t8");
    expect(c.table.rows.map((r) => r[0])).toEqual(["annotators", "wordnet"]);
    expect(c.description).toContain("annotators (2 judged): good 50 %, reasonable 0 %, bad 50 %");
  });
});

describe("the runs' chart", () => {
  it("draws precision and recall with their intervals, highest recall first; a run without figures is left out", async () => {
    const { runScoresChart } = await import("../../lib/charts/scoring");
    const iv = (low: number, high: number) => ({ low, high });
    const c = runScoresChart("best", [
      { name: "low", precision: 0.1, recall: 0.05, intervals: { iterations: 1000, level: 0.95, precision: iv(0.05, 0.15), recall: iv(0.02, 0.08) } },
      { name: "high", precision: 0.4, recall: 0.3, intervals: { iterations: 1000, level: 0.95, precision: iv(0.35, 0.45), recall: iv(0.25, 0.35) } },
      { name: "broken", precision: null, recall: null, intervals: null },
    ])!;
    accessible(c.svg, "runs-best");
    expect(c.table.rows).toEqual([
      ["high", "40.00", "35.00–45.00", "30.00", "25.00–35.00"],
      ["low", "10.00", "5.00–15.00", "5.00", "2.00–8.00"],
    ]);
    expect(runScoresChart("oot", [])).toBeNull();
  });
});

describe("answers per day with many annotators", () => {
  it("draws the busiest LINES_MAX - 1 and sums the rest as others, every answer still counted", async () => {
    const { LINES_MAX } = await import("../../lib/charts/progress");
    const rows = Array.from({ length: LINES_MAX + 5 }, (_, k) => ({ day: "2026-02-01", who: `a${String(k).padStart(2, "0")}`, answers: 100 - k }));
    const c = answersPerDayChart(rows)!;
    expect(c.table.rows).toHaveLength(LINES_MAX);
    expect(c.table.rows.map((r) => r[1])).toContain("6 others");
    expect(c.table.rows.reduce((s, r) => s + Number(r[2]), 0)).toBe(rows.reduce((s, r) => s + r.answers, 0));
  });
});
