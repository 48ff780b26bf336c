import type { Command } from "commander";
import { CliError, dbOption, openCliDb, readText, run } from "./util";

export function register(program: Command): void {
  const project = program.command("project").description("create, list and configure projects");
  dbOption(project.command("create").argument("<name>", "project name").description("create a project"))
    .action(async (name: string, opts: { db?: string }) => {
      const { SYSTEM } = await import("../../lib/server/kernel/actor");
      const { createProject } = await import("../../lib/server/corpus/projects");
      const db = await openCliDb(opts);
      const p = run(() => createProject(db, SYSTEM, { name }));
      console.log(`created project "${p.name}"`);
    });
  dbOption(project.command("list").description("list projects with their lexelt and instance counts"))
    .action(async (opts: { db?: string }) => {
      const { SYSTEM } = await import("../../lib/server/kernel/actor");
      const { listProjects } = await import("../../lib/server/corpus/projects");
      const db = await openCliDb(opts);
      for (const p of run(() => listProjects(db, SYSTEM))) {
        console.log(`${p.name}\t${p.lexelts} lexelts\t${p.instances} instances`);
      }
    });
  dbOption(
    project
      .command("set")
      .argument("<name>", "project name")
      .option("--required-annotators <n>", 'annotators each instance needs ("" or "all" = everyone assigned)')
      .option("--guidelines <file>", "plain-text guidelines shown to annotators")
      .description("change a project's settings"),
  ).action(async (name: string, opts: { requiredAnnotators?: string; guidelines?: string; db?: string }) => {
    if (opts.requiredAnnotators === undefined && opts.guidelines === undefined) throw new CliError("nothing to set: give --required-annotators and/or --guidelines");
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
  });
}
