/** How the Scoring page prints figures: as the official scorer does, with the unrounded value for a tooltip. */
import { officialPercent } from "@/lib/scorers/semeval2007/report";
import type { RunFigures, RunSummary } from "@/lib/server/scoring";

type SubMeasure = "precision" | "recall" | "modePrecision" | "modeRecall";
type MwMeasure = "detectionPrecision" | "detectionRecall" | "identificationPrecision" | "identificationRecall";
export type Measure = SubMeasure | MwMeasure;

const SUB_MEASURES: { key: SubMeasure; label: string; short: string }[] = [
  { key: "precision", label: "Precision", short: "P" },
  { key: "recall", label: "Recall", short: "R" },
  { key: "modePrecision", label: "Mode precision", short: "Mode P" },
  { key: "modeRecall", label: "Mode recall", short: "Mode R" },
];

const MW_MEASURES: { key: MwMeasure; label: string; short: string }[] = [
  { key: "detectionPrecision", label: "Detection precision", short: "Detection P" },
  { key: "detectionRecall", label: "Detection recall", short: "Detection R" },
  { key: "identificationPrecision", label: "Identification precision", short: "Identification P" },
  { key: "identificationRecall", label: "Identification recall", short: "Identification R" },
];

export function measuresOf(type: "best" | "oot" | "mw") {
  return type === "mw" ? MW_MEASURES : SUB_MEASURES;
}

/**
 * Beside mw figures: which multiwords the mw measures count, and why recall can be "—" when the
 * Gold tab shows mwgold lines (lib/scorers/semeval2007/mw.ts).
 */
export function mwNote(noRecall: boolean): string {
  const which =
    "Only majority multiwords count: an instance is in the mw gold when at least two annotators gave the same multiword and no other ties it (the Gold tab’s “Majority multiwords”); the other mwgold lines are not scored.";
  return noRecall ? `${which} This gold has none, so recall has nothing to divide by (—).` : which;
}

/** A figure of a run, or null (undefined, or not scored). */
export function figure(f: RunFigures | null, m: Measure): number | null {
  if (!f) return null;
  const v = (f as unknown as Record<string, number | null>)[m];
  return typeof v === "number" ? v : null;
}

/** The official scorer's percentage ("10.52"), or an em dash when undefined. */
export function pct(x: number | null): string {
  return x === null ? "—" : officialPercent(x);
}

/** The tooltip: the unrounded proportion. */
export function exact(x: number | null): string {
  return x === null ? "undefined: nothing to divide by" : `${x} (unrounded proportion)`;
}

/** Runs of a type, best first on a measure; unscored and undefined last, then by name. */
export function ranked(runs: RunSummary[], type: string, m: Measure): RunSummary[] {
  return runs
    .filter((r) => r.run.type === type)
    .sort((a, b) => {
      const x = figure(a.figures, m);
      const y = figure(b.figures, m);
      if (x === null && y === null) return a.run.name.localeCompare(b.run.name);
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x || a.run.name.localeCompare(b.run.name);
    });
}

/** Ranks with ties sharing a place (1, 2, 2, 4); null for runs without the figure. */
export function ranks(rows: RunSummary[], m: Measure): (number | null)[] {
  const out: (number | null)[] = [];
  rows.forEach((r, i) => {
    const v = figure(r.figures, m);
    if (v === null) out.push(null);
    else if (i > 0 && figure(rows[i - 1].figures, m) === v) out.push(out[i - 1]);
    else out.push(i + 1);
  });
  return out;
}

export function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1048576) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1048576).toFixed(1)} MB`;
}
