import type { Command } from "commander";
import { CliError, inputName, printDiagnostics, readBytes } from "./util";

interface RankOpts {
  benchmark: string;
  gold: string;
  system: string[];
  format?: string;
  k?: string;
  variant?: string;
  mwe?: boolean;
  mlsp?: boolean;
  repaired?: boolean;
  utf8?: boolean;
  truncate?: boolean;
  skipPreprocessing?: boolean;
  json?: boolean;
  csv?: boolean;
  report?: boolean;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * A file's text, read as readBytes reads it (`-` standard input; gzipped files,
 * SWORDS's JSON among them, unzipped). `python`: decoded as the reference scripts'
 * Python reads it (strict UTF-8, a byte-order mark kept); bytes that are not UTF-8
 * are refused, naming the line and byte offset. Otherwise invalid bytes read as U+FFFD.
 */
async function readRankFile(path: string, python = false): Promise<string> {
  const bytes = readBytes(path);
  if (!python) return Buffer.from(bytes).toString("utf8");
  const { decodePythonUtf8 } = await import("../../lib/scorers/shared/python-text");
  const decoded = decodePythonUtf8(bytes, inputName(path));
  if (decoded.text === null) {
    printDiagnostics(decoded.diagnostics);
    throw new CliError(`${inputName(path)}: not UTF-8 text; nothing was scored`);
  }
  return decoded.text;
}

function ks(s: string | undefined, flag: string): number[] | undefined {
  if (s === undefined) return undefined;
  const out = s.split(",").map((x) => Number(x.trim()));
  if (out.length === 0 || out.some((k) => !Number.isInteger(k) || k < 1)) throw new CliError(`${flag}: expected positive whole numbers separated by commas, got "${s}"`);
  return out;
}

export function register(program: Command): void {
  program
    .command("rank")
    .description("score ranked substitute lists with a benchmark's measures: TSAR-2022/MLSP, SWORDS, or GAP with P@1/P@3/R@10")
    .requiredOption("-b, --benchmark <name>", "tsar, swords or gap")
    .requiredOption("-g, --gold <file>", "tsar: the gold TSV; swords: the dataset JSON (.json or .json.gz); gap: a SemEval gold file or a TSAR gold TSV")
    .requiredOption("-s, --system <file>", "a ranked output (repeat for several runs, ranked in one table)", collect)
    .option("--format <format>", "the runs' format: tsv, swords-json, oot, lst or germeval (default: tsv for tsar, swords-json for swords, guessed for gap)")
    .option("--k <list>", "tsar: the K of Potential@K and MAP@K, e.g. 1,3,5,10 (ACC@1 is always given)")
    .option("--variant <name>", "gap: melamud (lst_gap.py, default), lexsubgen (LexSubGen's gold reader and gap_score) or swords")
    .option("--no-mwe", "gap: the variant's no-mwe filter (drop multiword candidates)")
    .option("--mlsp", "tsar: keep the complex word in the gold, as MLSP 2024's results do")
    .option("--repaired", "apply the documented repairs where the reference script stops or misreads (docs/ranking.md)")
    .option("--utf8", "oot runs: read lexelts as UTF-8 text (perl -CSD), so non-ASCII letters (Plünderung.n) are read whole; the default reads bytes, as score.pl does")
    .option("--no-truncate", "tsar: do not floor figures to 4 decimals")
    .option("--skip-preprocessing", "swords: compare lists as given, without lemmatising")
    .option("--report", "also print each run's figures as the reference script prints them")
    .option("--csv", "print the table as CSV")
    .option("--json", "print the table as JSON")
    .action(async (opts: RankOpts) => {
      const rank = await import("../../lib/scorers/rank");
      const { hasErrors } = await import("../../lib/lexsub/diagnostics");
      if (!rank.isBenchmark(opts.benchmark)) throw new CliError(`--benchmark: expected tsar, swords or gap, got "${opts.benchmark}"`);
      if (opts.variant !== undefined && !rank.isGapVariant(opts.variant)) throw new CliError(`--variant: expected melamud, lexsubgen or swords, got "${opts.variant}"`);
      if (opts.format !== undefined && !(rank.RANKED_FORMATS as readonly string[]).includes(opts.format)) throw new CliError(`--format: expected tsv, swords-json, oot, lst or germeval, got "${opts.format}"`);
      const k = ks(opts.k, "--k");
      // tsar_eval.py and eval.py read their files as Python 3 text: not UTF-8 stops them.
      const python = opts.benchmark === "tsar" || opts.benchmark === "swords";
      const gold = { name: inputName(opts.gold), text: await readRankFile(opts.gold, python) };
      const runs = [];
      for (const s of opts.system) runs.push({ name: inputName(s), text: await readRankFile(s, python) });
      let wordnet = null;
      // SWORDS lemmatises over WordNet 3.0 (eval.py's NLTK data), read only here.
      if (opts.benchmark === "swords" && !opts.skipPreprocessing) wordnet = (await import("../../lib/wordnet/wn30")).wordnet30();
      const table = rank.rankRuns(opts.benchmark, gold, runs, wordnet, {
        format: opts.format as never,
        keepComplexWord: !!opts.mlsp,
        repaired: !!opts.repaired,
        utf8: !!opts.utf8,
        truncate: opts.truncate !== false,
        potentialK: k,
        mapK: k?.filter((x) => x > 1),
        variant: opts.variant as never,
        noMwe: opts.mwe === false,
        skipPreprocessing: !!opts.skipPreprocessing,
        sha1: (await import("../../lib/wordnet/wn30")).sha1Hex,
      });
      printDiagnostics(table.diagnostics);
      const failed = hasErrors(table.diagnostics);
      // Where every run stopped the reference script, it prints no figures: neither does this.
      if (failed && table.rows.every((r) => r.values.every((v) => v === null))) {
        process.exitCode = 1;
        return;
      }
      if (opts.json) {
        const { diagnostics: _d, ...rest } = table;
        process.stdout.write(JSON.stringify(rest, null, 2) + "\n");
      } else {
        process.stdout.write(rank.formatRankTable(table, { csv: opts.csv }));
        if (opts.report) for (const r of table.rows) if (r.report) process.stdout.write(`\n# ${r.run}\n${r.report}`);
      }
      if (failed) process.exitCode = 1;
    });
}
