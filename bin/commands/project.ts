import type { Command } from "commander";
import { SYSTEM } from "../../lib/server/actor";
import { createProject, listProjects } from "../../lib/server/projects";
import { dbOption, openCliDb, run } from "./util";

export function register(program: Command): void {
  const project = program.command("project").description("create and list projects");
  dbOption(project.command("create").argument("<name>", "project name").description("create a project"))
    .action(async (name: string, opts: { db?: string }) => {
      const db = await openCliDb(opts);
      const p = run(() => createProject(db, SYSTEM, { name }));
      console.log(`created project "${p.name}"`);
    });
  dbOption(project.command("list").description("list projects with their lexelt and instance counts"))
    .action(async (opts: { db?: string }) => {
      const db = await openCliDb(opts);
      for (const p of run(() => listProjects(db, SYSTEM))) {
        console.log(`${p.name}\t${p.lexelts} lexelts\t${p.instances} instances`);
      }
    });
}
