/**
 * What `lexgold score` prints, shared by the command (score.ts) and its plain
 * path (score-plain.ts): diagnostics, the totals (text or JSON), the repair
 * notice and the exit on skipped lines. Loads neither commander nor the rest of
 * the CLI.
 */
import { type Diagnostic, diag } from "../../lib/lexsub/diagnostics";
import { type FastFileScore } from "./score-files";
import {
  type GroupBy,
  type MwResult,
  type RepairReport,
  type SubstitutionResult,
  type Utf8Report,
  formatGroups,
  formatMwTotals,
  formatRepairNotice,
  formatSubstitutionTotals,
  formatUtf8Notice,
  mwJson,
  repairJson,
  substitutionJson,
  utf8Json,
} from "../../lib/scorers/semeval2007";
import { CliError, printDiagnostics } from "./util";

/** Buffered stdout: a million `-v` lines go out in large writes. */
export class Out {
  private buf: string[] = [];
  private size = 0;
  line(s: string): void {
    this.buf.push(s, "\n");
    this.size += s.length + 1;
    if (this.size > 1 << 16) this.flush();
  }
  flush(): void {
    if (this.buf.length > 0) process.stdout.write(this.buf.join(""));
    this.buf = [];
    this.size = 0;
  }
}

export interface PrintOptions {
  json?: boolean;
  quiet?: boolean;
  by?: GroupBy;
}

/** Print diagnostics to stderr; with `quiet`, errors only. */
export function reporter(quiet: boolean | undefined): (ds: readonly Diagnostic[]) => void {
  return (ds) => printDiagnostics(quiet ? ds.filter((d) => d.severity === "error") : ds);
}

/** The gold's warning when no item is in T. */
export function noItemInT(gold: string): Diagnostic {
  return diag("warning", gold, 0, "no item is in T (none has two responses or more); every score is undefined");
}

export function errorCount(ds: readonly Diagnostic[]): string {
  const n = ds.filter((d) => d.severity === "error").length;
  return `${n} error${n === 1 ? "" : "s"}`;
}

/**
 * Print the system file's diagnostics; refuse a file with no line in the
 * format at all. Returns how many lines were skipped as unreadable.
 */
export function finishSystem(
  system: string,
  type: string,
  diagnostics: readonly Diagnostic[],
  lines: { matched: number; refused: number },
  report: (ds: readonly Diagnostic[]) => void,
  out: Out,
): number {
  out.flush();
  if (lines.matched === 0 && lines.refused === 0) diagnostics = [...diagnostics, diag("warning", system, 0, "no answers in the file")];
  report(diagnostics);
  if (lines.matched === 0 && lines.refused > 0) throw new CliError(`${system}: no line is in the ${type} format; nothing scored`);
  return lines.refused;
}

/** The totals (or one JSON object), then the repair notice and the UTF-8 one on stderr; exit 1 when lines were skipped. */
export function printTotals(
  system: string,
  r: SubstitutionResult | MwResult,
  repairs: RepairReport | null,
  refused: number,
  opts: PrintOptions,
  out: Out,
  utf8: Utf8Report | null = null,
): void {
  if (opts.json) {
    const json: Record<string, unknown> = r.type === "mw" ? mwJson(r.stats) : substitutionJson(r.type, r.stats);
    if (r.type !== "mw" && r.groups) json.groups = r.groups.map((g) => ({ [opts.by!]: g.group, ...substitutionJson(r.type, g.stats) }));
    const repaired = repairJson(repairs);
    if (repaired) json.repaired = repaired;
    const asUtf8 = utf8Json(utf8);
    if (asUtf8) json.utf8 = asUtf8;
    out.line(JSON.stringify(json));
  } else if (r.type === "mw") {
    for (const l of formatMwTotals(r.stats)) out.line(l);
  } else {
    for (const l of formatSubstitutionTotals(r.type, r.stats)) out.line(l);
    if (r.groups) {
      out.line("");
      for (const l of formatGroups(opts.by!, r)) out.line(l);
    }
  }
  out.flush();
  if (repairs && !opts.quiet) for (const l of formatRepairNotice(repairs)) process.stderr.write(`lexgold: ${l}\n`);
  if (utf8 && !opts.quiet) for (const l of formatUtf8Notice(utf8)) process.stderr.write(`lexgold: ${l}\n`);
  // After the scores are out: the scores leave the skipped lines out.
  if (refused > 0) throw new CliError(`${system}: ${refused} line${refused === 1 ? "" : "s"} in no format skipped; scored without ${refused === 1 ? "it" : "them"}`);
}

/** Everything the command prints for a score from the fast lane (bin/commands/score-files.ts `scoreFast`). */
export function printFastScore(fast: FastFileScore, system: string, gold: string, type: "best" | "oot", opts: PrintOptions, out: Out, utf8: Utf8Report | null = null): void {
  const report = reporter(opts.quiet);
  report(fast.total === 0 ? [...fast.goldDiagnostics, noItemInT(gold)] : fast.goldDiagnostics);
  const s = fast.score;
  const refused = finishSystem(system, type, s.systemDiagnostics, s.lines, report, out);
  printTotals(system, s.result, s.repairs, refused, opts, out, utf8);
}
