/** `lexgold score`: its options; the work is in score-run.ts, loaded when the command runs. */
import { type Command, Option } from "commander";
import type { GroupBy } from "../../lib/lexsub/score/index";

export interface ScoreOptions {
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
    .action(async (system: string, gold: string, opts: ScoreOptions) => (await import("./score-run")).score(system, gold, opts));
}
