/** The Judgement tab's Table 8 per source as a chart (lib/charts/judgement.ts), under the table with the same numbers. */
import type { Table8Row } from "@/lib/lexsub/judgement";
import { table8Chart } from "@/lib/charts/judgement";
import { ChartFigure } from "./chart-figure";

export function Table8Chart({ rows, id }: { rows: readonly Table8Row[]; id: string }) {
  const chart = table8Chart(rows, id);
  return chart ? <ChartFigure chart={chart} /> : null;
}
