import type { Command } from "commander";
import { dbOption, run } from "./util";

export function register(program: Command): void {
  dbOption(
    program
      .command("doctor")
      .option("--backups <dir>", "where `lexgold backup --dir` writes (default: $LEXGOLD_BACKUP_DIR, unless --db names another database than $LEXGOLD_DB)")
      .option("--no-backups", "do not look for backups (a restore drill's copy has none of its own)")
      .description(
        "check an installation without changing it: integrity, pending or unknown migrations, accounts, file permissions (database, -wal, -shm, secret, backups), " +
          "the session secret, free disk space and the newest backup; exits 1 when something fails, 2 when something needs fixing, 0 when all is well",
      ),
  ).action(async (opts: { db?: string; backups?: string | false }) => {
    const { doctor } = await import("../../lib/server/ops/deploy");
    const { SYSTEM } = await import("../../lib/server/kernel/actor");
    const { resolveDbPath } = await import("../../db/client");
    const { setting } = await import("../../lib/config");
    const dbFile = resolveDbPath(opts.db);
    // $LEXGOLD_BACKUP_DIR holds the backups of the configured database: a copy named
    // with --db (a restore drill's) is not expected to have any there.
    const otherDatabase = opts.db !== undefined && dbFile !== resolveDbPath();
    let backupDir: string | null = null;
    let backupsUnchecked: string | undefined;
    if (opts.backups === false) backupsUnchecked = "backups not checked (--no-backups)";
    else if (typeof opts.backups === "string") backupDir = opts.backups;
    else if (otherDatabase) backupsUnchecked = `backups not checked: --db names ${dbFile}, not the configured database (--backups DIR checks its backups)`;
    else backupDir = setting("LEXGOLD_BACKUP_DIR") ?? null;
    const checks = run(() => doctor(SYSTEM, { dbFile, backupDir, backupsUnchecked }));
    const label = { ok: "ok  ", warn: "WARN", fail: "FAIL", info: "--  " } as const;
    for (const c of checks) console.log(`${label[c.status]}  ${c.check.padEnd(11)}  ${c.message}`);
    const fails = checks.filter((c) => c.status === "fail").length;
    const warns = checks.filter((c) => c.status === "warn").length;
    console.log(fails + warns === 0 ? "all checks passed" : `${fails} failed, ${warns} to fix`);
    process.exitCode = fails > 0 ? 1 : warns > 0 ? 2 : 0;
  });
}
