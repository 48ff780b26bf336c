/**
 * `lexgold export gold|mwgold`, `lexgold agreement` and `lexgold lemmas`: the
 * Gold and Agreement pages' work from the command line (issue #5).
 */
import fs from "node:fs";
import type { Command } from "commander";
import { formatAgreement } from "../../lib/lexsub/agreement/text";
import { neutraliseCell } from "../../lib/lexsub/formats/spreadsheet";
import type { AppliedProposal } from "../../lib/lexsub/gold";
import { CliError, dbOption, openCliDb, readText, run } from "./util";

/** The data access this file's commands use, loaded when one runs (not for --help). */
async function server() {
  const [actor, gold, files, agreement, errors] = await Promise.all([
    import("../../lib/server/kernel/actor"),
    import("../../lib/server/gold/gold"),
    import("../../lib/server/gold/gold-files"),
    import("../../lib/server/gold/agreement"),
    import("../../lib/server/kernel/errors"),
  ]);
  return { ...actor, ...gold, ...files, agreementReport: agreement.agreementReport, InputError: errors.InputError };
}

function write(text: string, output?: string): void {
  if (!output) {
    process.stdout.write(text);
    return;
  }
  try {
    fs.writeFileSync(output, text);
  } catch (e) {
    throw new CliError(`cannot write ${output}: ${(e as Error).message}`);
  }
}

function integer(name: string, min: number) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new CliError(`${name} must be a whole number >= ${min}, not "${v}"`);
    return n;
  };
}

/** Proposals listed one by one on stderr; the rest are counted. */
const LISTED_PROPOSALS = 20;

/** What the export's stderr says about the lemma proposals: none applied (the default), or each one applied (--apply-proposals). */
function formatAppliedProposals(applied: readonly AppliedProposal[], asked: boolean): string {
  if (!asked) {
    return "lexgold: every form is written as typed or as decided in the lemma review; lemma proposals nobody decided are not applied (`lexgold lemmas list --open` lists them, --apply-proposals applies them)\n";
  }
  if (applied.length === 0) return "lexgold: no unreviewed lemma proposal applied (--apply-proposals): every form is written as typed or as decided in the lemma review\n";
  const uses = applied.reduce((n, a) => n + a.count, 0);
  const out = [
    `lexgold: applied ${applied.length} unreviewed lemma proposal${applied.length === 1 ? "" : "s"} (--apply-proposals; ${uses} substitute${uses === 1 ? "" : "s"} and multiwords rewritten); ` +
      "review them with `lexgold lemmas list --open`; `lexgold lemmas keep --all --open` keeps every open form as typed:",
  ];
  for (const a of applied.slice(0, LISTED_PROPOSALS)) out.push(`  ${a.form} → ${a.lemma} (${a.pos || "no PoS"}) ×${a.count}`);
  if (applied.length > LISTED_PROPOSALS) out.push(`  … and ${applied.length - LISTED_PROPOSALS} more (lexgold lemmas list --open lists them all)`);
  return out.join("\n") + "\n";
}

export function register(program: Command): void {
  const exp = program.command("export").description("write the project's derived gold or mwgold file");
  for (const kind of ["gold", "mwgold"] as const) {
    dbOption(
      exp
        .command(kind)
        .requiredOption("--project <name>", "the project")
        .option("-o, --output <file>", "write to this file instead of stdout")
        .option("--fold-case", "write kept and proposed forms in lower case (TV and tv become one entry); off by default: case is kept as typed")
        .option(
          "--apply-proposals",
          "write the lemma proposal for every form nobody decided in the lemma review, naming each on stderr; off by default: such forms are written as typed",
        )
        .description(
          kind === "gold"
            ? "the gold file (best and oot): `lexelt id :: sub n;…;` for every instance with an entry, derived through the lemma review"
            : "the mwgold file: `lexelt id :: phrase n;…;` for every instance where anyone gave a multiword",
        ),
    ).action(async (opts: { project: string; output?: string; db?: string; foldCase?: boolean; applyProposals?: boolean }) => {
      const { SYSTEM, findProjectByName, ...gold } = await server();
      const db = await openCliDb(opts);
      const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
      const warn = (problem: { lexelt: string; instanceId: string; annotator: string | null; message: string }) =>
        process.stderr.write(`warning: ${problem.lexelt} ${problem.instanceId}${problem.annotator ? ` (${problem.annotator})` : ""}: ${problem.message}\n`);
      if (!opts.foldCase && !opts.applyProposals) {
        // The file as kept while answers change (#39): brought up to date, then written line by line.
        for (const problem of run(() => gold.goldProblems(db, SYSTEM, p.id))) warn(problem);
        write([...run(() => gold.goldFileSlices(db, SYSTEM, p.id, kind))].join(""), opts.output);
        process.stderr.write(formatAppliedProposals([], false));
        return;
      }
      const g = run(() => gold.projectGold(db, SYSTEM, p.id, { foldCase: opts.foldCase === true, applyProposals: opts.applyProposals === true }));
      for (const problem of g.result.problems) warn(problem);
      write(kind === "gold" ? g.gold : g.mwgold, opts.output);
      process.stderr.write(formatAppliedProposals(g.result.applied, opts.applyProposals === true));
      if (opts.foldCase) process.stderr.write("lexgold: case folded (--fold-case): kept and proposed forms are written in lower case\n");
    });
  }

  dbOption(
    program
      .command("agreement")
      .requiredOption("--project <name>", "the project")
      .option("--json", "print the whole report as JSON (proportions in [0,1], unrounded; null where undefined)")
      .option("--bootstrap <n>", "bootstrap resamples for the 95% intervals (0: none)", integer("--bootstrap", 0), 1000)
      .option("--seed <n>", "seed of the bootstrap", integer("--seed", 0), 1)
      .option("-o, --output <file>", "write to this file instead of stdout")
      .description("inter-annotator agreement over the derived gold: pairwise, mode, multiword, alpha (MASI); per annotator and PoS"),
  ).action(async (opts: { project: string; json?: boolean; bootstrap: number; seed: number; output?: string; db?: string }) => {
    const { SYSTEM, findProjectByName, ...gold } = await server();
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
    const agreement = run(() => gold.agreementReport(db, SYSTEM, p.id, { bootstrapIterations: opts.bootstrap, seed: opts.seed }));
    write(opts.json ? JSON.stringify(agreement, null, 2) + "\n" : formatAgreement(p.name, agreement), opts.output);
  });

  const lemmas = program.command("lemmas").description("the lemma review: typed forms and the lemmas the gold records");
  dbOption(
    lemmas
      .command("list")
      .requiredOption("--project <name>", "the project")
      .option("--open", "only forms without a decision")
      .description("print form, proposed lemma, count, decision, lemma used, note (TSV; changed forms first, then by count)"),
  ).action(async (opts: { project: string; open?: boolean; db?: string }) => {
    const { SYSTEM, findProjectByName, ...gold } = await server();
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
    const rows = run(() => gold.lemmaReview(db, SYSTEM, p.id)).filter((r) => !opts.open || r.decision === null);
    const out = ["form\tproposed\tcount\tpos\tdecision\tlemma\tnote"];
    // A note for a choice between two readings (decided one by one) and for spellings with other spacing.
    const note = (r: (typeof rows)[number]) =>
      [
        r.choice ? `a choice: the verb ${r.choice.proposed}, or ${r.choice.asTyped} as an adjective (accept --all leaves it open)` : "",
        r.spacing ? `also typed with other spacing: ${r.spacing.map((x) => JSON.stringify(x)).join(", ")}` : "",
      ]
        .filter((x) => x !== "")
        .join("; ");
    // TSV: cells a spreadsheet would run as a formula are neutralised, as in every TSV lexgold writes.
    for (const r of rows) out.push([r.form, r.proposed, String(r.count), r.pos.join(","), r.decision ?? "", r.lemma, note(r)].map(neutraliseCell).join("\t"));
    process.stdout.write(out.join("\n") + "\n");
  });
  dbOption(
    lemmas
      .command("set")
      .argument("<form>", "the typed form")
      .argument("<decision>", "accept | keep | reset | the lemma to record instead")
      .requiredOption("--project <name>", "the project")
      .description("decide one form: accept the proposal, keep the form as typed, reset to undecided, or give the lemma"),
  ).action(async (form: string, decision: string, opts: { project: string; db?: string }) => {
    const { SYSTEM, findProjectByName, ...gold } = await server();
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
    const input =
      decision === "accept"
        ? { form, decision: "accepted" }
        : decision === "keep"
          ? { form, decision: "kept" }
          : decision === "reset"
            ? { form, decision: "reset" }
            : { form, decision: "overridden", lemma: decision };
    const r = run(() => gold.decideLemma(db, SYSTEM, p.id, input));
    console.log(r.decision === null ? `${r.form}: undecided (the proposal ${r.lemma} is used)` : `${r.form} → ${r.lemma} (${r.decision})`);
  });
  dbOption(
    lemmas
      .command("import")
      .argument("<file>", "TSV: form<TAB>decision per line, decision = accept | keep | reset | the lemma to record")
      .requiredOption("--project <name>", "the project")
      .description("decide many forms at once, in one transaction: any bad line refuses the whole file (each named), nothing recorded"),
  ).action(async (file: string, opts: { project: string; db?: string }) => {
    const text = readText(file);
    const { SYSTEM, findProjectByName, InputError, ...gold } = await server();
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
    try {
      console.log(gold.importLemmaDecisions(db, SYSTEM, p.id, { fileName: file, text }).message);
    } catch (e) {
      if (e instanceof InputError && e.details.length > 1) for (const d of e.details.slice(1)) process.stderr.write(d + "\n");
      if (e instanceof Error && "status" in e) throw new CliError(e.message);
      throw e;
    }
  });
  for (const verb of ["keep", "accept"] as const) {
    dbOption(
      lemmas
        .command(verb)
        .option("--all", "every form the filter keeps (required: one form is `lemmas set FORM " + verb + "`)")
        .option("--pos <pos>", "only forms given under this PoS (n, v, a, r)" + (verb === "accept" ? "; the proposal for this PoS is taken" : ""))
        .option("--open", "only forms without a decision")
        .option("--changed", "only forms the lemmatiser would change")
        .requiredOption("--project <name>", "the project")
        .description(
          verb === "keep"
            ? "keep every form of a filter as typed, in one transaction"
            : "accept the proposal for every form of a filter, in one transaction",
        ),
    ).action(async (opts: { project: string; all?: boolean; pos?: string; open?: boolean; changed?: boolean; db?: string }) => {
      if (!opts.all) throw new CliError(`give --all (narrowed by --pos, --open, --changed) to decide a whole filter; one form is \`lexgold lemmas set FORM ${verb}\``);
      const { SYSTEM, findProjectByName, ...gold } = await server();
      const db = await openCliDb(opts);
      const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
      const n = run(() =>
        gold.decideLemmasWhere(db, SYSTEM, p.id, { decision: verb === "keep" ? "kept" : "accepted", pos: opts.pos, open: opts.open, changedOnly: opts.changed }),
      );
      console.log(`${verb === "keep" ? "kept" : "accepted"} ${n} form${n === 1 ? "" : "s"}${verb === "keep" ? " as typed" : ""}`);
    });
  }
  dbOption(
    lemmas
      .command("accept-all")
      .requiredOption("--project <name>", "the project")
      .description("accept the proposal for every form without a decision"),
  ).action(async (opts: { project: string; db?: string }) => {
    const { SYSTEM, findProjectByName, ...gold } = await server();
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
    const n = run(() => gold.acceptAllProposals(db, SYSTEM, p.id));
    console.log(`accepted ${n} proposal${n === 1 ? "" : "s"}`);
  });
}
