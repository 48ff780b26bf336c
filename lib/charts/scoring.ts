/**
 * The Scoring tab's chart: each run's precision and recall (best or out-of-ten) with its bootstrap
 * 95 % interval over the gold's items, the runs in the order of their recall. Data in, Chart out.
 */
import * as Plot from "@observablehq/plot";
import type { ScoreIntervals } from "../scorers/shared/intervals";
import { ACCENT, type Chart, INK, MUTED, pct, renderSvg } from "./render";

export interface RunScore {
  name: string;
  precision: number | null;
  recall: number | null;
  intervals: ScoreIntervals | null;
}

const TYPE_NAMES = { best: "best", oot: "out-of-ten" } as const;

/** One chart for the runs of one type (they share a scale); null without a scored run. */
export function runScoresChart(type: "best" | "oot", runs: readonly RunScore[], id = `runs-${type}`): Chart | null {
  const scored = runs.filter((r) => r.precision !== null && r.recall !== null).sort((a, b) => b.recall! - a.recall!);
  if (scored.length === 0) return null;
  const data = scored.flatMap((r) =>
    (["precision", "recall"] as const).map((measure) => ({
      run: r.name,
      measure,
      value: 100 * r[measure]!,
      low: r.intervals?.[measure] ? 100 * r.intervals[measure]!.low : null,
      high: r.intervals?.[measure] ? 100 * r.intervals[measure]!.high : null,
    })),
  );
  const iv = (d: (typeof data)[number]) => (d.low === null ? "" : ` (95 % interval ${d.low.toFixed(2)}–${d.high!.toFixed(2)})`);
  const title = `${TYPE_NAMES[type]}: precision and recall of ${scored.length} run${scored.length === 1 ? "" : "s"}, with 95 % intervals`;
  const description =
    `Each ${TYPE_NAMES[type]} run's precision and recall in percent, a line across its bootstrap 95 % interval over the gold's items, highest recall first: ` +
    scored.map((r) => `${r.name}: P ${pct(r.precision)}, R ${pct(r.recall)}`).join("; ") +
    ".";
  const top = Math.max(...data.map((d) => d.high ?? d.value));
  const longest = Math.max(...scored.map((r) => r.name.length));
  const { svg, narrow } = renderSvg(id, title, description, {
    width: 640,
    height: 70 + scored.length * 30,
    marginLeft: Math.min(220, longest * 7 + 16),
    marginRight: 16,
    marginBottom: 40,
    fx: { domain: ["precision", "recall"], label: null, padding: 0.1 },
    x: { domain: [0, Math.min(100, Math.max(10, Math.ceil(top / 10) * 10))], label: "percent", labelAnchor: "center", labelArrow: "none", grid: true, ticks: 4 },
    y: { domain: scored.map((r) => r.name), label: null },
    marks: [
      Plot.frame({ stroke: MUTED, strokeOpacity: 0.3 }),
      Plot.ruleY(
        data.filter((d) => d.low !== null),
        { fx: "measure", y: "run", x1: "low", x2: "high", stroke: INK, strokeWidth: 1.5 },
      ),
      Plot.dot(data, { fx: "measure", y: "run", x: "value", r: 4.5, fill: ACCENT, title: (d: (typeof data)[number]) => `${d.run}, ${d.measure}: ${d.value.toFixed(2)}${iv(d)}` }),
    ],
  });
  return {
    id,
    fileName: `runs-${type}.svg`,
    title,
    description,
    svg,
    narrow,
    table: {
      columns: ["run", "precision %", "precision 95 % interval", "recall %", "recall 95 % interval"],
      rows: scored.map((r) => {
        const cell = (m: "precision" | "recall") => {
          const i = r.intervals?.[m];
          return i ? `${(100 * i.low).toFixed(2)}–${(100 * i.high).toFixed(2)}` : "—";
        };
        return [r.name, (100 * r.precision!).toFixed(2), cell("precision"), (100 * r.recall!).toFixed(2), cell("recall")];
      }),
    },
  };
}
