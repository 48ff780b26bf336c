/**
 * The Agreement tab's charts, also written into releases: the distribution of per-item pairwise
 * agreement (a histogram of ten bands) and pairwise agreement for every pair of annotators (a
 * heatmap). Data in, Chart out (render.ts).
 */
import * as Plot from "@observablehq/plot";
import { type HistogramBin, type PairAgreement, topPairs } from "../lexsub/agreement";
import { ACCENT, type Chart, drawnOnce, INK, LINE, MUTED, num, pct, renderSvg } from "./render";

const band = (b: HistogramBin, k: number, n: number) => `${Math.round(b.from * 100)}–${Math.round(b.to * 100)} %${k === n - 1 ? " (inclusive)" : ""}`;

/** Items per band of per-item pairwise agreement, the overall mean marked. */
export function itemAgreementHistogram(bins: readonly HistogramBin[], mean: number | null, id = "item-agreement"): Chart {
  const total = bins.reduce((s, b) => s + b.count, 0);
  const title = `Per-item pairwise agreement over ${num(total)} item${total === 1 ? "" : "s"}`;
  const description =
    `How many items fall in each band of pairwise agreement: ${bins.map((b, k) => `${band(b, k, bins.length)}: ${num(b.count)}`).join("; ")}.` +
    (mean !== null ? ` The mean over all pairs, ${pct(mean)}, is marked.` : "");
  const data = bins.map((b, k) => ({ from: b.from * 100, to: b.to * 100, count: b.count, label: band(b, k, bins.length) }));
  const { svg, narrow } = renderSvg(id, title, description, {
    width: 560,
    height: 260,
    marginLeft: 50,
    marginTop: 28,
    marginBottom: 42,
    x: { domain: [0, 100], label: "pairwise agreement of the item (%)", labelAnchor: "center", labelArrow: "none", ticks: 10 },
    y: { label: "items", labelArrow: "none", grid: true, nice: true, tickFormat: (d: number) => (Number.isInteger(d) ? num(d) : "") },
    marks: [
      Plot.rectY(data, { x1: "from", x2: "to", y: "count", fill: ACCENT, inset: 2, rx: 2, title: (d: (typeof data)[number]) => `${d.label}: ${num(d.count)} items` }),
      Plot.text(data, { x: (d: (typeof data)[number]) => (d.from + d.to) / 2, y: "count", text: (d: (typeof data)[number]) => (d.count > 0 ? num(d.count) : ""), dy: -7, fill: INK }),
      ...(mean !== null
        ? [
            Plot.ruleX([mean * 100], { stroke: INK, strokeDasharray: "4,3" }),
            Plot.text([mean * 100], { x: (d: number) => d, frameAnchor: "top", dy: -16, text: () => `mean ${pct(mean)}`, textAnchor: mean > 0.8 ? "end" : "start", dx: mean > 0.8 ? -4 : 4, fill: INK }),
          ]
        : []),
      Plot.ruleY([0], { stroke: MUTED }),
    ],
  });
  return { id, fileName: "item-agreement.svg", title, description, svg, narrow, table: { columns: ["band of agreement", "items"], rows: data.map((d) => [d.label, d.count]) } };
}

/** The most annotators a heatmap shows (those with the most items shared), so that its cells stay readable. */
export const HEATMAP_MAX = 20;

/**
 * Pairwise agreement per pair of annotators (both halves of the matrix filled, the diagonal
 * empty): darker is more agreement; each cell holds its percentage. Null with fewer than two
 * annotators. `label`: how an annotator is named (their name on the page, a pseudonym in a release).
 */
export function pairAgreementHeatmap(pairs: readonly PairAgreement[], id = "pair-agreement", label?: (name: string) => string, annotators?: number): Chart | null {
  if (label) return drawHeatmap(pairs, id, label, annotators);
  // The pairs are the α snapshot's (recomputed in the background, not at each save): the same pairs, the same drawing.
  return drawnOnce(JSON.stringify(["pair-agreement", id, annotators ?? null, pairs]), () => drawHeatmap(pairs, id, (n) => n, annotators));
}

function drawHeatmap(pairs: readonly PairAgreement[], id: string, label: (name: string) => string, annotators: number | undefined): Chart | null {
  const top = topPairs(pairs, HEATMAP_MAX);
  const all = annotators ?? top.annotators;
  const rows = top.pairs;
  const names: string[] = [];
  for (const p of rows) for (const n of [p.a, p.b]) if (!names.includes(n)) names.push(n);
  if (names.length < 2) return null;
  const order = names.map(label);
  const cells = rows.flatMap((p) => [
    { x: label(p.a), y: label(p.b), v: p.pairwise, items: p.items },
    { x: label(p.b), y: label(p.a), v: p.pairwise, items: p.items },
  ]);
  const left = names.length < all ? ` Only the ${names.length} of ${all} annotators who share the most items are drawn; the table lists their pairs.` : "";
  const met = rows.filter((p) => p.pairwise !== null);
  const low = met.length ? met.reduce((a, b) => (a.pairwise! <= b.pairwise! ? a : b)) : null;
  const high = met.length ? met.reduce((a, b) => (a.pairwise! >= b.pairwise! ? a : b)) : null;
  const title = `Pairwise agreement of each pair of annotators (${order.length} annotators)`;
  const description =
    `A matrix of annotator pairs; each cell is the mean agreement of the two over the items both answered with substitutes, darker for more agreement, blank where they shared no item.` +
    (low && high ? ` Lowest: ${label(low.a)} and ${label(low.b)}, ${pct(low.pairwise)}; highest: ${label(high.a)} and ${label(high.b)}, ${pct(high.pairwise)}.` : "") +
    left;
  const longest = Math.max(...order.map((n) => n.length));
  const size = Math.max(28, Math.min(44, Math.floor(480 / order.length)));
  const { svg, narrow } = renderSvg(id, title, description, {
    width: Math.max(280, longest * 7 + 24 + order.length * size),
    height: longest * 6 + 40 + order.length * size,
    marginLeft: longest * 7 + 16,
    marginBottom: longest * 6 + 24,
    marginTop: 8,
    padding: 0.06,
    x: { domain: order, label: null, tickRotate: longest > 3 ? -40 : 0 },
    y: { domain: order, label: null },
    color: { type: "linear", domain: [0, 1], range: ["#eef3f8", ACCENT] },
    marks: [
      Plot.cell(
        cells.filter((d) => d.v !== null),
        { x: "x", y: "y", fill: (d: (typeof cells)[number]) => d.v, title: (d: (typeof cells)[number]) => `${d.x} and ${d.y}: ${pct(d.v)} over ${num(d.items)} items` },
      ),
      Plot.cell(
        cells.filter((d) => d.v === null),
        { x: "x", y: "y", fill: "#ffffff", stroke: LINE, title: (d: (typeof cells)[number]) => `${d.x} and ${d.y}: no item in common` },
      ),
      Plot.text(cells, {
        x: "x",
        y: "y",
        text: (d: (typeof cells)[number]) => (d.v === null ? "" : String(Math.round(d.v * 100))),
        fill: (d: (typeof cells)[number]) => (d.v !== null && d.v > 0.55 ? "#ffffff" : INK),
        fontSize: size < 34 ? 10 : 12,
      }),
    ],
  });
  return {
    id,
    fileName: "pair-agreement.svg",
    title,
    description,
    svg,
    narrow,
    table: { columns: ["annotator", "annotator", "items both answered", "pairwise agreement"], rows: rows.map((p) => [label(p.a), label(p.b), p.items, pct(p.pairwise)]) },
  };
}
