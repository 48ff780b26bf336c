import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { CliError, dbOption, run } from "./util";

function withoutInitPassword(env: Record<string, string>): Record<string, string> {
  const { LEXGOLD_INIT_PASSWORD: _p, LEXGOLD_INIT_PASSWORD_FILE: _f, ...rest } = env;
  return rest;
}

/** `run` for an async call: data-access refusals become one-line CLI errors. */
async function runAsync<T>(f: () => Promise<T>): Promise<T> {
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
      .command("start")
      .option("-p, --port <port>", "port to listen on (default: $PORT or 3000)")
      .option("-H, --host <address>", "address to listen on (default: $LEXGOLD_HOST or 127.0.0.1; 0.0.0.0 for every interface)")
      .description(
        "serve the production build for a study (`npm start`): refuses, naming what is missing, without a build, a database with an account (lexgold init), " +
          "a session secret, or the public URL (NEXTAUTH_URL or LEXGOLD_PUBLIC_URL) when listening beyond this machine, or a folder it must write in is not writable; never loads demo data. " +
          "On a database without accounts, LEXGOLD_INIT_USER with LEXGOLD_INIT_PASSWORD_FILE (or LEXGOLD_INIT_PASSWORD) creates the first coordinator as init does; " +
          "before migrating a database it backs it up (LEXGOLD_BACKUP_DIR, else backups/ beside it)",
      ),
  ).action(async (opts: { db?: string; port?: string; host?: string }) => {
    const { planStart } = await import("../../lib/server/ops/deploy");
    const { SYSTEM } = await import("../../lib/server/kernel/actor");
    const { projectRoot, resolveDbPath } = await import("../../db/client");
    const { environment, setting } = await import("../../lib/config");
    const portText = opts.port ?? setting("PORT");
    const port = Number(portText);
    if (!/^\d+$/.test(portText) || port < 1 || port > 65535) throw new CliError(`--port must be a port number (1-65535), not "${portText}"`);
    const host = opts.host ?? setting("LEXGOLD_HOST");
    const dbFile = resolveDbPath(opts.db);
    const prep = await import("../../lib/server/ops/start-prep");
    // Folders first: a volume this user cannot write is said plainly, before anything is created.
    const unwritable = run(() => prep.writableProblems(SYSTEM, { dbFile }));
    if (unwritable.length > 0) throw new CliError(`cannot start:\n${unwritable.map((p) => `  - ${p}`).join("\n")}`);
    mkdirSync(tmpdir(), { recursive: true, mode: 0o700 });
    const init = run(() => prep.initFromEnvironment(SYSTEM, { dbFile }));
    if (init.done === "created") console.log(`lexgold: created ${init.report.dbFile} with the coordinator "${init.report.user.name}" (LEXGOLD_INIT_USER)`);
    const backup = await runAsync(() => prep.backupBeforeMigration(SYSTEM, { dbFile }));
    if (backup) console.log(`lexgold: ${backup.pending.length} migration${backup.pending.length === 1 ? "" : "s"} to run (${backup.pending.join(", ")}): backed up first to ${backup.file}`);
    const plan = run(() => planStart(SYSTEM, { dbFile, host, port }));
    for (const w of plan.warnings) process.stderr.write(`lexgold: warning: ${w}\n`);
    if (plan.problems.length > 0) {
      throw new CliError(`cannot start:\n${plan.problems.map((p) => `  - ${p}`).join("\n")}`);
    }
    const listen = `${host.includes(":") ? `[${host}]` : host}:${port}`;
    console.log(`lexgold: database ${plan.dbFile} (${plan.accounts} account${plan.accounts === 1 ? "" : "s"}, ${plan.projects} project${plan.projects === 1 ? "" : "s"})`);
    console.log(`lexgold: session secret ${plan.secretFile ?? "from NEXTAUTH_SECRET"}`);
    console.log(`lexgold: serving ${plan.url} (listening on ${listen})`);

    const root = projectRoot();
    // Next's handler in one worker process per core, up to 2 (LEXGOLD_WORKERS), sharing the port (scripts/serve.mjs).
    const child = spawn(process.execPath, [path.join(root, "scripts", "serve.mjs"), "-p", String(port), "-H", host], {
      cwd: root,
      stdio: "inherit",
      env: {
        // The first account's password stays with this process: the server never needs it.
        ...withoutInitPassword(environment()),
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        LEXGOLD_ROOT: root,
        LEXGOLD_DB: plan.dbFile,
        ...(plan.secretFile ? { LEXGOLD_SECRET_FILE: plan.secretFile } : {}),
        NEXTAUTH_URL: plan.url,
      },
    });
    // systemd's stop (SIGTERM) and Ctrl-C reach the server; its exit is ours.
    for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => child.kill(signal));
    await new Promise<void>((resolve) => {
      child.on("exit", (code, signal) => {
        process.exitCode = code ?? (signal ? 128 + (({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }) as Record<string, number>)[signal] || 1 : 1);
        resolve();
      });
    });
  });
}
