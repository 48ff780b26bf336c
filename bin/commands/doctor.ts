import type { Command } from "commander";
import { dbOption, run } from "./util";

export function register(program: Command): void {
  dbOption(
    program
      .command("doctor")
      .option("--backups <dir>", "where `lexgold backup --dir` writes (default: $LEXGOLD_BACKUP_DIR)")
      .description(
        "check an installation without changing it: integrity, pending or unknown migrations, accounts, file permissions (database, -wal, -shm, secret, backups), " +
          "the session secret, free disk space and the newest backup; exits 1 when something fails, 2 when something needs fixing, 0 when all is well",
      ),
  ).action(async (opts: { db?: string; backups?: string }) => {
    const { doctor } = await import("../../lib/server/ops/deploy");
    const { SYSTEM } = await import("../../lib/server/kernel/actor");
    const { resolveDbPath } = await import("../../db/client");
    const { setting } = await import("../../lib/config");
    const checks = run(() => doctor(SYSTEM, { dbFile: resolveDbPath(opts.db), backupDir: opts.backups ?? setting("LEXGOLD_BACKUP_DIR") ?? null }));
    const label = { ok: "ok  ", warn: "WARN", fail: "FAIL", info: "--  " } as const;
    for (const c of checks) console.log(`${label[c.status]}  ${c.check.padEnd(11)}  ${c.message}`);
    const fails = checks.filter((c) => c.status === "fail").length;
    const warns = checks.filter((c) => c.status === "warn").length;
    console.log(fails + warns === 0 ? "all checks passed" : `${fails} failed, ${warns} to fix`);
    process.exitCode = fails > 0 ? 1 : warns > 0 ? 2 : 0;
  });
}
