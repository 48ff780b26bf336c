/**
 * The Judgement tab's chart: the paper's Table 8 per source, the share of each source's
 * candidates judged good, reasonable and bad, each with its Wilson 95 % interval.
 */
import * as Plot from "@observablehq/plot";
import type { Table8Row } from "../lexsub/judgement";
import { type Chart, INK, MUTED, num, renderSvg } from "./render";

const LABELS = ["good", "reasonable", "bad"] as const;
const COLORS: Record<(typeof LABELS)[number], string> = { good: "#2e6b3a", reasonable: "#8a5a00", bad: "#a1262b" };

export function table8Chart(rows: readonly Table8Row[], id = "table8"): Chart | null {
  const judged = rows.filter((r) => r.total > 0);
  if (judged.length === 0) return null;
  const data = judged.flatMap((r) => LABELS.map((label) => ({ source: r.source, label, total: r.total, count: r[label].count, percent: r[label].percent, low: 100 * r[label].interval.low, high: 100 * r[label].interval.high })));
  const title = `Table 8 by source: the share of each source's candidates judged good, reasonable and bad (${judged.length} sources)`;
  const description =
    "For each source of candidates, the percentage judged good, reasonable and bad, with a line for the 95 % interval (Wilson): " +
    judged.map((r) => `${r.source} (${num(r.total)} judged): good ${num(r.good.percent)} %, reasonable ${num(r.reasonable.percent)} %, bad ${num(r.bad.percent)} %`).join("; ") +
    ".";
  const longest = Math.max(...judged.map((r) => r.source.length));
  const { svg, narrow } = renderSvg(id, title, description, {
    width: 640,
    height: 70 + judged.length * 34,
    marginLeft: Math.min(200, longest * 7 + 16),
    marginRight: 16,
    marginBottom: 40,
    fx: { domain: [...LABELS], label: null, padding: 0.12 },
    x: { domain: [0, 100], label: "percent of the source's judged candidates", labelAnchor: "center", labelArrow: "none", ticks: 3, grid: true },
    y: { domain: judged.map((r) => r.source), label: null },
    marks: [
      Plot.frame({ stroke: MUTED, strokeOpacity: 0.3 }),
      Plot.ruleY(data, { fx: "label", y: "source", x1: "low", x2: "high", stroke: INK, strokeWidth: 1.5 }),
      Plot.dot(data, {
        fx: "label",
        y: "source",
        x: "percent",
        r: 4.5,
        fill: (d: (typeof data)[number]) => COLORS[d.label],
        title: (d: (typeof data)[number]) => `${d.source}, ${d.label}: ${num(d.percent)} % (${num(d.count)} of ${num(d.total)}; 95 % interval ${num(d.low)}–${num(d.high)} %)`,
      }),
    ],
  });
  return {
    id,
    fileName: "table8.svg",
    title,
    description,
    svg,
    narrow,
    table: {
      columns: ["source", "judged", "good %", "good 95 % interval", "reasonable %", "reasonable 95 % interval", "bad %", "bad 95 % interval"],
      rows: judged.map((r) => [
        r.source,
        r.total,
        num(r.good.percent),
        `${num(100 * r.good.interval.low)}–${num(100 * r.good.interval.high)}`,
        num(r.reasonable.percent),
        `${num(100 * r.reasonable.interval.low)}–${num(100 * r.reasonable.interval.high)}`,
        num(r.bad.percent),
        `${num(100 * r.bad.interval.low)}–${num(100 * r.bad.interval.high)}`,
      ]),
    },
  };
}
