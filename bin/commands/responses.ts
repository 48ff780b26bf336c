import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { type Diagnostic, formatDiagnostic } from "../../lib/lexsub/diagnostics";
import type { RuleCount } from "../../lib/server/annotate/response-import";
import { CliError, dbOption, openCliDb, readBytes, run } from "./util";

export function register(program: Command): void {
  const responses = program
    .command("responses")
    .description("bulk import and export of annotators' responses as TSV (annotator, lexelt, instance, answer, multiword)");

  dbOption(
    responses
      .command("import")
      .argument("<file>", "responses TSV file")
      .requiredOption("--project <name>", "the project")
      .option("--dry-run", "only say what the import would add, update and refuse (with the first lines of each); write nothing")
      .option("--accept-unassigned", "accept answers for lexelts the annotator is not assigned (refused by default)")
      .option("--strict", "refuse the whole file on any odd line or any answer that breaks the workspace's rules for new typing")
      .description(
        "import responses people already gave: answers that break the workspace's rules are kept as written and counted by rule, " +
          "a few lines the format cannot read are left out and listed; a file that is not UTF-8, has a wrong header, names someone not on the team " +
          "or has many unreadable lines is refused whole, naming the line",
      ),
  ).action(async (file: string, opts: { project: string; db?: string; dryRun?: boolean; acceptUnassigned?: boolean; strict?: boolean }) => {
    const bytes = readBytes(file);
    const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
    const { InputError } = await import("../../lib/server/kernel/errors");
    const { decodeResponsesFile, importResponses, previewResponses } = await import("../../lib/server/annotate/response-import");
    const text = run(() => decodeResponsesFile(path.basename(file), bytes));
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
    const options = { acceptUnassigned: opts.acceptUnassigned === true, strict: opts.strict === true };
    /** What was kept as written (by rule) and left out (by line): stdout, after the summary. */
    const details = (r: { rules: RuleCount[]; skipped: Diagnostic[]; warnings: Diagnostic[] }): string[] => {
      const out: string[] = [];
      for (const c of r.rules) {
        out.push(`kept as written, breaking the "${c.rule}" rule: ${c.count}`);
        for (const e of c.examples) out.push(`  line ${e.line}\t${e.annotator}\t${e.instanceId}\t${e.field}\t${e.value}`);
        if (c.count > c.examples.length) out.push(`  … and ${c.count - c.examples.length} more (the Gold tab lists them)`);
      }
      if (r.skipped.length > 0) out.push(`left out (${r.skipped.length}):`);
      for (const d of r.skipped) out.push(`  ${formatDiagnostic(d)}`);
      if (r.warnings.length > 0) out.push(`warnings (${r.warnings.length}):`);
      for (const d of r.warnings) out.push(`  ${formatDiagnostic(d)}`);
      return out;
    };
    try {
      if (opts.dryRun) {
        const preview = previewResponses(db, SYSTEM, p.id, { fileName: path.basename(file), text }, options);
        const out: string[] = [preview.message.replace(" Nothing has changed yet.", " (dry run: nothing written)")];
        const list = (title: string, rows: typeof preview.first.add, total: number, extra?: (r: (typeof rows)[number]) => string) => {
          if (rows.length === 0) return;
          out.push(`${title} (${total > rows.length ? `first ${rows.length} of ${total}` : total}):`);
          for (const r of rows) out.push(`  line ${r.line}\t${r.annotator}\t${r.lexelt}\t${r.instanceId}\t${r.answer}${extra ? `\t${extra(r)}` : ""}`);
        };
        list("add", preview.first.add, preview.add);
        list("update", preview.first.update, preview.update, (r) => `(was ${r.was})`);
        list("refuse", preview.first.refuse, preview.refuse, (r) => `(${r.reason})`);
        out.push(...details(preview));
        console.log(out.join("\n"));
        return;
      }
      const report = importResponses(db, SYSTEM, p.id, { fileName: path.basename(file), text }, options);
      console.log([report.message, ...details(report)].join("\n"));
    } catch (e) {
      if (e instanceof InputError && e.details.length > 0) {
        for (const line of e.details) process.stderr.write(line + "\n");
        throw new CliError(`${path.basename(file)}: refused; nothing was imported`);
      }
      throw e instanceof Error && "status" in e ? new CliError(e.message) : e;
    }
  });

  dbOption(
    responses
      .command("export")
      .requiredOption("--project <name>", "the project")
      .option("-o, --output <file>", "write to this file instead of stdout")
      .description("write every current response of the project as TSV (with the adjudication columns when the coordinator adjudicated any)"),
  ).action(async (opts: { project: string; output?: string; db?: string }) => {
    const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
    const { exportAdjudicatedResponses } = await import("../../lib/server/gold/gold-review");
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
    const text = run(() => exportAdjudicatedResponses(db, SYSTEM, p.id));
    if (opts.output) {
      try {
        fs.writeFileSync(opts.output, text);
      } catch (e) {
        throw new CliError(`cannot write ${opts.output}: ${(e as Error).message}`);
      }
    } else process.stdout.write(text);
  });
}
