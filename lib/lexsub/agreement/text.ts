/**
 * The agreement report as text (the CLI's `lexgold agreement` and a release's agreement.txt):
 * headline figures with their intervals, then per annotator and per PoS, tab-separated.
 */
import type { AgreementFigures, AgreementReport } from "./types";

const pct = (x: number | null) => (x === null ? "—" : (100 * x).toFixed(2));

/** The agreement report as text: headline figures, per annotator, per PoS. */
export function formatAgreement(project: string, a: AgreementReport): string {
  const out: string[] = [];
  const iv = (i: { low: number; high: number } | null) => (i ? ` (95% CI ${pct(i.low)}–${pct(i.high)})` : "");
  out.push(`Agreement for project ${project} (percent; — where undefined)`);
  out.push(`Items in T: ${a.items}; with a mode: ${a.itemsWithMode}`);
  out.push(`Pairwise agreement: ${pct(a.pairwise)} over ${a.pairs} pairs${iv(a.intervals.pairwise)}`);
  out.push(`Agreement with the mode: ${pct(a.modeAgreement)} over ${a.modeResponses} responses`);
  out.push(`Multiword detection: ${pct(a.mwDetection)} over ${a.mwDetectionPairs} pairs`);
  out.push(`Multiword identification: ${pct(a.mwIdentification)} over ${a.mwIdentificationPairs} pairs`);
  out.push(`Krippendorff's alpha (MASI): ${a.alphaMasi === null ? "—" : a.alphaMasi.toFixed(4)}${a.intervals.alphaMasi ? ` (95% CI ${a.intervals.alphaMasi.low.toFixed(4)}–${a.intervals.alphaMasi.high.toFixed(4)})` : ""}`);
  out.push("");
  out.push(["annotator", "answered", "NAME", "NIL", "items", "pairwise", "mode", "pairwise without", "mode without"].join("\t"));
  for (const p of a.perAnnotator) {
    out.push([p.annotator, p.answered, p.names, p.nils, p.items, pct(p.pairwise), pct(p.modeAgreement), pct(p.without.pairwise), pct(p.without.modeAgreement)].join("\t"));
  }
  out.push("");
  out.push(["pos", "items", "pairwise", "mode", "mw detection", "mw identification", "alpha"].join("\t"));
  const row = (label: string, f: AgreementFigures) =>
    [label, f.items, pct(f.pairwise), pct(f.modeAgreement), pct(f.mwDetection), pct(f.mwIdentification), f.alphaMasi === null ? "—" : f.alphaMasi.toFixed(4)].join("\t");
  for (const p of a.byPos) out.push(row(p.pos, p));
  out.push(row("all", a));
  return out.join("\n") + "\n";
}

