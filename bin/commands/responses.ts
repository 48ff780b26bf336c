import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CliError, dbOption, openCliDb, readText, run } from "./util";

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
      .description("import responses; any bad line refuses the whole file, naming the line"),
  ).action(async (file: string, opts: { project: string; db?: string; dryRun?: boolean; acceptUnassigned?: boolean }) => {
    const text = readText(file);
    const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
    const { InputError } = await import("../../lib/server/kernel/errors");
    const { importResponses, previewResponses } = await import("../../lib/server/annotate/response-import");
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
    const options = { acceptUnassigned: opts.acceptUnassigned === true };
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
        console.log(out.join("\n"));
        return;
      }
      const report = importResponses(db, SYSTEM, p.id, { fileName: path.basename(file), text }, options);
      console.log(report.message);
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
