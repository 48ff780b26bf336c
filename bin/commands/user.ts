import type { Command } from "commander";
import { CliError, dbOption, openCliDb, readPassword, run } from "./util";

export function register(program: Command): void {
  const user = program.command("user").description("manage accounts (no open sign-up: accounts are made here or by a coordinator)");
  dbOption(
    user
      .command("add")
      .argument("<name>", "user name")
      .requiredOption("--role <role>", "coordinator or annotator")
      .option("--project <name>", "also add the user to this project")
      .description("create an account; the password is read from stdin, or prompted on a terminal"),
  ).action(async (name: string, opts: { role: string; project?: string; db?: string }) => {
    if (opts.role !== "coordinator" && opts.role !== "annotator") throw new CliError(`--role must be coordinator or annotator, not "${opts.role}"`);
    const password = await readPassword(`password for ${name}: `);
    const { SYSTEM, findProjectByName } = await import("../../lib/server/actor");
    const { addMember, createUser } = await import("../../lib/server/users");
    const db = await openCliDb(opts);
    const u = run(() => createUser(db, SYSTEM, { name, role: opts.role, password }));
    console.log(`created ${u.role} "${u.name}"`);
    if (opts.project) {
      const p = run(() => findProjectByName(db, SYSTEM, opts.project!));
      run(() => addMember(db, SYSTEM, p.id, u.name));
      console.log(`added "${u.name}" to project "${p.name}"`);
    }
  });
  dbOption(user.command("list").description("list accounts")).action(async (opts: { db?: string }) => {
    const { SYSTEM } = await import("../../lib/server/actor");
    const { listUsers } = await import("../../lib/server/users");
    const db = await openCliDb(opts);
    for (const u of run(() => listUsers(db, SYSTEM))) console.log(`${u.name}\t${u.role}`);
  });

  const member = program.command("member").description("project membership");
  dbOption(
    member
      .command("add")
      .argument("<user>", "user name")
      .requiredOption("--project <name>", "the project")
      .description("add a user to a project"),
  ).action(async (userName: string, opts: { project: string; db?: string }) => {
    const { SYSTEM, findProjectByName } = await import("../../lib/server/actor");
    const { addMember } = await import("../../lib/server/users");
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project));
    const r = run(() => addMember(db, SYSTEM, p.id, userName));
    console.log(r.added ? `added "${userName}" to project "${p.name}"` : `"${userName}" is already in project "${p.name}"`);
  });
}
