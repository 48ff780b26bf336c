import path from "node:path";
import type { Command } from "commander";
import { CliError, dbOption, openCliDb, readBytes, run } from "./util";

export function register(program: Command): void {
  dbOption(
    program
      .command("import")
      .argument("<file>", "lexelt XML file (the task's format; gzipped or not; - reads standard input), or a dataset format: coinco, swords, tsar")
      .argument("[dataset]", "with a format first: the dataset file (CoInCo XML, SWORDS JSON, TSAR/MLSP TSV; gzipped or not; - reads standard input)")
      .requiredOption("--project <name>", "the project to load it into")
      .option("-q, --quiet", "do not list the repairs (datasets: the entries not carried as written)")
      .option("--create", "datasets: create the project (in the same transaction as the import)")
      .option("--id-prefix <prefix>", "tsar: instance ids are PREFIX:line (default: the file name without extension)")
      .option("--strict", "datasets: refuse the file if any entry cannot be carried as written (by default it is imported and each such entry listed)")
      .option("--only-language <tag>", "tsar: an MLSP combined file's lines of this language only (e.g. de); by default every line, each read in its own language")
      .description("load a lexelt XML file, or a dataset (`import coinco|swords|tsar FILE`), into a project (all or nothing)"),
  ).action(async (file: string, dataset: string | undefined, opts: { project: string; db?: string; quiet?: boolean; create?: boolean; idPrefix?: string; strict?: boolean; onlyLanguage?: string }) => {
    if (dataset !== undefined || ["coinco", "swords", "tsar"].includes(file)) {
      const { importDatasetFile } = await import("./datasets");
      return importDatasetFile(file, dataset, opts);
    }
    const bytes = readBytes(file);
    const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
    const { importLexeltXml } = await import("../../lib/server/corpus/corpus");
    const { InputError } = await import("../../lib/server/kernel/errors");
    const { formatDiagnostic } = await import("../../lib/lexsub/diagnostics");
    const db = await openCliDb(opts);
    const project = run(() => findProjectByName(db, SYSTEM, opts.project));
    try {
      const report = importLexeltXml(db, SYSTEM, project.id, { fileName: file === "-" ? "stdin" : path.basename(file), bytes });
      if (!opts.quiet) for (const r of report.repairs) console.log(formatDiagnostic(r));
      console.log(report.message);
    } catch (e) {
      if (e instanceof InputError) {
        for (const d of e.details.slice(1)) process.stderr.write(d + "\n");
        throw new CliError(e.message);
      }
      throw e;
    }
  });
}
