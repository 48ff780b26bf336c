import type { Command } from "commander";
import { CliError, dbOption, openCliDb, readText, run } from "./util";

/** "1,234 responses" / "more than 100,000 responses". */
function counted(n: number, atLeast: boolean, what: string): string {
  return `${atLeast ? "more than " : ""}${n.toLocaleString("en")} ${what}${n === 1 && !atLeast ? "" : "s"}`;
}

export function register(program: Command): void {
  const project = program.command("project").description("create, list and configure projects");
  dbOption(
    project
      .command("create")
      .argument("<name>", "project name")
      .option("--language <tag>", "the language of its sentences and answers, a BCP 47 tag (en, de, es, pt-BR)", "en")
      .option("--coordinator <user>", "a coordinator account to run it (repeat for several); the study's own coordinator, made by `lexgold init`, coordinates every project", (v: string, prev: string[] = []) => [...prev, v])
      .description("create a project"),
  ).action(async (name: string, opts: { language: string; coordinator?: string[]; db?: string }) => {
    const { SYSTEM } = await import("../../lib/server/kernel/actor");
    const { createProject } = await import("../../lib/server/corpus/projects");
    const db = await openCliDb(opts);
    const p = run(() => createProject(db, SYSTEM, { name, language: opts.language, coordinators: opts.coordinator }));
    const who = p.coordinators.length === 0 ? `no coordinator yet (lexgold member add USER --project ${p.name} --role coordinator)` : `coordinated by ${p.coordinators.join(", ")}`;
    console.log(`created project "${p.name}" (language ${p.language}); ${who}`);
  });
  dbOption(project.command("list").description("list projects with their lexelt and instance counts"))
    .action(async (opts: { db?: string }) => {
      const { SYSTEM } = await import("../../lib/server/kernel/actor");
      const { listProjects } = await import("../../lib/server/corpus/projects");
      const db = await openCliDb(opts);
      for (const p of run(() => listProjects(db, SYSTEM))) {
        console.log(`${p.name}\t${p.lexelts} ${p.lexelts === 1 ? "lexelt" : "lexelts"}\t${p.instances} ${p.instances === 1 ? "instance" : "instances"}${p.archivedAt ? `\tarchived ${p.archivedAt.toISOString().slice(0, 10)}` : ""}`);
      }
    });
  dbOption(
    project
      .command("set")
      .argument("<name>", "project name")
      .option("--required-annotators <n>", 'annotators each instance needs ("" or "all" = everyone assigned)')
      .option("--guidelines <file>", "plain-text guidelines shown to annotators")
      .option("--language <tag>", "the language of its sentences and answers, a BCP 47 tag (en, de, es, pt-BR)")
      .description("change a project's settings"),
  ).action(async (name: string, opts: { requiredAnnotators?: string; guidelines?: string; language?: string; db?: string }) => {
    if (opts.requiredAnnotators === undefined && opts.guidelines === undefined && opts.language === undefined) {
      throw new CliError("nothing to set: give --required-annotators, --guidelines and/or --language");
    }
    const text = opts.guidelines === undefined ? undefined : readText(opts.guidelines);
    const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
    const { setGuidelines, setRequiredAnnotators } = await import("../../lib/server/people/team");
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, name));
    if (opts.requiredAnnotators !== undefined) {
      const v = opts.requiredAnnotators.trim().toLowerCase() === "all" ? null : opts.requiredAnnotators;
      const n = run(() => setRequiredAnnotators(db, SYSTEM, p.id, v));
      console.log(n === null ? `"${p.name}": each instance needs everyone assigned` : `"${p.name}": each instance needs ${n} annotator${n === 1 ? "" : "s"}`);
    }
    if (text !== undefined) {
      const g = run(() => setGuidelines(db, SYSTEM, p.id, text));
      console.log(`"${p.name}": guidelines set (${g.length} characters)`);
    }
    if (opts.language !== undefined) {
      const { setProjectLanguage } = await import("../../lib/server/corpus/project-lifecycle");
      const l = run(() => setProjectLanguage(db, SYSTEM, p.id, { language: opts.language! }));
      console.log(`"${p.name}": language ${l.language}`);
    }
  });
  dbOption(project.command("rename").argument("<name>", "the project's name").argument("<new-name>", "its new name").description("rename a project"))
    .action(async (name: string, newName: string, opts: { db?: string }) => {
      const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
      const { renameProject } = await import("../../lib/server/corpus/project-lifecycle");
      const db = await openCliDb(opts);
      const p = run(() => findProjectByName(db, SYSTEM, name));
      const r = run(() => renameProject(db, SYSTEM, p.id, { name: newName }));
      console.log(`renamed project "${p.name}" to "${r.name}"`);
    });
  for (const archived of [true, false]) {
    dbOption(
      project
        .command(archived ? "archive" : "unarchive")
        .argument("<name>", "the project's name")
        .description(archived ? "archive a project: it leaves annotators' lists and takes no new answers; everything is kept" : "bring an archived project back"),
    ).action(async (name: string, opts: { db?: string }) => {
      const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
      const { setProjectArchived } = await import("../../lib/server/corpus/project-lifecycle");
      const db = await openCliDb(opts);
      const p = run(() => findProjectByName(db, SYSTEM, name));
      const r = run(() => setProjectArchived(db, SYSTEM, p.id, archived));
      console.log(r.archivedAt ? `"${p.name}" is archived (since ${r.archivedAt.toISOString().slice(0, 16).replace("T", " ")} UTC)` : `"${p.name}" is no longer archived`);
    });
  }
  dbOption(
    project
      .command("delete")
      .argument("<name>", "the project's name")
      .option("--confirm <name>", "the project's name again, instead of typing it when asked")
      .description("delete a project and everything in it (says what will go and asks for the project's name; make a backup first)"),
  ).action(async (name: string, opts: { confirm?: string; db?: string }) => {
    const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
    const { deleteProject, projectContents } = await import("../../lib/server/corpus/project-lifecycle");
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, name));
    const c = run(() => projectContents(db, SYSTEM, p.id));
    const lines = [
      `Deleting "${c.name}" removes, for good:`,
      `  ${counted(c.lexelts, false, "lexelt")} with ${counted(c.instances, false, "instance")}`,
      `  ${counted(c.responses, c.responsesAtLeast, "response")}, and every decision, flag, training and check made on them`,
      ...(c.datasetEntries > 0 ? [`  ${counted(c.datasetEntries, c.datasetEntriesAtLeast, "imported gold entry")}`] : []),
      `  ${counted(c.judgementRounds, false, "judgement round")}, ${counted(c.systemRuns, false, "scored run")}`,
      `  the memberships of ${counted(c.members, false, "account")} (the accounts themselves stay)`,
      "Make a backup first if you may want it back: lexgold backup --dir DIR",
    ];
    process.stderr.write(lines.join("\n") + "\n");
    let typed = opts.confirm;
    if (typed === undefined) {
      if (!process.stdin.isTTY) throw new CliError(`nothing was deleted: give --confirm "${c.name}" (or run it on a terminal to be asked).`);
      const readline = await import("node:readline/promises");
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      typed = await rl.question(`Type the project's name to delete it: `);
      rl.close();
    }
    const gone = await deleteProject(db, SYSTEM, p.id, typed).catch((e: unknown) => {
      if (e instanceof Error && "status" in e) throw new CliError(e.message);
      throw e;
    });
    console.log(`deleted project "${gone.name}"`);
  });
}
