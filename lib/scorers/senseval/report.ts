/**
 * The report SENSEVAL-1 planned (seed 001 §8): for each word (lexelt) and
 * overall, precision, recall and percentage attempted for each of
 * fine / coarse / mixed × minimal / generous / stingy. Every cell comes from
 * the same per-instance computation as `scoreSenseval` (lib/scorers/senseval/score.ts);
 * a lexelt's cell sums that lexelt's instances, the overall cell all of them,
 * so the overall generous and minimal cells are exactly scorer2's figures.
 *
 * Pure: strings in, records out.
 */
import { type Diagnostic, formatDiagnostic } from "../../lexsub/diagnostics";
import { ratio } from "../../lexsub/ratio";
import {
  GRANULARITIES,
  type Granularity,
  type SenseMap,
  type SensevalAnswers,
  type SensevalKey,
  type StingyReading,
  TREATMENTS,
  type Treatment,
  parseSenseMap,
  parseSensevalAnswers,
  parseSensevalKey,
  scoreSenseval,
  sensevalTotals,
} from "./score";
import { cFixed, fixedOrNA, formatTable } from "../shared/table";

/** One cell: the `--json` figures of `lexgold senseval` without granularity and minimal. */
interface SensevalCell {
  correct: number;
  attemptedInstances: number;
  totalInstances: number;
  precision: number | null;
  recall: number | null;
  attempted: number | null;
}

type SensevalGrid = Record<Granularity, Record<Treatment, SensevalCell>>;

interface SensevalReportRow {
  /** null for the overall row. */
  lexelt: string | null;
  /** Key instances of this lexelt (all of them: minimal's exclusions show in its total). */
  instances: number;
  cells: SensevalGrid;
}

export interface SensevalReport {
  stingy: StingyReading;
  /** One row per lexelt, in the key's order. */
  lexelts: SensevalReportRow[];
  overall: SensevalReportRow;
  diagnostics: Diagnostic[];
}

function sensevalReport(answers: SensevalAnswers, key: SensevalKey, map: SenseMap, options: { stingy?: StingyReading } = {}): SensevalReport {
  const stingy = options.stingy ?? "product";
  const order: string[] = [];
  const count = new Map<string, number>();
  for (const e of key.entries) {
    if (!count.has(e.lexelt)) order.push(e.lexelt);
    count.set(e.lexelt, (count.get(e.lexelt) ?? 0) + 1);
  }
  const grid = (): SensevalGrid => ({ fine: {}, coarse: {}, mixed: {} }) as SensevalGrid;
  const rows = new Map<string | null, SensevalReportRow>();
  rows.set(null, { lexelt: null, instances: key.entries.length, cells: grid() });
  for (const l of order) rows.set(l, { lexelt: l, instances: count.get(l) ?? 0, cells: grid() });

  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const granularity of GRANULARITIES) {
    for (const treatment of TREATMENTS) {
      const r = scoreSenseval(answers, key, map, { granularity, treatment, stingy });
      for (const d of r.diagnostics) {
        const s = formatDiagnostic(d);
        if (!seen.has(s)) {
          seen.add(s);
          diagnostics.push(d);
        }
      }
      for (const [lexelt, row] of rows) {
        const events = lexelt === null ? r.events : r.events.filter((e) => e.lexelt === lexelt);
        const total = lexelt === null ? r.kept.length : r.kept.filter((e) => e.lexelt === lexelt).length;
        const t = sensevalTotals(events, total);
        row.cells[granularity][treatment] = {
          correct: t.correct,
          attemptedInstances: t.attempted,
          totalInstances: t.total,
          precision: t.precision,
          recall: t.recall,
          attempted: ratio(t.attempted, t.total),
        };
      }
    }
  }
  return { stingy, lexelts: order.map((l) => rows.get(l) as SensevalReportRow), overall: rows.get(null) as SensevalReportRow, diagnostics };
}

/** Parse three texts and build the report; every file's diagnostics come back together. */
export function sensevalReportTexts(
  files: { answers: { name: string; text: string }; key: { name: string; text: string }; sensemap: { name: string; text: string } },
  options: { stingy?: StingyReading } = {},
): SensevalReport {
  const answers = parseSensevalAnswers(files.answers.text, files.answers.name);
  const key = parseSensevalKey(files.key.text, files.key.name);
  const map = parseSenseMap(files.sensemap.text, files.sensemap.name);
  const r = sensevalReport(answers, key, map, options);
  return { ...r, diagnostics: [...key.diagnostics, ...answers.diagnostics, ...map.diagnostics, ...r.diagnostics] };
}

const STINGY_TEXT: Record<StingyReading, string> = {
  product: "stingy = product: the gold's mass split evenly over its tags, score = sum of p(t)*g(t)",
  overlap: "stingy = overlap: the gold's mass split evenly over its tags, score = sum of min(p(t), g(t))",
};

/** The grid as text: per lexelt and overall, one line per granularity, precision / recall / attempted % per treatment. */
export function formatSensevalReport(report: SensevalReport, names: { answers: string; key: string; sensemap: string }): string {
  const head = [
    `SENSEVAL-1 report for "${names.answers}" using key "${names.key}" and sense map "${names.sensemap}"`,
    "precision, recall and attempted % per treatment; minimal leaves out instances with several key tags",
    STINGY_TEXT[report.stingy],
    "",
  ];
  const rows: string[][] = [
    ["lexelt", "instances", "grain", ...TREATMENTS.flatMap(() => ["prec", "recall", "att %"])],
  ];
  for (const row of [...report.lexelts, report.overall]) {
    GRANULARITIES.forEach((g, i) => {
      const first = i === 0;
      rows.push([
        first ? (row.lexelt ?? "overall") : "",
        first ? String(row.instances) : "",
        g,
        ...TREATMENTS.flatMap((t) => {
          const c = row.cells[g][t];
          return [fixedOrNA(c.precision, 3), fixedOrNA(c.recall, 3), c.attempted === null ? "n/a" : cFixed(100 * c.attempted, 2)];
        }),
      ]);
    });
  }
  const align = ["left", "right", "left", ...TREATMENTS.flatMap(() => ["right", "right", "right"] as const)] as const;
  const groups = TREATMENTS.map((t, i) => ({ label: t, from: 3 + 3 * i, span: 3 }));
  const table = formatTable(rows, [...align], 2, groups);
  return [...head, ...table, ""].join("\n");
}
