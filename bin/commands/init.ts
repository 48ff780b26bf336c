import type { Command } from "commander";
import { CliError, dbOption, readPassword, run } from "./util";

export function register(program: Command): void {
  dbOption(
    program
      .command("init")
      .argument("<name>", "user name of the first coordinator")
      .description(
        "start a study: create and migrate an empty database, create its first coordinator (password from stdin, or prompted twice on a terminal), " +
          "and write the session secret (0600) unless NEXTAUTH_SECRET is set; refuses a database that already has accounts",
      ),
  ).action(async (name: string, opts: { db?: string }) => {
    const { initStudy } = await import("../../lib/server/ops/deploy");
    const { SYSTEM } = await import("../../lib/server/kernel/actor");
    const { resolveDbPath } = await import("../../db/client");
    const { passwordProblem } = await import("../../lib/server/people/passwords");
    const dbFile = resolveDbPath(opts.db);
    const password = await readPassword(`password for ${name}: `);
    if (process.stdin.isTTY) {
      // Typed unseen: ask again, so a typo does not lock the only coordinator out.
      const problem = passwordProblem(password);
      if (problem) throw new CliError(`${problem} Nothing was written.`);
      if ((await readPassword("the same password again: ")) !== password) throw new CliError("the two passwords differ; nothing was written.");
    }
    const r = run(() => initStudy(SYSTEM, { dbFile, name, password }));
    console.log(`created ${r.dbFile} (mode 600) with the coordinator "${r.user.name}"`);
    if (r.secret.source === "env") console.log("session secret: NEXTAUTH_SECRET from the environment (no file written)");
    else console.log(`session secret: ${r.secret.file} (${r.secret.created ? "written" : "kept, already there"}, mode 600)`);
    console.log("next: npm run build, then npm start (set NEXTAUTH_URL to the public address when serving beyond this machine)");
  });
}
