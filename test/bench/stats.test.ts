import { describe, expect, it } from "vitest";
import { longestSaveDuringExports, percentile, summarize } from "../../bench/lib/stats";

describe("percentile (nearest rank)", () => {
  it("picks the smallest value with p% at or below it", () => {
    const v = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6]; // 1..10, unsorted
    expect(percentile(v, 50)).toBe(5);
    expect(percentile(v, 90)).toBe(9);
    expect(percentile(v, 95)).toBe(10);
    expect(percentile(v, 100)).toBe(10);
    expect(percentile(v, 1)).toBe(1);
  });

  it("p99 of 1,000 values is the 990th smallest", () => {
    const v = Array.from({ length: 1000 }, (_, i) => 1000 - i);
    expect(percentile(v, 99)).toBe(990);
  });

  it("is NaN for no values and refuses p outside (0, 100]", () => {
    expect(percentile([], 50)).toBeNaN();
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
  });

  it("summarize agrees with percentile and does not reorder its input", () => {
    const v = [30, 10, 20, 40];
    const s = summarize(v);
    expect(s).toEqual({ count: 4, mean: 25, p50: 20, p95: 40, p99: 40, max: 40 });
    expect(v).toEqual([30, 10, 20, 40]);
  });
});

describe("longestSaveDuringExports", () => {
  it("takes the longest save overlapping any export, ignoring saves outside them", () => {
    const exports = [
      { start: 100, end: 200 },
      { start: 500, end: 520 },
    ];
    const saves = [
      { start: 0, end: 99 }, // before the first export: 99 ms but not counted
      { start: 150, end: 170 }, // inside: 20
      { start: 190, end: 260 }, // straddles the end: 70
      { start: 300, end: 450 }, // between exports: 150, not counted
      { start: 480, end: 505 }, // straddles the start of the second: 25
    ];
    expect(longestSaveDuringExports(saves, exports)).toEqual({ overlapping: 3, longest: 70 });
  });

  it("merges overlapping exports and handles a save spanning a whole export", () => {
    const exports = [
      { start: 10, end: 50 },
      { start: 40, end: 60 },
    ];
    expect(longestSaveDuringExports([{ start: 0, end: 100 }], exports)).toEqual({ overlapping: 1, longest: 100 });
    expect(longestSaveDuringExports([{ start: 61, end: 70 }], exports)).toEqual({ overlapping: 0, longest: 0 });
  });

  it("is zero without exports or saves", () => {
    expect(longestSaveDuringExports([{ start: 0, end: 5 }], [])).toEqual({ overlapping: 0, longest: 0 });
    expect(longestSaveDuringExports([], [{ start: 0, end: 5 }])).toEqual({ overlapping: 0, longest: 0 });
  });
});
