/**
 * The Scoring tab's intervals (lib/scorers/shared/intervals.ts): seeded, around the figures they
 * bound, degenerate when nothing varies, and refused for impossible inputs.
 */
import { describe, expect, it } from "vitest";
import { scoreIntervals } from "../../lib/scorers/shared/intervals";

describe("scoreIntervals", () => {
  it("bounds the run's own precision and recall, and the same seed gives the same interval", () => {
    const scores: number[] = Array.from({ length: 60 }, (_, k) => (k % 3 === 0 ? 1 : k % 3 === 1 ? 0.5 : 0));
    const total = 80;
    const a = scoreIntervals(scores, total, { seed: 7 })!;
    const sum = scores.reduce((x, y) => x + y, 0);
    expect(a.precision!.low).toBeLessThan(sum / scores.length);
    expect(a.precision!.high).toBeGreaterThan(sum / scores.length);
    expect(a.recall!.low).toBeLessThan(sum / total);
    expect(a.recall!.high).toBeGreaterThan(sum / total);
    expect(scoreIntervals(scores, total, { seed: 7 })).toEqual(a);
    expect(scoreIntervals(scores, total, { seed: 8 })).not.toEqual(a);
    // A wider level, a wider interval.
    const wide = scoreIntervals(scores, total, { seed: 7, level: 0.99 })!;
    expect(wide.recall!.high - wide.recall!.low).toBeGreaterThan(a.recall!.high - a.recall!.low);
  });

  it("is a point when every item of T is attempted with the same score, and refuses impossible inputs", () => {
    const same = scoreIntervals([0.5, 0.5, 0.5, 0.5], 4)!;
    expect(same.precision).toEqual({ low: 0.5, high: 0.5 });
    expect(same.recall).toEqual({ low: 0.5, high: 0.5 });
    expect(scoreIntervals([1, 1], 1)).toBeNull();
    expect(scoreIntervals([], 0)).toBeNull();
  });
});
