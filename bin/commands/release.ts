/**
 * `lexgold release create|list|download`: citable releases of a project's gold standard
 * (issue #42; lib/server/releases). A release is frozen once made; download writes its .tar.gz.
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { CliError, dbOption, openCliDb, run } from "./util";

async function server() {
  const [actor, releases] = await Promise.all([import("../../lib/server/kernel/actor"), import("../../lib/server/releases/releases")]);
  return { ...actor, ...releases };
}

const mb = (n: number) => (n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1)} MB` : `${(n / 1024).toFixed(1)} KB`);

export function register(program: Command): void {
  const release = program.command("release").description("citable releases of a project's gold standard: frozen, checksummed, with a datasheet and a dataset card");
  dbOption(
    release
      .command("create")
      .requiredOption("--project <name>", "the project")
      .requiredOption("--version <version>", "a semantic version, e.g. 1.0.0 (a release never changes: each needs a new one)")
      .option("--with-names", "carry the annotators' account names beside their pseudonyms (a crowd participant's name holds their platform id)")
      .option("--with-notes", "carry the annotators' flags and notes on the instances")
      .description("make a release from the project as it is now: lexelt XML, gold and mwgold, CoInCo/SWORDS/TSAR, JSON Lines, anonymised answers, agreement, datasheet, CITATION.cff"),
  ).action(async (opts: { project: string; version: string; withNames?: boolean; withNotes?: boolean; db?: string }) => {
    const { SYSTEM, findProjectByName, createRelease } = await server();
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
    let r;
    try {
      r = await createRelease(db, SYSTEM, p.id, { version: opts.version, names: opts.withNames === true, notes: opts.withNotes === true });
    } catch (e) {
      if (e instanceof Error && "status" in e) throw new CliError(e.message);
      throw e;
    }
    const f = r.facts;
    console.log(`released ${p.name} ${r.version}: ${r.fileName}, ${mb(r.archiveBytes)}, sha256 ${r.archiveSha256}`);
    console.log(`  ${f.instances} instances (${f.excludedInstances} excluded), ${f.goldLines} gold lines, ${f.answers} answers by ${f.annotators + f.participants} annotators`);
  });
  dbOption(release.command("list").requiredOption("--project <name>", "the project").option("--json", "print JSON").description("a project's releases, newest first")).action(
    async (opts: { project: string; json?: boolean; db?: string }) => {
      const { SYSTEM, findProjectByName, listReleases } = await server();
      const db = await openCliDb(opts);
      const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
      const list = run(() => listReleases(db, SYSTEM, p.id));
      if (opts.json) {
        console.log(JSON.stringify(list, null, 2));
        return;
      }
      if (list.length === 0) console.log(`no releases of ${p.name} yet: lexgold release create --project ${p.name} --version 1.0.0`);
      for (const r of list) {
        console.log(`${r.version}\t${r.createdAt.toISOString()}\t${r.createdByName ?? "command line"}\t${mb(r.archiveBytes)}\t${r.facts.goldLines} gold lines\tsha256 ${r.archiveSha256}`);
      }
    },
  );
  dbOption(
    release
      .command("download")
      .requiredOption("--project <name>", "the project")
      .requiredOption("--version <version>", "the release")
      .option("-o, --output <file>", "where to write the .tar.gz (default: its own name, in this folder)")
      .option("-f, --force", "replace the file if it exists")
      .description("write a release's .tar.gz as it was made (its SHA-256 is checked first)"),
  ).action(async (opts: { project: string; version: string; output?: string; force?: boolean; db?: string }) => {
    const { SYSTEM, findProjectByName, releaseByVersion, releaseArchive } = await server();
    const { createHash } = await import("node:crypto");
    const db = await openCliDb(opts);
    const p = run(() => findProjectByName(db, SYSTEM, opts.project, { coordinator: true }));
    const r = run(() => releaseByVersion(db, SYSTEM, p.id, opts.version));
    const a = run(() => releaseArchive(db, SYSTEM, p.id, r.id));
    if (createHash("sha256").update(a.bytes).digest("hex") !== a.sha256) throw new CliError(`release ${r.version}: its archive does not match its SHA-256; restore a backup`);
    const out = path.resolve(opts.output ?? a.fileName);
    try {
      fs.writeFileSync(out, a.bytes, { flag: opts.force ? "w" : "wx" });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new CliError(code === "EEXIST" ? `${out} exists: give --force to replace it, or -o another name` : `cannot write ${out}: ${(e as Error).message}`);
    }
    console.log(`wrote ${out} (${mb(a.bytes.length)}, sha256 ${a.sha256})`);
  });
}
