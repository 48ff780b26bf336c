import type { Command } from "commander";
import { printDiagnostics, readText } from "./util";

export function register(program: Command): void {
  program
    .command("lfi")
    .description("score Senseval-3 logic forms (one sentence a line) against a gold file")
    .argument("<system>", "the system's logic forms, one sentence a line (blank: not attempted)")
    .argument("<gold>", "the gold logic forms, one sentence a line")
    .option("-v, --verbose", "print each sentence's figures, renamings and wrong predicates")
    .option("--json", "print the figures as JSON")
    .action(async (systemPath: string, goldPath: string, opts: { verbose?: boolean; json?: boolean }) => {
      const { LFI_MATCHING, formatLfiResult, scoreLfiTexts } = await import("../../lib/scorers/lfi");
      const { hasErrors } = await import("../../lib/lexsub/diagnostics");
      const result = scoreLfiTexts({ name: systemPath, text: readText(systemPath) }, { name: goldPath, text: readText(goldPath) });
      printDiagnostics(result.diagnostics);
      if (opts.json) {
        const { diagnostics: _d, detail, ...figures } = result;
        const out = { system: systemPath, gold: goldPath, matching: LFI_MATCHING.join(" ").replace(/^matching: /, ""), ...figures, ...(opts.verbose ? { detail } : {}) };
        process.stdout.write(JSON.stringify(out, null, 2) + "\n");
      } else {
        process.stdout.write(formatLfiResult(result, { system: systemPath, gold: goldPath }, { verbose: opts.verbose }));
      }
      if (hasErrors(result.diagnostics)) process.exitCode = 1;
    });
}
