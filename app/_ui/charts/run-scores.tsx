/** The Scoring tab's charts (lib/charts/scoring.ts): best and out-of-ten runs with their intervals. */
import type { ScoreBoard } from "@/lib/server/scoring";
import { runScoresChart } from "@/lib/charts/scoring";
import { ChartFigure } from "./chart-figure";

export function RunScoresCharts({ board }: { board: ScoreBoard }) {
  const charts = (["best", "oot"] as const).map((type) =>
    runScoresChart(
      type,
      board.runs
        .filter((r) => r.run.type === type && r.figures && r.figures.type !== "mw")
        .map((r) => {
          const f = r.figures as { precision: number | null; recall: number | null };
          return { name: r.run.name, precision: f.precision, recall: f.recall, intervals: r.intervals };
        }),
    ),
  );
  if (charts.every((c) => c === null)) return null;
  return (
    <section aria-labelledby="run-charts-heading">
      <h2 id="run-charts-heading">Runs at a glance</h2>
      <p className="muted small">The figures of the table above, against {board.gold.label}, each with its bootstrap 95% interval over the gold&apos;s items.</p>
      {charts.map((c) => c && <ChartFigure key={c.id} chart={c} />)}
    </section>
  );
}
