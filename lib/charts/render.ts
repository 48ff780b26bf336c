/**
 * Charts drawn on the server as SVG with Observable Plot (a maintained grammar of graphics from
 * the makers of D3), given a small DOM (linkedom) to draw into: no chart needs JavaScript in the
 * browser to show, and the same SVG text goes into a release as a file of its own. Every chart
 * carries a title and a description (the SVG's <title> and <desc>, named by aria-labelledby and aria-describedby) and
 * its numbers as a table, which the page shows to screen readers.
 */
import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";

const SVG_NS = "http://www.w3.org/2000/svg";

/** The numbers a chart draws, as rows under column headings. */
interface ChartTable {
  columns: string[];
  rows: (string | number)[][];
}

export interface Chart {
  /** Unique on the page: the SVG's title and desc ids are made from it. */
  id: string;
  /** A release's file name for it (e.g. "pairwise-agreement.svg"). */
  fileName: string;
  title: string;
  description: string;
  /** A standalone SVG document (xmlns set), safe to embed and to save as a file. */
  svg: string;
  /** The same drawn for a narrow screen (NARROW_WIDTH wide; ids suffixed "-n"), or null when the chart is no wider. */
  narrow: string | null;
  table: ChartTable;
}

/** The app's palette (app/globals.css), fixed so that a saved file looks as the page does. */
export const INK = "#1f2328";
export const MUTED = "#5c6470";
export const ACCENT = "#2f5d8a";
export const WARN = "#8a5a00";
export const LINE = "#dcd9d2";

let doc: Document | null = null;
function document(): Document {
  if (!doc) doc = parseHTML("<!doctype html><html><head></head><body></body></html>").document as unknown as Document;
  return doc;
}

/** The width of a chart's narrow drawing: a phone's screen less the page's margins. */
const NARROW_WIDTH = 340;

/** Plot's options with the document to draw into and the chart's text; the SVG text, and a narrow one when the chart is wider. */
export function renderSvg(id: string, title: string, description: string, options: Plot.PlotOptions): { svg: string; narrow: string | null } {
  const svg = drawSvg(id, title, description, options);
  const wide = options.width ?? 640;
  return { svg, narrow: wide > NARROW_WIDTH ? drawSvg(`${id}-n`, title, description, { ...options, width: NARROW_WIDTH }) : null };
}

function drawSvg(id: string, title: string, description: string, options: Plot.PlotOptions): string {
  const d = document();
  const node = Plot.plot({ ...options, document: d, style: { fontFamily: "system-ui, -apple-system, 'Segoe UI', sans-serif", fontSize: "12px", color: INK, background: "#ffffff", ...(typeof options.style === "object" ? options.style : {}) } }) as unknown as Element;
  const svg = node.tagName.toLowerCase() === "svg" ? node : node.querySelector("svg")!;
  svg.setAttribute("xmlns", SVG_NS);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-labelledby", `${id}-title`);
  svg.setAttribute("aria-describedby", `${id}-desc`);
  svg.removeAttribute("aria-label");
  svg.removeAttribute("aria-description");
  const t = d.createElementNS(SVG_NS, "title");
  t.setAttribute("id", `${id}-title`);
  t.textContent = title;
  const ds = d.createElementNS(SVG_NS, "desc");
  ds.setAttribute("id", `${id}-desc`);
  ds.textContent = description;
  svg.insertBefore(ds, svg.firstChild);
  svg.insertBefore(t, ds);
  return svg.outerHTML;
}

/** How many charts `drawnOnce` keeps. */
const DRAWN_MAX = 32;
const drawn = new Map<string, Chart | null>();

/**
 * The chart drawn from `key` (everything it is drawn from, as text), drawn by `draw` only when it is
 * not among the last DRAWN_MAX drawn. For charts of figures that change only now and then (the
 * background's α snapshot): a page loaded again from the same figures takes the SVG already drawn
 * rather than drawing it again (Plot into linkedom: tens of milliseconds for a heatmap, with the
 * server's event loop held meanwhile). The chart is shared: nobody changes it.
 */
export function drawnOnce(key: string, draw: () => Chart | null): Chart | null {
  const kept = drawn.get(key);
  if (kept !== undefined) {
    drawn.delete(key);
    drawn.set(key, kept);
    return kept;
  }
  const chart = draw();
  if (chart) Object.freeze(chart.table);
  drawn.set(key, chart ? Object.freeze(chart) : chart);
  if (drawn.size > DRAWN_MAX) drawn.delete(drawn.keys().next().value!);
  return chart;
}

/** A number as a page shows it: up to `digits` decimals, grouped thousands. */
export const num = (x: number, digits = 1) => x.toLocaleString("en-US", { maximumFractionDigits: digits });
/** A proportion in [0, 1] as a percentage with one decimal. */
export const pct = (x: number | null) => (x === null ? "—" : `${(100 * x).toFixed(1)} %`);
