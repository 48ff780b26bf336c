import type { HistogramBin } from "@/lib/lexsub/agreement";
import { int } from "@/app/_ui/format";
import { pct } from "./format";
import styles from "./agreement.module.css";

const W = 560;
const H = 230;
const M = { top: 26, right: 14, bottom: 50, left: 66 };

/** A tidy axis maximum and step for counts up to `max`. */
function scale(max: number): { top: number; step: number } {
  if (max <= 5) return { top: Math.max(1, max), step: 1 };
  const raw = max / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  return { top: Math.ceil(max / step) * step, step };
}

/**
 * The distribution of per-item pairwise agreement as an SVG bar chart: ten bins
 * of 10 points, the count over each bar, the overall mean marked. The same
 * numbers are in the chart's description and in a table for screen readers.
 */
export function Histogram({ bins, mean, id }: { bins: HistogramBin[]; mean: number | null; id: string }) {
  const total = bins.reduce((s, b) => s + b.count, 0);
  const { top, step } = scale(Math.max(0, ...bins.map((b) => b.count)));
  const iw = W - M.left - M.right;
  const ih = H - M.top - M.bottom;
  const bw = iw / bins.length;
  const y = (c: number) => M.top + ih - (c / top) * ih;
  const ticks: number[] = [];
  for (let t = 0; t <= top + 1e-9; t += step) ticks.push(t);
  const label = (b: HistogramBin, k: number) => `${Math.round(b.from * 100)}–${Math.round(b.to * 100)}%${k === bins.length - 1 ? " (inclusive)" : ""}`;
  const desc = bins.map((b, k) => `${label(b, k)}: ${b.count}`).join("; ");
  return (
    <figure className={styles.chart}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${id}-title ${id}-desc`} className={styles.histogram}>
        <title id={`${id}-title`}>{`Per-item pairwise agreement over ${total} items`}</title>
        <desc id={`${id}-desc`}>{`Items per band of agreement: ${desc}.${mean !== null ? ` Mean over all pairs: ${pct(mean)}.` : ""}`}</desc>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} className={styles.grid} />
            <text x={M.left - 6} y={y(t)} dy="0.32em" textAnchor="end" className={styles.tick}>
              {int(t)}
            </text>
          </g>
        ))}
        {bins.map((b, k) => {
          const x = M.left + k * bw;
          return (
            <g key={k}>
              <rect x={x + 3} width={bw - 6} y={y(b.count)} height={Math.max(0, M.top + ih - y(b.count))} rx={2} className={styles.barRect}>
                <title>{`${label(b, k)}: ${plural(b.count)}`}</title>
              </rect>
              {b.count > 0 && (
                <text x={x + bw / 2} y={y(b.count) - 5} textAnchor="middle" className={styles.count}>
                  {int(b.count)}
                </text>
              )}
            </g>
          );
        })}
        {bins.map((b, k) => (
          <text key={k} x={M.left + k * bw} y={M.top + ih + 18} textAnchor="middle" className={`${styles.tick} ${k % 2 === 1 ? styles.oddTick : ""}`}>
            {Math.round(b.from * 100)}
          </text>
        ))}
        <text x={W - M.right} y={M.top + ih + 18} textAnchor="end" className={styles.tick}>
          100
        </text>
        {mean !== null && (
          <g>
            <line x1={M.left + mean * iw} x2={M.left + mean * iw} y1={M.top - 6} y2={M.top + ih} className={styles.meanLine} />
            <text x={M.left + mean * iw} y={M.top - 9} textAnchor={mean > 0.8 ? "end" : "start"} dx={mean > 0.8 ? -4 : 4} className={styles.meanText}>
              {`mean ${pct(mean)}`}
            </text>
          </g>
        )}
        <text x={M.left + iw / 2} y={H - 6} textAnchor="middle" className={styles.axisLabel}>
          pairwise agreement of the item (%)
        </text>
        <text x={14} y={M.top + ih / 2} textAnchor="middle" transform={`rotate(-90 14 ${M.top + ih / 2})`} className={styles.axisLabel}>
          items
        </text>
      </svg>
    </figure>
  );
}

function plural(n: number): string {
  return `${int(n)} item${n === 1 ? "" : "s"}`;
}
