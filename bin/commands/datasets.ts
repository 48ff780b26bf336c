/**
 * Datasets (issue #16): `lexgold import coinco|swords|tsar FILE --project P [--strict]` (the
 * import command hands datasets here; each entry not carried as written is listed with its line) and `lexgold export coinco|swords|tsar
 * --project P` (tsar: `[--gold-only] [--cells raw|spreadsheet-safe]`; swords: `[--ids recipe|as-imported]`), which write the project's gold
 * in that format and list on stderr what the format could not carry. File I/O only; lib/server does the work.
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CliError, dbOption, openCliDb, readBytes, run } from "./util";

const FORMATS = ["coinco", "swords", "tsar"] as const;
type Format = (typeof FORMATS)[number];

export async function importDatasetFile(
  format: string,
  file: string | undefined,
  opts: { project: string; db?: string; create?: boolean; idPrefix?: string; strict?: boolean; quiet?: boolean; onlyLanguage?: string },
): Promise<void> {
  if (!(FORMATS as readonly string[]).includes(format)) throw new CliError(`unknown dataset format "${format}": one of ${FORMATS.join(", ")}`);
  if (file === undefined) throw new CliError(`import ${format}: give the file, e.g. lexgold import ${format} FILE --project NAME`);
  const bytes = readBytes(file);
  const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
  const datasets = await import("../../lib/server/datasets/datasets");
  const { InputError } = await import("../../lib/server/kernel/errors");
  const { formatDiagnostic } = await import("../../lib/lexsub/diagnostics");
  const db = await openCliDb(opts);
  const input = { format: format as Format, fileName: file === "-" ? "stdin" : path.basename(file), bytes, idPrefix: opts.idPrefix, strict: opts.strict === true, onlyLanguage: opts.onlyLanguage };
  const progress = process.stderr.isTTY ? (p: { done: number; total: number }) => process.stderr.write(`\r${p.done}/${p.total} targets`) : undefined;
  try {
    const report = opts.create
      ? datasets.importDatasetAsNewProject(db, SYSTEM, opts.project, input, progress)
      : datasets.importDataset(db, SYSTEM, run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true })).id, input, progress);
    if (progress) process.stderr.write("\n");
    // Each entry not carried as written, with its line and what was done, before the summary.
    if (!opts.quiet) for (const r of report.repairs) console.log(formatDiagnostic(r));
    console.log(report.message);
  } catch (e) {
    if (e instanceof InputError) {
      for (const d of e.details.slice(1, 50)) process.stderr.write(d + "\n");
      if (e.details.length > 50) process.stderr.write(`… and ${e.details.length - 50} more\n`);
      throw new CliError(e.message);
    }
    if (e instanceof Error && "status" in e) throw new CliError(e.message);
    throw e;
  }
}

export function register(program: Command): void {
  const exp = program.commands.find((c) => c.name() === "export") ?? program.command("export").description("write the project's gold in a file format");
  for (const format of FORMATS) {
    dbOption(
      exp
        .command(format)
        .requiredOption("--project <name>", "the project")
        .option("-o, --output <file>", "write to this file instead of stdout")
        .option("--gold-only", "tsar: leave out instances without a substitute (as the _gold files do)")
        .option("--ids <which>", "swords: recipe (default: eval.py's ids, so eval.py loads the file) or as-imported (an imported file's own ids, as it had them)")
        .option(
          "--cells <mode>",
          "tsar: raw (default: every cell exactly, as the shared task's files) or spreadsheet-safe (a cell beginning with =, +, -, @ gets a leading apostrophe, for opening in a spreadsheet)",
        )
        .description(
          format === "coinco"
            ? "the project's gold as CoInCo XML (imported CoInCo sentences come back whole); what it cannot carry goes to stderr"
            : format === "swords"
              ? "the project's gold as SWORDS JSON (imported labels kept; other gold counts as TRUE labels); what it cannot carry goes to stderr"
              : "the project's gold as TSAR/MLSP TSV (a substitute repeated by its count); what it cannot carry goes to stderr",
        ),
    ).action(async (opts: { project: string; output?: string; db?: string; goldOnly?: boolean; cells?: string; ids?: string }) => {
      if (opts.ids !== undefined && format !== "swords") throw new CliError(`--ids applies to export swords only`);
      if (opts.ids !== undefined && opts.ids !== "recipe" && opts.ids !== "as-imported") throw new CliError(`--ids: recipe or as-imported, not "${opts.ids}"`);
      const ids = opts.ids as "recipe" | "as-imported" | undefined;
      if (opts.cells !== undefined && format !== "tsar") throw new CliError(`--cells applies to export tsar only`);
      if (opts.cells !== undefined && opts.cells !== "raw" && opts.cells !== "spreadsheet-safe") throw new CliError(`--cells: raw or spreadsheet-safe, not "${opts.cells}"`);
      const cells = opts.cells as "raw" | "spreadsheet-safe" | undefined;
      const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
      const { exportDataset } = await import("../../lib/server/datasets/datasets");
      const db = await openCliDb(opts);
      const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
      const out = run(() => exportDataset(db, SYSTEM, p.id, format, { goldOnly: opts.goldOnly === true, cells, ids }));
      if (opts.output) fs.writeFileSync(opts.output, out.text);
      else process.stdout.write(out.text);
      process.stderr.write(`lexgold: ${out.written} ${out.written === 1 ? "instance" : "instances"} written as ${format}\n`);
      for (const l of out.lost) process.stderr.write(`not carried: ${l}\n`);
    });
  }
}
