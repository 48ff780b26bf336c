import fs from "node:fs";
import { type Command, Option } from "commander";
import { CliError, dbOption, openCliDb, printDiagnostics, readText, run } from "./util";

interface BaselineOptions {
  type: "best" | "oot" | "mw";
  project?: string;
  store?: boolean;
  gold?: string;
  output?: string;
  db?: string;
}

export function register(program: Command): void {
  const baseline = program.command("baseline").description("the task's baselines, as system files");
  dbOption(
    baseline
      .command("wordnet")
      .description("the WordNet baselines of SemEval-2007 §3.1 (WordNet 3.1; candidates ranked by its sense tag counts, not the BNC)")
      .argument("[xml]", "a lexelt XML file (or --project)")
      .addOption(new Option("-t, --type <type>", "best, oot or mw").choices(["best", "oot", "mw"]).default("best"))
      .option("--project <name>", "the instances of a project instead of an XML file")
      .option("--store", "with --project: store best, oot and mw as runs named \"WordNet baseline\" on the Scoring page")
      .option("--gold <id>", "with --store: the stored gold the runs are scored with (default: the project's own)")
      .option("-o, --output <file>", "write the system file there instead of stdout"),
  ).action(async (xml: string | undefined, opts: BaselineOptions) => {
    if ((xml === undefined) === (opts.project === undefined)) throw new CliError("give a lexelt XML file or --project NAME (one of them)");
    if (opts.store && !opts.project) throw new CliError("--store needs --project");
    const { FREQUENCY_NOTE } = await import("../../lib/server/scoring/baselines");
    if (opts.project) {
      const db = await openCliDb(opts);
      const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
      const b = await import("../../lib/server/scoring/baselines");
      const p = run(() => findProjectByName(db, SYSTEM, opts.project!, { coordinator: true }));
      if (opts.store) {
        const r = run(() => b.addWordNetBaselineRuns(db, SYSTEM, p.id, opts.gold ?? null));
        for (const x of r.runs) process.stdout.write(`stored run ${x.id}: ${x.name} (${x.type}), ${r.unanswered[x.type]} instance${r.unanswered[x.type] === 1 ? "" : "s"} unanswered\n`);
        process.stderr.write(`lexgold: ${FREQUENCY_NOTE}\n`);
        return;
      }
      emit(b.wordnetBaseline(run(() => b.baselineInstances(db, SYSTEM, p.id)), opts.type), opts, FREQUENCY_NOTE);
      return;
    }
    const { parseLexeltXml } = await import("../../lib/lexsub/formats/lexelt");
    const parsed = parseLexeltXml(readText(xml!), xml!);
    printDiagnostics([...parsed.repairs, ...parsed.errors]);
    if (!parsed.corpus || parsed.errors.length > 0) throw new CliError(`${xml}: not a readable lexelt file; nothing written`);
    const list = parsed.corpus.lexelts.flatMap((l) => l.instances.map((i) => ({ lexelt: l.item, id: i.id, before: i.before, head: i.head, after: i.after })));
    const { wordnetBaseline } = await import("../../lib/server/scoring/baselines");
    emit(wordnetBaseline(list, opts.type), opts, FREQUENCY_NOTE);
  });
}

function emit(out: { lines: string[]; unanswered: number }, opts: BaselineOptions, note: string): void {
  const text = out.lines.length > 0 ? out.lines.join("\n") + "\n" : "";
  if (opts.output) fs.writeFileSync(opts.output, text);
  else process.stdout.write(text);
  process.stderr.write(`lexgold: WordNet ${opts.type} baseline: ${out.lines.length} line${out.lines.length === 1 ? "" : "s"}, ${out.unanswered} instance${out.unanswered === 1 ? "" : "s"} unanswered; ${note}\n`);
}
