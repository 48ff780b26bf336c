import { type Command, Option } from "commander";
import type { Granularity, StingyReading } from "../../lib/scorers/senseval";
import { CliError, printDiagnostics, readText } from "./util";

/** `--stingy` alone means the product reading. */
function stingyReading(value: string | boolean | undefined): StingyReading | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true || value === "product") return "product";
  if (value === "overlap") return "overlap";
  throw new CliError(`--stingy takes "product" or "overlap", not "${value}"`);
}

function stingyOption(): Option {
  return new Option("--stingy [reading]", 'SENSEVAL-1\'s stingy treatment of disjunctive gold: "product" (default) or "overlap"');
}

export function register(program: Command): void {
  const senseval = program
    .command("senseval")
    .description("score sense-tagged answers against a SENSEVAL key, as scorer2 does (and the SENSEVAL-1 report)")
    .argument("<answers>", "answers: lexelt instance tag[/weight] ... [!! comment]")
    .argument("<key>", "key: lexelt instance tag [tag ...]")
    .argument("[sensemap]", "sense map: tag [branching parent ...]")
    .addOption(new Option("-g, --granularity <grain>", "fine, coarse or mixed").choices(["fine", "coarse", "mixed"]).default("fine"))
    .option("-m, --minimal", "leave out key instances with several tags (SENSEVAL-1's score of reference)")
    .addOption(stingyOption())
    .option("-v, --verbose", "print scorer2's line-by-line trace before the scores")
    .option("--json", "print the figures as JSON")
    .action(async (answersPath: string, keyPath: string, mapPath: string | undefined, opts: { granularity: Granularity; minimal?: boolean; stingy?: string | boolean; verbose?: boolean; json?: boolean }) => {
      const stingy = stingyReading(opts.stingy);
      if (opts.minimal && stingy) throw new CliError("choose one treatment: -m (minimal) or --stingy, not both");
      if (opts.json && opts.verbose) throw new CliError("-v prints scorer2's trace; it cannot be combined with --json");
      const { formatSensevalScore, scoreSensevalTexts, sensevalJson } = await import("../../lib/scorers/senseval");
      const { hasErrors } = await import("../../lib/lexsub/diagnostics");
      const result = scoreSensevalTexts(
        {
          answers: { name: answersPath, text: readText(answersPath) },
          key: { name: keyPath, text: readText(keyPath) },
          sensemap: mapPath ? { name: mapPath, text: readText(mapPath) } : null,
        },
        { granularity: opts.granularity, treatment: opts.minimal ? "minimal" : stingy ? "stingy" : "generous", stingy },
      );
      printDiagnostics(result.diagnostics);
      if (opts.json) process.stdout.write(JSON.stringify(sensevalJson(result), null, 2) + "\n");
      else process.stdout.write(formatSensevalScore(result, answersPath, keyPath, { verbose: opts.verbose }));
      if (hasErrors(result.diagnostics)) process.exitCode = 1;
    });

  senseval
    .command("report")
    .description("the grid SENSEVAL-1 planned: per lexelt and overall, fine/coarse/mixed x minimal/generous/stingy, with % attempted")
    .argument("<answers>", "answers file")
    .argument("<key>", "key file")
    .argument("<sensemap>", "sense map file")
    .addOption(stingyOption())
    .option("--json", "print the grid as JSON")
    .action(async (answersPath: string, keyPath: string, mapPath: string, _local: unknown, cmd: Command) => {
      // The parent's options (--stingy, --json, -m, -v, -g) are parsed wherever they stand, so read them merged.
      const opts = cmd.optsWithGlobals() as { stingy?: string | boolean; json?: boolean; minimal?: boolean; verbose?: boolean };
      if (opts.minimal || opts.verbose || cmd.parent?.getOptionValueSource("granularity") === "cli") {
        throw new CliError("the report has every granularity and treatment; -g, -m and -v do not apply to it");
      }
      const { formatSensevalReport, sensevalReportTexts } = await import("../../lib/scorers/senseval");
      const { hasErrors } = await import("../../lib/lexsub/diagnostics");
      const report = sensevalReportTexts(
        {
          answers: { name: answersPath, text: readText(answersPath) },
          key: { name: keyPath, text: readText(keyPath) },
          sensemap: { name: mapPath, text: readText(mapPath) },
        },
        { stingy: stingyReading(opts.stingy) },
      );
      printDiagnostics(report.diagnostics);
      if (opts.json) {
        const { diagnostics: _d, ...grid } = report;
        process.stdout.write(JSON.stringify({ answers: answersPath, key: keyPath, sensemap: mapPath, ...grid }, null, 2) + "\n");
      } else {
        process.stdout.write(formatSensevalReport(report, { answers: answersPath, key: keyPath, sensemap: mapPath }));
      }
      if (hasErrors(report.diagnostics)) process.exitCode = 1;
    });
}
