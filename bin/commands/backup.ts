import { basename, dirname } from "node:path";
import type { Command } from "commander";
import type { BackupReport, DatabaseSummary, RestoreReport } from "../../lib/server/ops/backup";
import { CliError, dbOption } from "./util";

function tableLines(s: DatabaseSummary): string[] {
  const width = Math.max(...s.tables.map((t) => t.table.length), 5);
  return s.tables.map((t) => `  ${t.table.padEnd(width)}  ${t.rows.toLocaleString("en-US").padStart(9)}`);
}

/** Data-access errors (bad input, refusals) become one-line CLI errors. */
async function cli<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof Error && "status" in e) throw new CliError(e.message);
    throw e;
  }
}

export function register(program: Command): void {
  dbOption(
    program
      .command("backup")
      .argument("[file]", "where to write the copy (or --dir)")
      .option("--dir <dir>", "write a timestamped copy (<database>-YYYY-MM-DDTHH-MM-SS-mmmZ.db) into DIR, made 0700 if missing")
      .option("--keep <n>", "with --dir: then remove the oldest timestamped backups of this database beyond N (nothing else in DIR)")
      .option("-f, --force", "replace FILE if it exists")
      .option("-q, --quiet", "print only the one-line summary")
      .description(
        "copy the database while the server runs (SQLite's online backup), then check the copy with integrity_check; the copy is created 0600",
      ),
  ).action(async (file: string | undefined, opts: { db?: string; dir?: string; keep?: string; force?: boolean; quiet?: boolean }) => {
    if (file && opts.dir) throw new CliError("give either FILE or --dir DIR, not both");
    if (!file && !opts.dir) throw new CliError("give the backup's FILE, or --dir DIR for a timestamped one");
    if (opts.keep !== undefined && !opts.dir) throw new CliError("--keep works with --dir");
    if (opts.keep !== undefined && !/^[1-9]\d*$/.test(opts.keep)) throw new CliError(`--keep must be a whole number of at least 1, not "${opts.keep}"`);
    const { backupDatabase, backupToDirectory, describeTables, formatBytes, openForBackup } = await import("../../lib/server/ops/backup");
    const { SYSTEM } = await import("../../lib/server/kernel/actor");
    const { resolveDbPath } = await import("../../db/client");
    const r: BackupReport & { kept?: string[]; removed?: string[] } = await cli(async () => {
      const db = openForBackup(resolveDbPath(opts.db));
      try {
        return opts.dir
          ? await backupToDirectory(db, SYSTEM, opts.dir, { keep: opts.keep === undefined ? undefined : Number(opts.keep) })
          : await backupDatabase(db, SYSTEM, file!, { force: opts.force });
      } finally {
        db.$client.close();
      }
    });
    console.log(
      `backed up ${r.source} to ${r.file}: ${formatBytes(r.bytes)} (${r.pages} pages), integrity_check ok; ` +
        `${describeTables(r.tables)}; copied in ${Math.round(r.copyMs)} ms.`,
    );
    if (r.kept) {
      const removed = r.removed!.length > 0 ? `; removed ${r.removed!.map((f) => basename(f)).join(", ")}` : "";
      console.log(`${r.kept.length} backup${r.kept.length === 1 ? "" : "s"} of this database in ${dirname(r.file)}${removed}.`);
    }
    if (!opts.quiet) for (const l of tableLines(r)) console.log(l);
  });

  dbOption(
    program
      .command("restore")
      .argument("<file>", "a backup made by `lexgold backup` (or any lexgold database file)")
      .option("-f, --force", "replace the existing database (stop the server first)")
      .option("-q, --quiet", "print only the one-line summary")
      .description(
        "replace the database with a backup: refuses files that are not a sound lexgold database; the switch is one atomic rename; migrations run on the next open",
      ),
  ).action(async (file: string, opts: { db?: string; force?: boolean; quiet?: boolean }) => {
    const { describeTables, formatBytes, restoreDatabase } = await import("../../lib/server/ops/backup");
    const { SYSTEM } = await import("../../lib/server/kernel/actor");
    const { resolveDbPath } = await import("../../db/client");
    const r: RestoreReport = await cli(() => restoreDatabase(SYSTEM, file, resolveDbPath(opts.db), { force: opts.force }));
    const pending = r.pendingMigrations > 0 ? ` ${r.pendingMigrations} newer migration${r.pendingMigrations > 1 ? "s" : ""} will run on the next open.` : "";
    console.log(
      `restored ${r.source} ${r.replaced ? "over" : "as"} ${r.target}: ${formatBytes(r.bytes)}, integrity_check ok; ${describeTables(r.tables)}.${pending}`,
    );
    if (!opts.quiet) for (const l of tableLines(r)) console.log(l);
  });
}
