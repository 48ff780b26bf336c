import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { dbOption, openCliDb, readText, run } from "./util";

export function register(program: Command): void {
  dbOption(
    program
      .command("demo")
      .description(`create the demo project with its sample corpus, demo accounts and sample responses (safe to run again)`),
  ).action(async (opts: { db?: string }) => {
    const { setting } = await import("../../lib/config");
    const root = setting("LEXGOLD_ROOT") ?? process.cwd();
    const file = path.join(root, "samples", "demo.xml");
    const responsesFile = path.join(root, "samples", "demo-responses.tsv");
    const responses = { fileName: "demo-responses.tsv", text: readText(responsesFile) };
    const { DEMO_PASSWORD, DEMO_USERS, seedDemo } = await import("../../lib/server/ops/demo");
    const db = await openCliDb(opts);
    const report = run(() => seedDemo(db, { fileName: "demo.xml", bytes: fs.readFileSync(file) }, responses));
    if (report.created.length > 0) console.log(`created ${report.created.join(", ")}`);
    if (report.importMessage) console.log(report.importMessage);
    if (report.responsesMessage) console.log(report.responsesMessage);
    console.log(`demo accounts (password ${DEMO_PASSWORD}): ${DEMO_USERS.map((u) => u.name).join(", ")}`);
  });
}
