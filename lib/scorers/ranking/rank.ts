/**
 * Ranking measures by benchmark (issue #16): TSAR-2022/MLSP, SWORDS, GAP with
 * P@k. One entry point scores several runs against one gold and ranks them in
 * a table like the official results files. Pure: texts in, figures out; the
 * WordNet data SWORDS needs comes in as data.
 */
import { type Diagnostic, diag, hasErrors } from "../../lexsub/diagnostics";
import { cFixed } from "../shared/table";
import { csvCell } from "../../lexsub/formats/spreadsheet";
import { formatFigure, pyFloat } from "./format";
import type { WordNetData } from "../../lexsub/morphy";
import { readGapGold } from "../gap";
import { type GapVariant, GAP_VARIANTS, gapReport, scoreGapBenchmark } from "../gap";
import { parseRanked, parseSwordsGold, parseTsarGold, parseTsarPredictions, type RankedFormat } from "../ranked";
import { scoreSwords, type Sha1Hex, swordsBomCheck, swordsLoaderCheck, swordsMetricNames, swordsMetrics, swordsResultShapeCheck } from "../swords";
import { scoreTsar, tsarColumns } from "../tsar";

export type Benchmark = "tsar" | "swords" | "gap";
const BENCHMARKS: readonly Benchmark[] = ["tsar", "swords", "gap"];

export interface RankOptions {
  /** tsar: MLSP's flag, keep the complex word in the gold. */
  keepComplexWord?: boolean;
  /** Documented repairs where the reference script stops or misreads (see docs/ranking.md). */
  repaired?: boolean;
  /** tsar: floor to 4 decimals (default true). */
  truncate?: boolean;
  /** tsar: the K of Potential@K / MAP@K / Accuracy@K@top1 (default the script's). */
  potentialK?: number[];
  mapK?: number[];
  accuracyK?: number[];
  /** gap: the reference implementation (default melamud) and its no-mwe filter. */
  variant?: GapVariant;
  noMwe?: boolean;
  /** The runs' format (default: guessed from each file). */
  format?: RankedFormat;
  /** oot runs: read lexelts as UTF-8 text (`perl -CSD`), so `Plünderung.n` is read whole; the default reads bytes, as score.pl does. */
  utf8?: boolean;
  /** swords: compare the lists as given (eval.py --skip_preprocessing). */
  skipPreprocessing?: boolean;
  /** swords: SHA-1 (hex of UTF-8), to check the dataset's ids as eval.py's loader does; without it the check is skipped. */
  sha1?: Sha1Hex;
}

export interface NamedText {
  name: string;
  text: string;
}

interface RankRow {
  run: string;
  format: RankedFormat;
  /** One per column; null where undefined or refused. */
  values: (number | null)[];
  /** Items scored. */
  items: number;
  /** The run's official-style report (the reference script's printout). */
  report: string;
}

export interface RankTable {
  benchmark: Benchmark;
  gold: string;
  columns: string[];
  /** The column the rows are ranked by (descending). */
  rankedBy: string;
  /** Digits the official results print (tsar: as truncated; swords: 2; gap: 4). */
  digits: number | null;
  rows: RankRow[];
  /** Settings that shaped the figures, for headings. */
  settings: string[];
  diagnostics: Diagnostic[];
}

export function isBenchmark(s: string): s is Benchmark {
  return (BENCHMARKS as readonly string[]).includes(s);
}

export function isGapVariant(s: string): s is GapVariant {
  return (GAP_VARIANTS as readonly string[]).includes(s);
}

function rankRows(rows: RankRow[], col: number): RankRow[] {
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (b.r.values[col] ?? -Infinity) - (a.r.values[col] ?? -Infinity) || a.i - b.i)
    .map((x) => x.r);
}

/** Score runs against one gold for a benchmark; rows ranked by its headline measure. */
/** `runs` is read once, one run at a time (a generator may decode each only when its turn comes). */
export function rankRuns(benchmark: Benchmark, gold: NamedText, runs: Iterable<NamedText>, wordnet: WordNetData | null, options: RankOptions = {}): RankTable {
  const diagnostics: Diagnostic[] = [];
  const rows: RankRow[] = [];
  if (benchmark === "tsar") {
    const read = { repaired: options.repaired };
    const g = parseTsarGold(gold.text, gold.name, read);
    diagnostics.push(...g.diagnostics);
    let columns: string[] = [];
    for (const run of runs) {
      const format = options.format ?? "tsv";
      const r = format === "tsv" ? parseTsarPredictions(run.text, run.name, read) : parseRanked(run.text, run.name, format, { utf8: options.utf8 });
      diagnostics.push(...r.diagnostics);
      if (hasErrors(r.diagnostics) || hasErrors(g.diagnostics)) {
        rows.push({ run: run.name, format: r.format, values: [], items: 0, report: "" });
        continue;
      }
      const res = scoreTsar(g, r, options);
      diagnostics.push(...res.diagnostics);
      const f = res.figures;
      const cols = f ? tsarColumns(f) : [];
      if (cols.length > 0) columns = cols.map((c) => c.head);
      rows.push({ run: run.name, format: r.format, values: cols.map((c) => c.value), items: res.instances, report: f ? tsarReport(gold.name, run.name, f) : "" });
    }
    if (columns.length === 0) columns = ["ACC@1"];
    for (const row of rows) if (row.values.length === 0) row.values = columns.map(() => null);
    const settings = [options.keepComplexWord ? "complex word kept in the gold (MLSP)" : "complex word left out of the gold (TSAR-2022)"];
    if (options.truncate === false) settings.push("not truncated");
    if (options.repaired) settings.push("repaired");
    return { benchmark, gold: gold.name, columns, rankedBy: "ACC@1", digits: null, rows: rankRows(rows, 0), settings, diagnostics };
  }
  if (benchmark === "swords") {
    const g = parseSwordsGold(gold.text, gold.name);
    g.diagnostics.unshift(...swordsBomCheck(gold.text, gold.name, !!options.repaired), ...(options.sha1 ? swordsLoaderCheck(gold.text, gold.name, options.sha1) : []));
    diagnostics.push(...g.diagnostics);
    const columns = swordsMetricNames(options);
    for (const run of runs) {
      const format = options.format ?? "swords-json";
      const r = parseRanked(run.text, run.name, format, { utf8: options.utf8 });
      if (format === "swords-json") r.diagnostics.unshift(...swordsBomCheck(run.text, run.name, !!options.repaired), ...swordsResultShapeCheck(run.text, run.name, !!options.repaired));
      diagnostics.push(...r.diagnostics);
      if (hasErrors(r.diagnostics) || hasErrors(g.diagnostics)) {
        rows.push({ run: run.name, format: r.format, values: columns.map(() => null), items: 0, report: "" });
        continue;
      }
      const res = scoreSwords(g, r, wordnet, options);
      diagnostics.push(...res.diagnostics);
      // Where eval.py stops, it prints no figures: neither does the row.
      if (!res.figures) {
        rows.push({ run: run.name, format: r.format, values: columns.map(() => null), items: res.targets, report: "" });
        continue;
      }
      const m = swordsMetrics(res.figures, options);
      const report = `${m.map((x) => x.name).join(",")}\n${m.map((x) => (x.value === null ? "e" : cFixed(x.value, 2))).join(",")}\n`;
      rows.push({ run: run.name, format: r.format, values: m.map((x) => x.value), items: res.targets, report });
    }
    const settings = [options.skipPreprocessing ? "lists compared as given" : "lists lemmatised as NLTK 3.5's WordNetLemmatizer does over WordNet 3.0"];
    if (options.repaired) settings.push("repaired");
    const col = columns.indexOf("strict_a_f@10");
    return { benchmark, gold: gold.name, columns, rankedBy: "strict_a_f@10", digits: 2, rows: rankRows(rows, Math.max(0, col)), settings, diagnostics };
  }
  const variant = options.variant ?? "melamud";
  const g = readGapGold(gold.text, gold.name, { variant, noMwe: options.noMwe, keepComplexWord: options.keepComplexWord, repaired: options.repaired });
  diagnostics.push(...g.diagnostics);
  const columns = ["GAP", "P@1", "P@3", "R@10"];
  for (const run of runs) {
    const r = parseRanked(run.text, run.name, options.format, { utf8: options.utf8 });
    diagnostics.push(...r.diagnostics);
    if (hasErrors(r.diagnostics) || hasErrors(g.diagnostics)) {
      rows.push({ run: run.name, format: r.format, values: columns.map(() => null), items: 0, report: "" });
      continue;
    }
    const res = scoreGapBenchmark(g, r, { variant, noMwe: options.noMwe, repaired: options.repaired });
    diagnostics.push(...res.diagnostics);
    if (hasErrors(res.diagnostics)) {
      rows.push({ run: run.name, format: r.format, values: columns.map(() => null), items: 0, report: "" });
      continue;
    }
    const gap = res.gap === null || Number.isNaN(res.gap) ? null : res.gap;
    rows.push({ run: run.name, format: r.format, values: [gap, res.p1, res.p3, res.r10], items: res.used, report: gapReport(res) });
  }
  if (g.items.length === 0 && !hasErrors(g.diagnostics)) diagnostics.push(diag("warning", gold.name, 0, "the gold holds no item"));
  return { benchmark, gold: gold.name, columns, rankedBy: "GAP", digits: 4, rows: rankRows(rows, 0), settings: [`GAP variant ${variant}${options.noMwe ? ", no-mwe" : ""}${options.repaired ? ", repaired" : ""}`], diagnostics };
}

/** tsar_eval.py's printed results, figures as it prints them (str of the truncated float). */
function tsarReport(goldName: string, runName: string, f: ReturnType<typeof scoreTsar>["figures"] & object): string {
  const lines = ["=========   EVALUATION config.=========", `GOLD file = ${goldName}`, `PREDICTION LABELS file = ${runName}`, "===============   RESULTS  =============", ""];
  lines.push(`MAP@1/Potential@1/Precision@1 = ${pyFloat(f.acc1)}`, "");
  for (const [k, v] of Object.entries(f.map)) lines.push(`MAP@${k} = ${pyFloat(v)}`);
  lines.push("");
  for (const [k, v] of Object.entries(f.potential)) if (k !== "1") lines.push(`Potential@${k} = ${pyFloat(v)}`);
  lines.push("");
  for (const [k, v] of Object.entries(f.accuracyTop1)) lines.push(`Accuracy@${k}@top_gold_1 = ${pyFloat(v)}`);
  return lines.join("\n") + "\n";
}

/** The ranked table as text: one row per run, best first (CSV with --csv). */
export function formatRankTable(t: RankTable, options: { csv?: boolean } = {}): string {
  const head = ["Rank", "Run", ...t.columns];
  const body = t.rows.map((r, i) => [String(i + 1), r.run, ...r.values.map((v) => formatFigure(v, t.digits))]);
  // Names (the header's, the runs') neutralised and quoted for spreadsheets; ranks and figures are numbers as formatted.
  if (options.csv) return [head.map(csvCell), ...body.map((r) => r.map((c, i) => (i === 1 ? csvCell(c) : c)))].map((r) => r.join(",")).join("\n") + "\n";
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ").trimEnd();
  const out = [`${t.benchmark.toUpperCase()} against ${t.gold} (${t.settings.join("; ")}), ranked by ${t.rankedBy}`, line(head), ...body.map(line)];
  return out.join("\n") + "\n";
}
