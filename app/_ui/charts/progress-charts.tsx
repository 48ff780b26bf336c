/** The Progress tab's charts (lib/charts/progress.ts): answers per day and time on task. */
import type { ProgressChartData } from "@/lib/server/annotate";
import { answersPerDayChart, timeOnTaskChart } from "@/lib/charts/progress";
import { FollowFigures } from "@/app/_ui/follow-figures";
import { ChartFigure } from "./chart-figure";

export function ProgressCharts({ data }: { data: ProgressChartData }) {
  const days = answersPerDayChart(data.days);
  const times = timeOnTaskChart(data.times, data.thresholdSeconds);
  if (!days && !times) return null;
  return (
    <section aria-labelledby="over-time-heading">
      <h2 id="over-time-heading">Over time</h2>
      <p className="muted small">
        As of <time dateTime={new Date(data.computedAt).toISOString()}>{new Date(data.computedAt).toTimeString().slice(0, 8)}</time>: drawn again at most once a minute while answers come in.
      </p>
      {days && <ChartFigure chart={days} note="(UTC days; a study's participants together)" />}
      {times ? (
        <ChartFigure chart={times} note="(the server's own measure: the time since the previous save)" />
      ) : (
        <p className="muted small">No answer carries a time yet (imported answers have none).</p>
      )}
    </section>
  );
}

/** The charts while the derivation process draws them: the page looks again (with JavaScript), or says to reload. */
export function ChartsComing({ href }: { href: string }) {
  return (
    <section aria-labelledby="over-time-heading">
      <h2 id="over-time-heading">Over time</h2>
      <p className="muted small" role="status">
        The charts are being drawn; they appear here in a moment (<a href={href}>reload</a>).
      </p>
      <FollowFigures computing />
    </section>
  );
}
