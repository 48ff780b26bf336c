/** The load run's figures from its records, and the PASS/MISS table. */
import { lostAndDoubled, type AckReport } from "./acks";
import type { LoadRecords } from "./load-run";
import { type LatencySummary, longestSaveDuringExports, summarize } from "./stats";

export interface LoadFigures {
  durationSec: number;
  savesSent: number;
  savesAcked: number;
  savesPerSec: number;
  save: LatencySummary;
  saveErrors: { refused: number; failed: number; unanswered: number };
  cutAtEnd: number;
  pages: { count: number; errors: number; latency: LatencySummary };
  exports: Array<{ name: string; count: number; errors: number; latency: LatencySummary; bytes: number }>;
  exportErrors: number;
  longestSaveDuringExport: number;
  savesDuringExports: number;
  connectionErrors: number;
  lost: number;
  doubled: number;
  errors: number;
}

export function loadFigures(rec: LoadRecords, exportNames: Set<string>, acks: AckReport | null): LoadFigures {
  const durationSec = (rec.endedAt - rec.startedAt) / 1000;
  const answered = rec.saves.filter((s) => s.outcome === "acked" || s.outcome === "refused" || s.outcome === "failed");
  const acked = rec.saves.filter((s) => s.outcome === "acked");
  const count = (o: string) => rec.saves.filter((s) => s.outcome === o).length;
  const saveErrors = { refused: count("refused"), failed: count("failed"), unanswered: count("unanswered") };
  const byName = new Map<string, typeof rec.exports>();
  for (const e of rec.exports) byName.set(e.name, [...(byName.get(e.name) ?? []), e]);
  const exports = [...byName].map(([name, list]) => ({
    name,
    count: list.length,
    errors: list.filter((e) => !e.ok).length,
    latency: summarize(list.map((e) => e.end - e.start)),
    bytes: Math.max(...list.map((e) => e.bytes)),
  }));
  const exportErrors = exports.reduce((n, e) => n + e.errors, 0);
  const stall = longestSaveDuringExports(
    answered.map((s) => ({ start: s.start, end: s.end })),
    rec.exports.filter((e) => exportNames.has(e.name)).map((e) => ({ start: e.start, end: e.end })),
  );
  const pageErrors = rec.pages.filter((p) => !p.ok).length;
  const { lost, doubled } = acks ? lostAndDoubled(acks) : { lost: Number.NaN, doubled: Number.NaN };
  return {
    durationSec,
    savesSent: rec.saves.length,
    savesAcked: acked.length,
    savesPerSec: acked.length / durationSec,
    save: summarize(answered.map((s) => s.end - s.start)),
    saveErrors,
    cutAtEnd: count("cut"),
    pages: { count: rec.pages.length, errors: pageErrors, latency: summarize(rec.pages.map((p) => p.end - p.start)) },
    exports,
    exportErrors,
    longestSaveDuringExport: stall.longest,
    savesDuringExports: stall.overlapping,
    connectionErrors: rec.connectionErrors,
    lost,
    doubled,
    errors: saveErrors.refused + saveErrors.failed + saveErrors.unanswered + pageErrors + exportErrors + rec.connectionErrors,
  };
}

export interface TargetRow {
  figure: string;
  value: string;
  target: string;
  pass: boolean | null;
}

export function loadTargets(f: LoadFigures): TargetRow[] {
  return [
    { figure: "p99 save latency", value: `${f.save.p99.toFixed(1)} ms`, target: "< 100 ms", pass: f.save.p99 < 100 },
    { figure: "errors (saves, pages, exports, connections)", value: String(f.errors), target: "0", pass: f.errors === 0 },
    { figure: "acknowledged saves lost", value: String(f.lost), target: "0", pass: f.lost === 0 },
    { figure: "acknowledged saves doubled", value: String(f.doubled), target: "0", pass: f.doubled === 0 },
    {
      figure: "longest save while an export ran",
      value: `${f.longestSaveDuringExport.toFixed(1)} ms (${f.savesDuringExports} saves)`,
      target: "< 200 ms",
      pass: f.savesDuringExports > 0 ? f.longestSaveDuringExport < 200 : null,
    },
  ];
}

/** A plain-text table: columns padded to their widest cell. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd();
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

export const verdict = (p: boolean | null) => (p === null ? "n/a" : p ? "PASS" : "MISS");

export function loadReport(f: LoadFigures): string {
  const l = (s: LatencySummary) => `p50 ${s.p50.toFixed(1)}  p95 ${s.p95.toFixed(1)}  p99 ${s.p99.toFixed(1)}  max ${s.max.toFixed(1)} ms`;
  const lines = [
    `duration ${f.durationSec.toFixed(1)} s`,
    `saves: ${f.savesAcked} acknowledged of ${f.savesSent} sent (${f.cutAtEnd} still in flight at the end), ${f.savesPerSec.toFixed(1)} saves/s`,
    `  latency ${l(f.save)}`,
    `  refused ${f.saveErrors.refused}, failed ${f.saveErrors.failed}, unanswered ${f.saveErrors.unanswered}, connection errors ${f.connectionErrors}`,
    `page loads: ${f.pages.count}, errors ${f.pages.errors}; latency ${l(f.pages.latency)}`,
    ...f.exports.map((e) => `coordinator ${e.name}: ${e.count} × (${(e.bytes / 1024).toFixed(0)} KB), errors ${e.errors}; ${l(e.latency)}`),
    "",
    table(
      ["figure", "value", "target", "result"],
      loadTargets(f).map((t) => [t.figure, t.value, t.target, verdict(t.pass)]),
    ),
  ];
  return lines.join("\n");
}
