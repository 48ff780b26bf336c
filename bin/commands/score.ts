import { type Command, Option } from "commander";
import { type Diagnostic, hasErrors } from "../../lib/lexsub/diagnostics";
import { FileReadError, forEachLine, scoreFast } from "./score-files";
import { parseGold } from "../../lib/lexsub/formats/gold";
import {
  type GroupBy,
  type ItemScore,
  type KeyOptions,
  type MwItem,
  type Reading,
  type RepairReport,
  type ScoreRunOptions,
  type ScoreRunResult,
  type Utf8Report,
  ScoreRun,
  repairReport,
  utf8Report,
  formatMwItem,
  formatSubstitutionItem,
  multiwordIds,
  parseIdList,
  parseWordList,
} from "../../lib/scorers/semeval2007/index";
import { Out, errorCount, finishSystem, noItemInT, printFastScore, printTotals, reporter } from "./score-output";
import { CliError, inputName, localFile, readText } from "./util";
import { ReadingLines } from "../../lib/scorers/semeval2007/readings";

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
  repaired?: boolean;
  utf8?: boolean;
}

export function register(program: Command): void {
  program
    .command("score")
    .argument("<system>", "system answers: a best, oot or mw file (gzipped or not; - reads standard input)")
    .argument("<gold>", "the gold file (best, oot) or mwgold file (mw) (gzipped or not; - reads standard input)")
    .addOption(new Option("-t, --type <type>", "best, oot or mw").choices(["best", "oot", "mw"]).default("best"))
    .option("-v, --verbose", "print each item's scoring first, as the official scorer does")
    .option("--json", "print one JSON object (proportions in [0,1], unrounded, null where undefined)")
    .option("--nmwt <file>", "leave out the multiword items: an mwids file, or an mwgold file to derive them from")
    .option("--nmws", "score only single-word substitutes (gold and answers)")
    .option("--subset <wordlist>", "score only the lexelts in a word list (lines like 'civil;a.man' or 'civil.a')")
    .option("--exclude <wordlist>", "leave out the lexelts in a word list")
    .addOption(new Option("--by <group>", "add a breakdown per PoS or per lexelt").choices(["pos", "lexelt"]))
    .option("--repaired", "apply the documented repairs of score.pl's misreadings (docs/scorer.md) instead of its exact figures")
    .option("--utf8", "read the files as UTF-8 text, as `perl -CSD score.pl` does (accented, Greek, Cyrillic … letters are word characters); the default reads bytes, as score.pl does")
    .option("-q, --quiet", "do not print warnings (errors are always printed)")
    .description("score a system file as the official SemEval-2007 scorer does (output line for line the same)")
    .action(async (systemArg: string, goldArg: string, opts: ScoreOptions) => {
      const report = reporter(opts.quiet);
      if (systemArg === "-" && goldArg === "-") throw new CliError(`the system file and the gold cannot both be "-" (standard input)`);
      // Names for messages; paths of plain files to read (standard input and gzipped files are copied out, unzipped).
      const system = inputName(systemArg);
      const gold = inputName(goldArg);
      const paths = { system: await localFile(systemArg), gold: await localFile(goldArg) };
      const analysis = opts.nmwt !== undefined || opts.nmws || opts.subset !== undefined || opts.exclude !== undefined || opts.by !== undefined;
      if (opts.type === "mw" && analysis) throw new CliError("--nmwt, --nmws, --subset, --exclude and --by apply to best and oot, not mw");
      if (opts.verbose && opts.json) throw new CliError("-v and --json cannot be combined: -v prints the official text output");

      const out = new Out();
      try {
        const type = opts.type;
        const keyOptions = type === "mw" ? undefined : readAnalysis(opts, report);
        if (type !== "mw" && !opts.json) for (const h of analysisHeaders(opts)) out.line(h);
        const runOptions: ScoreRunOptions = {
          type,
          systemName: system,
          goldName: gold,
          analysis: keyOptions,
          by: opts.by,
          repaired: opts.repaired === true,
          reading: opts.utf8 ? "utf8" : "bytes",
          onItem: opts.verbose ? (i) => printItem(type, i, out) : undefined,
        };
        // Read as bytes (score.pl's figures): when a file holds what UTF-8 reads differently, that reading's figures follow.
        const compareUtf8 = !opts.utf8 && !opts.repaired;
        // Plain best/oot scoring: the fast lane, which answers for files in the common form
        // (the same output to the byte); anything else, or a line outside that form, goes through ScoreRun.
        const lane = type !== "mw" && !analysis && !opts.verbose && !opts.repaired && process.env.LEXGOLD_SCORE_LANE !== "full";
        const fast = lane ? scoreFast(paths.system, paths.gold, type, system, gold, runOptions.reading) : null;
        if (fast) {
          // The UTF-8 reading only where a line may read differently, and only when one of those does.
          const utf8 = compareUtf8 && fast.utf8CouldDiffer ? utf8Report(fast.score, await utf8Run(runOptions, true, paths)) : null;
          printFastScore(fast, system, gold, type as "best" | "oot", opts, out, utf8);
        } else {
          const run = new ScoreRun(runOptions);
          // The lines the two readings may read differently, kept as the files are read (readings.ts).
          const odd = compareUtf8 ? new ReadingLines() : null;
          await forEachLine(paths.gold, (l) => (run.pushGold(l), odd?.noteGold(l)), gold);
          const goldDiagnostics = run.goldDone();
          if (type !== "mw" && run.scoringKey.total === 0) goldDiagnostics.push(noItemInT(gold));
          report(goldDiagnostics);
          if (hasErrors(goldDiagnostics)) throw new CliError(`${gold}: ${errorCount(goldDiagnostics)}; nothing scored`);
          await forEachLine(paths.system, (l) => (run.pushSystem(l), odd?.noteSystem(l)), system);
          const scored = run.finish();
          const refused = finishSystem(system, type, scored.systemDiagnostics, scored.lines, report, out);

          // In the default mode, what the documented repairs would change: from the same pass
          // (best, oot), or from a second, repaired run over both files when that does not suffice.
          let repairs: RepairReport | null = null;
          if (run.needsRepairedPass) {
            repairs = run.inlineRepairs(scored);
            if (!repairs) {
              const again = run.repairedRun();
              await forEachLine(paths.gold, (l) => again.pushGold(l), gold);
              again.goldDone();
              await forEachLine(paths.system, (l) => again.pushSystem(l), system);
              repairs = repairReport(run, scored, again, again.finish());
            }
          }
          const utf8 = odd !== null && odd.couldDiffer(type, keyOptions) ? utf8Report(scored, await utf8Run(runOptions, lane, paths)) : null;
          printTotals(system, scored.result, repairs, refused, opts, out, utf8);
        }

      } catch (e) {
        if (e instanceof FileReadError) throw new CliError(e.message);
        throw e;
      } finally {
        out.flush();
      }
    });
}

/** The same files scored with the same options, read as UTF-8 text: through the fast lane when it answers, else the full reader. */
async function utf8Run(o: ScoreRunOptions, lane: boolean, paths: { system: string; gold: string }): Promise<Pick<ScoreRunResult, "result">> {
  const reading: Reading = "utf8";
  const system = o.systemName!;
  const gold = o.goldName!;
  if (lane && o.type !== "mw") {
    const fast = scoreFast(paths.system, paths.gold, o.type, system, gold, reading);
    if (fast) return fast.score;
  }
  const run = new ScoreRun({ ...o, reading, onItem: undefined });
  await forEachLine(paths.gold, (l) => run.pushGold(l), gold);
  run.goldDone();
  await forEachLine(paths.system, (l) => run.pushSystem(l), system);
  return run.finish();
}

function printItem(type: "best" | "oot" | "mw", i: ItemScore | MwItem, out: Out): void {
  if (type === "mw") out.line(formatMwItem(i as MwItem));
  else for (const l of formatSubstitutionItem(type, i as ItemScore)) out.line(l);
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
