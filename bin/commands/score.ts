import { type Command, Option } from "commander";
import { type Diagnostic, diag, hasErrors } from "../../lib/scoring/diagnostics";
import { FileReadError, loadMwKey, loadScoringKey, scoreMwFile, scoreSubstitutionFile } from "../../lib/scoring/files";
import { parseGold } from "../../lib/lexsub/formats/gold";
import {
  type GroupBy,
  type KeyOptions,
  formatGroups,
  formatMwItem,
  formatMwTotals,
  formatSubstitutionItem,
  formatSubstitutionTotals,
  groupOf,
  multiwordIds,
  mwJson,
  parseIdList,
  parseWordList,
  substitutionJson,
} from "../../lib/lexsub/score/index";
import { CliError, printDiagnostics, readText } from "./util";

interface ScoreOptions {
  type: "best" | "oot" | "mw";
  verbose?: boolean;
  json?: boolean;
  nmwt?: string;
  nmws?: boolean;
  subset?: string;
  exclude?: string;
  by?: GroupBy;
  quiet?: boolean;
}

/** Buffered stdout: a million `-v` lines go out in large writes. */
class Out {
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

export function register(program: Command): void {
  program
    .command("score")
    .argument("<system>", "system answers: a best, oot or mw file")
    .argument("<gold>", "the gold file (best, oot) or mwgold file (mw)")
    .addOption(new Option("-t, --type <type>", "best, oot or mw").choices(["best", "oot", "mw"]).default("best"))
    .option("-v, --verbose", "print each item's scoring first, as the official scorer does")
    .option("--json", "print one JSON object (proportions in [0,1], unrounded, null where undefined)")
    .option("--nmwt <file>", "leave out the multiword items: an mwids file, or an mwgold file to derive them from")
    .option("--nmws", "score only single-word substitutes (gold and answers)")
    .option("--subset <wordlist>", "score only the lexelts in a word list (lines like 'civil;a.man' or 'civil.a')")
    .option("--exclude <wordlist>", "leave out the lexelts in a word list")
    .addOption(new Option("--by <group>", "add a breakdown per PoS or per lexelt").choices(["pos", "lexelt"]))
    .option("-q, --quiet", "do not print warnings (errors are always printed)")
    .description("score a system file as the official SemEval-2007 scorer does (output line for line the same)")
    .action(async (system: string, gold: string, opts: ScoreOptions) => {
      process.stdout.on("error", (e: NodeJS.ErrnoException) => {
        if (e.code === "EPIPE") process.exit(0);
      });
      const report = (ds: readonly Diagnostic[]) => printDiagnostics(opts.quiet ? ds.filter((d) => d.severity === "error") : ds);
      const analysis = opts.nmwt !== undefined || opts.nmws || opts.subset !== undefined || opts.exclude !== undefined || opts.by !== undefined;
      if (opts.type === "mw" && analysis) throw new CliError("--nmwt, --nmws, --subset, --exclude and --by apply to best and oot, not mw");
      if (opts.verbose && opts.json) throw new CliError("-v and --json cannot be combined: -v prints the official text output");

      const out = new Out();
      try {
        if (opts.type === "mw") {
          const { key, diagnostics } = await loadMwKey(gold, gold);
          report(diagnostics);
          if (hasErrors(diagnostics)) throw new CliError(`${gold}: ${errorCount(diagnostics)}; nothing scored`);
          const scored = await scoreMwFile(system, key, opts.verbose ? { onItem: (i) => out.line(formatMwItem(i)) } : {}, system);
          const refused = finishSystem(system, opts.type, scored.diagnostics, scored.lines, report, out);
          if (opts.json) out.line(JSON.stringify(mwJson(scored.result.stats)));
          else for (const l of formatMwTotals(scored.result.stats)) out.line(l);
          out.flush();
          skipped(system, refused);
        } else {
          const keyOptions = readAnalysis(opts, report);
          if (!opts.json) for (const h of analysisHeaders(opts)) out.line(h);
          const { key, diagnostics } = await loadScoringKey(gold, keyOptions, gold);
          if (key.total === 0) diagnostics.push(diag("warning", gold, 0, "no item is in T (none has two responses or more); every score is undefined"));
          report(diagnostics);
          if (hasErrors(diagnostics)) throw new CliError(`${gold}: ${errorCount(diagnostics)}; nothing scored`);
          const type = opts.type;
          const scored = await scoreSubstitutionFile(
            system,
            type,
            key,
            {
              onItem: opts.verbose ? (i) => formatSubstitutionItem(type, i).forEach((l) => out.line(l)) : undefined,
              groupBy: opts.by ? groupOf(opts.by) : undefined,
            },
            system,
          );
          const refused = finishSystem(system, type, scored.diagnostics, scored.lines, report, out);
          const r = scored.result;
          if (opts.json) {
            const json: Record<string, unknown> = substitutionJson(type, r.stats);
            if (r.groups) json.groups = r.groups.map((g) => ({ [opts.by!]: g.group, ...substitutionJson(type, g.stats) }));
            out.line(JSON.stringify(json));
          } else {
            for (const l of formatSubstitutionTotals(type, r.stats)) out.line(l);
            if (r.groups) {
              out.line("");
              for (const l of formatGroups(opts.by!, r)) out.line(l);
            }
          }
          out.flush();
          skipped(system, refused);
        }
      } catch (e) {
        if (e instanceof FileReadError) throw new CliError(e.message);
        throw e;
      } finally {
        out.flush();
      }
    });
}

function errorCount(ds: readonly Diagnostic[]): string {
  const n = ds.filter((d) => d.severity === "error").length;
  return `${n} error${n === 1 ? "" : "s"}`;
}

/**
 * Print the system file's diagnostics; refuse a file with no line in the
 * format at all. Returns how many lines were skipped as unreadable.
 */
function finishSystem(
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

/** After the scores are out: exit 1 when lines were skipped (the scores leave them out). */
function skipped(system: string, refused: number): void {
  if (refused > 0) throw new CliError(`${system}: ${refused} line${refused === 1 ? "" : "s"} in no format skipped; scored without ${refused === 1 ? "it" : "them"}`);
}

/** Read the further-analysis inputs into key options. */
function readAnalysis(opts: ScoreOptions, report: (ds: readonly Diagnostic[]) => void): KeyOptions {
  const k: KeyOptions = {};
  if (opts.nmwt !== undefined) {
    const text = readText(opts.nmwt);
    // An mwgold file has `lexelt id :: ...` lines; an mwids file has the id first.
    const isMwGold = text.split("\n").some((l) => / :: ?/.test(l));
    if (isMwGold) {
      const g = parseGold(text, opts.nmwt, "mwgold");
      report(g.diagnostics);
      if (hasErrors(g.diagnostics)) throw new CliError(`${opts.nmwt}: ${errorCount(g.diagnostics)}; nothing scored`);
      k.excludeIds = multiwordIds(g.lines);
    } else {
      const l = parseIdList(text, opts.nmwt);
      report(l.diagnostics);
      k.excludeIds = l.ids;
    }
  }
  if (opts.nmws) k.singleWordOnly = true;
  for (const [file, field] of [
    [opts.subset, "includeLexelts"],
    [opts.exclude, "excludeLexelts"],
  ] as const) {
    if (file === undefined) continue;
    const w = parseWordList(readText(file), file);
    report(w.diagnostics);
    if (hasErrors(w.diagnostics)) throw new CliError(`${file}: ${errorCount(w.diagnostics)}; nothing scored`);
    k[field] = w.lexelts;
  }
  return k;
}

/** One line per further-analysis option, worded as the official further-analysis scorer worded them. */
function analysisHeaders(opts: ScoreOptions): string[] {
  const h: string[] = [];
  if (opts.nmwt !== undefined) h.push("FURTHER ANALYSIS Scoring without items identified as MWs");
  if (opts.nmws) h.push("FURTHER ANALYSIS Scoring using only single word substitutes");
  if (opts.subset !== undefined) h.push(`FURTHER ANALYSIS Scoring only items of the lexelts in ${opts.subset}`);
  if (opts.exclude !== undefined) h.push(`FURTHER ANALYSIS Scoring without items of the lexelts in ${opts.exclude}`);
  return h;
}
