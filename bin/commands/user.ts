import type { Command } from "commander";
import { CliError, dbOption, openCliDb, readPassword, readText, run } from "./util";

export function register(program: Command): void {
  const user = program.command("user").description("manage accounts (no open sign-up: accounts are made here or by a coordinator)");
  dbOption(
    user
      .command("add")
      .argument("<name>", "user name")
      .requiredOption("--role <role>", "annotator, coordinator, or admin (manages every account in the app)")
      .option("--project <name>", "also add the user to this project")
      .option("--project-role <role>", "their role in that project: annotator, judge, or coordinator (default: coordinator for a coordinator account, else annotator)")
      .description("create an account; the password is read from stdin, or prompted on a terminal"),
  ).action(async (name: string, opts: { role: string; project?: string; projectRole?: string; db?: string }) => {
    if (!["coordinator", "annotator", "admin"].includes(opts.role)) throw new CliError(`--role must be annotator, coordinator or admin, not "${opts.role}"`);
    if (opts.projectRole !== undefined && !opts.project) throw new CliError("--project-role needs --project");
    checkProjectRole(opts.projectRole, opts.role);
    const password = await readPassword(`password for ${name}: `);
    const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
    const { addMember, createUser } = await import("../../lib/server/people/users");
    const db = await openCliDb(opts);
    const u = run(() => createUser(db, SYSTEM, { name, role: opts.role, password }));
    console.log(`created ${u.role} "${u.name}"`);
    if (opts.project) {
      const p = run(() => findProjectByName(db, SYSTEM, opts.project!));
      run(() => addMember(db, SYSTEM, p.id, u.name, opts.projectRole));
      console.log(`added "${u.name}" to project "${p.name}" as ${opts.projectRole ?? (u.role === "coordinator" ? "coordinator" : "annotator")}`);
    }
  });
  dbOption(
    user
      .command("import")
      .argument("<file>", "TSV: name, role, project, password (blank: generated); header optional")
      .description("create many accounts at once, all or none; generated passwords are printed once"),
  ).action(async (file: string, opts: { db?: string }) => {
    const text = readText(file);
    const { SYSTEM } = await import("../../lib/server/kernel/actor");
    const { importUsers } = await import("../../lib/server/people/user-import");
    const db = await openCliDb(opts);
    let created;
    try {
      created = importUsers(db, SYSTEM, { fileName: file, text });
    } catch (e) {
      const details = (e as { details?: string[] }).details;
      if (details?.length) for (const d of details) process.stderr.write(d + "\n");
      throw e instanceof Error && "status" in e ? new CliError(e.message) : e;
    }
    console.log(["name", "role", "project", "password"].join("\t"));
    const { neutraliseCell } = await import("../../lib/lexsub/formats/spreadsheet");
    for (const u of created) console.log([u.name, u.role, u.project ?? "", u.generated ? u.password : "(as in the file)"].map(neutraliseCell).join("\t"));
    process.stderr.write(`created ${created.length} account${created.length === 1 ? "" : "s"}; pass the generated passwords on now: they are not shown again\n`);
  });
  dbOption(
    user
      .command("reset")
      .argument("<name>", "user name")
      .description("reset an account's password to a generated one, printed once, and end its sessions (as the Accounts page does): the way back in for a coordinator who cannot sign in"),
  ).action(async (name: string, opts: { db?: string }) => {
    const { SYSTEM } = await import("../../lib/server/kernel/actor");
    const { listUsers } = await import("../../lib/server/people/users");
    const { resetPassword } = await import("../../lib/server/people/accounts");
    const db = await openCliDb(opts);
    const wanted = name.toLowerCase();
    const u = run(() => listUsers(db, SYSTEM)).find((x) => x.name.toLowerCase() === wanted);
    if (!u) throw new CliError(`no account named "${name}" (lexgold user list names them)`);
    const r = await run(() => resetPassword(db, SYSTEM, u.id));
    console.log(r.password);
    process.stderr.write(`new password for "${r.name}" above; pass it on now: it is not shown again (their sessions have ended)\n`);
  });
  dbOption(user.command("list").description("list accounts")).action(async (opts: { db?: string }) => {
    const { SYSTEM } = await import("../../lib/server/kernel/actor");
    const { listUsers } = await import("../../lib/server/people/users");
    const db = await openCliDb(opts);
    for (const u of run(() => listUsers(db, SYSTEM))) console.log(`${u.name}\t${u.role}`);
  });

  const member = program.command("member").description("project membership");
  dbOption(
    member
      .command("add")
      .argument("<user>", "user name")
      .requiredOption("--project <name>", "the project")
      .option("--role <role>", "their role in the project: annotator, judge, or coordinator (default: coordinator for a coordinator account, else annotator); for a member already in it, changes their role")
      .description("add a user to a project, or change a member's role in it"),
  ).action(async (userName: string, opts: { project: string; role?: string; db?: string }) => {
    checkProjectRole(opts.role);
    const { SYSTEM, findProjectByName } = await import("../../lib/server/kernel/actor");
    const { addMember, setMemberRole } = await import("../../lib/server/people/users");
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project));
    const r = run(() => addMember(db, SYSTEM, p.id, userName, opts.role));
    if (r.added) {
      console.log(`added "${r.user.name}" to project "${p.name}" as ${opts.role ?? (r.user.role === "coordinator" ? "coordinator" : "annotator")}`);
    } else if (opts.role !== undefined) {
      const changed = run(() => setMemberRole(db, SYSTEM, p.id, r.user.id, opts.role));
      console.log(`"${changed.name}" is ${changed.role === "annotator" ? "an annotator" : `a ${changed.role}`} in project "${p.name}"`);
    } else {
      console.log(`"${r.user.name}" is already in project "${p.name}"`);
    }
  });
}

/** A project role given on the command line, checked before anything is written. */
function checkProjectRole(role: string | undefined, accountRole?: string): void {
  if (role === undefined) return;
  if (!["annotator", "judge", "coordinator"].includes(role)) throw new CliError(`the project role must be annotator, judge or coordinator, not "${role}"`);
  if (role === "coordinator" && accountRole !== undefined && accountRole !== "coordinator") throw new CliError("only a coordinator account can coordinate a project");
}
