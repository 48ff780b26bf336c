/**
 * Latency figures for the load and crash runs: percentiles by the nearest-rank
 * method, and the longest save that overlapped a coordinator's export. Pure.
 */

export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/**
 * The p-th percentile (0 < p <= 100) of the values by nearest rank: the smallest
 * value with at least p% of the values at or below it. NaN for no values.
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile: p must be in (0, 100], got ${p}`);
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil((p / 100) * sorted.length) - 1];
}

export function summarize(values: readonly number[]): LatencySummary {
  if (values.length === 0) return { count: 0, mean: Number.NaN, p50: Number.NaN, p95: Number.NaN, p99: Number.NaN, max: Number.NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.ceil((p / 100) * sorted.length) - 1];
  return {
    count: sorted.length,
    mean: sorted.reduce((s, v) => s + v, 0) / sorted.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    max: sorted[sorted.length - 1],
  };
}

/** A span of time in epoch milliseconds (start inclusive, end inclusive). */
export interface Span {
  start: number;
  end: number;
}

export interface StallReport {
  /** Saves whose time in flight overlapped some export. */
  overlapping: number;
  /** The longest of those saves in ms (0 when none overlapped). */
  longest: number;
}

/**
 * The longest save that was in flight while any export ran: how long an
 * export can hold a save up. Both lists may be in any order.
 */
export function longestSaveDuringExports(saves: readonly Span[], exports: readonly Span[]): StallReport {
  if (exports.length === 0 || saves.length === 0) return { overlapping: 0, longest: 0 };
  const ex = [...exports].sort((a, b) => a.start - b.start);
  // Merge overlapping export windows so each save is checked against disjoint spans.
  const merged: Span[] = [];
  for (const e of ex) {
    const last = merged[merged.length - 1];
    if (last && e.start <= last.end) last.end = Math.max(last.end, e.end);
    else merged.push({ start: e.start, end: e.end });
  }
  let overlapping = 0;
  let longest = 0;
  for (const s of saves) {
    // Binary search the last window starting at or before the save's end.
    let lo = 0;
    let hi = merged.length - 1;
    let idx = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (merged[mid].start <= s.end) {
        idx = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (idx >= 0 && merged[idx].end >= s.start) {
      overlapping++;
      longest = Math.max(longest, s.end - s.start);
    }
  }
  return { overlapping, longest };
}

/** Milliseconds with one decimal, or "-" for NaN. */
export function ms(v: number): string {
  return Number.isFinite(v) ? `${v.toFixed(1)} ms` : "-";
}

/** `n` runs of `run` (each its time in ms), each starting `paceMs` after the last started (or at once when the last took longer). */
export async function pacedRuns(run: () => Promise<number>, n: number, paceMs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    times.push(await run());
    const rest = paceMs - (performance.now() - t);
    if (rest > 0) await new Promise((r) => setTimeout(r, rest));
  }
  return times;
}
