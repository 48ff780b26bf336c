/**
 * The plots a release carries under agreement/ (file name → SVG text): the charts the Agreement
 * and Progress tabs draw (lib/charts), from the release's own snapshot, every annotator named by
 * their pseudonym.
 */
import "server-only";
import { itemAgreementHistogram, pairAgreementHeatmap } from "../../charts/agreement";
import { answersPerDayChart, timeOnTaskChart } from "../../charts/progress";
import type { ReleaseSnapshot } from "./snapshot";

export function releaseCharts(snapshot: ReleaseSnapshot, pseudonyms: Map<number, string>): Map<string, string> {
  const byName = new Map(snapshot.answers.map((a) => [a.name, pseudonyms.get(a.userId) ?? "?"]));
  const byId = (who: string) => (/^#\d+$/.test(who) ? (pseudonyms.get(Number(who.slice(1))) ?? who) : who);
  const charts = [
    itemAgreementHistogram(snapshot.agreement.histogram, snapshot.agreement.pairwise),
    pairAgreementHeatmap(snapshot.pairs, "pair-agreement", (name) => byName.get(name) ?? name),
    answersPerDayChart(snapshot.progress.days.map((d) => ({ ...d, who: byId(d.who) }))),
    timeOnTaskChart(
      snapshot.progress.times.map((t) => ({ ...t, who: byId(t.who) })),
      snapshot.speedThresholdSeconds,
    ),
  ];
  return new Map(charts.filter((c) => c !== null).map((c) => [c.fileName, c.svg]));
}
