/**
 * The production server for the load and crash runs: build into a dist dir of
 * its own when the sources are newer than the build, then `next start` on a
 * spare port against a given database, as `lexgold start` serves it
 * (scripts/serve.mjs: a primary and its worker processes, in a process group of
 * their own, so that a kill reaches every one of them at once).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
/** What `lexgold start` runs: Next's handler in worker processes sharing the port (scripts/serve.mjs). */
const SERVE = path.join(ROOT, "scripts", "serve.mjs");

/** The newest modification time under the given paths (files or directories). */
function newestMtime(paths: string[]): number {
  let newest = 0;
  const walk = (p: string) => {
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    else newest = Math.max(newest, st.mtimeMs);
  };
  paths.forEach(walk);
  return newest;
}

/** Build into distDir unless its build is newer than app/, lib/, db/, drizzle/, proxy.ts, instrumentation.ts and the config. Returns whether it built. */
export function buildIfNeeded(distDir: string, force = false, log: (s: string) => void = console.log): boolean {
  const buildId = path.join(ROOT, distDir, "BUILD_ID");
  const sources = ["app", "lib", "db", "drizzle", "next.config.ts", "proxy.ts", "instrumentation.ts", "package-lock.json"].map((p) => path.join(ROOT, p));
  const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  if (!force && built > 0 && built >= newestMtime(sources)) {
    log(`using the build in ${distDir} (newer than the sources)`);
    return false;
  }
  log(`building into ${distDir} …`);
  const t = Date.now();
  const r = spawnSync(process.execPath, [NEXT_BIN, "build"], {
    cwd: ROOT,
    env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" },
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`next build failed:\n${(r.stdout ?? "") + (r.stderr ?? "")}`.slice(-4000));
  log(`built in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  return true;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * The request limits (lib/server/kernel/rate-limit.ts) off, unless the caller's environment sets them:
 * the runs drive the server harder than any person, every account from one address. A run that
 * measures the limits passes them back in `env` ("" for a limit's default).
 */
const LIMITS_OFF: Record<string, string> = Object.fromEntries(
  ["LEXGOLD_SAVE_RATE", "LEXGOLD_ADDRESS_SAVE_RATE", "LEXGOLD_PAGE_RATE", "LEXGOLD_ADDRESS_PAGE_RATE"].map((k) => [k, process.env[k] ?? "off"]),
);

export interface ServerOptions {
  distDir: string;
  dbFile: string;
  secretFile: string;
  port: number;
  /** Extra environment for the server. */
  env?: Record<string, string>;
  /** Extra node options for the server (e.g. --cpu-prof, which NODE_OPTIONS does not take). */
  nodeArgs?: string[];
}

export class Server {
  readonly base: string;
  private proc: ChildProcess | null = null;
  private output: string[] = [];
  private exited: Promise<void> = Promise.resolve();

  constructor(readonly opts: ServerOptions) {
    this.base = `http://127.0.0.1:${opts.port}`;
  }

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  /** The last lines the server printed (for error reports). */
  tail(n = 30): string {
    return this.output.slice(-n).join("");
  }

  /** Start the production server as `lexgold start` does (scripts/serve.mjs) and wait until /signin answers. */
  async start(timeoutMs = 60_000): Promise<number> {
    if (this.proc) throw new Error("server already running");
    const t0 = performance.now();
    const proc = spawn(process.execPath, [...(this.opts.nodeArgs ?? []), SERVE, "-p", String(this.opts.port), "-H", "127.0.0.1"], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        NEXT_DIST_DIR: this.opts.distDir,
        LEXGOLD_DB: this.opts.dbFile,
        LEXGOLD_SECRET_FILE: this.opts.secretFile,
        NEXTAUTH_URL: this.base,
        ...LIMITS_OFF,
        ...this.opts.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    this.proc = proc;
    const keep = (b: Buffer) => {
      this.output.push(b.toString());
      if (this.output.length > 200) this.output.splice(0, this.output.length - 200);
    };
    proc.stdout!.on("data", keep);
    proc.stderr!.on("data", keep);
    this.exited = new Promise((resolve) => proc.once("exit", () => resolve()));
    // The server runs in a process group of its own (so a kill reaches its workers), which
    // Ctrl-C at the terminal no longer reaches: take it down when this process goes.
    const killGroup = () => {
      try {
        process.kill(-proc.pid!, "SIGKILL");
      } catch {
        // already gone
      }
    };
    const onSignal = (signal: NodeJS.Signals) => {
      killGroup();
      process.exit(signal === "SIGINT" ? 130 : 143);
    };
    process.once("exit", killGroup);
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    proc.once("exit", () => {
      process.off("exit", killGroup);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    });
    proc.once("exit", () => {
      if (this.proc === proc) this.proc = null;
    });
    while (performance.now() - t0 < timeoutMs) {
      if (!this.proc) throw new Error(`the server exited while starting:\n${this.tail()}`);
      try {
        const r = await fetch(`${this.base}/signin`, { signal: AbortSignal.timeout(5000) });
        await r.body?.cancel();
        if (r.ok) return performance.now() - t0;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await this.kill();
    throw new Error(`the server did not answer within ${timeoutMs / 1000} s:\n${this.tail()}`);
  }

  /** SIGKILL: no chance to finish a request, close the database or flush anything. */
  async kill(): Promise<void> {
    const p = this.proc;
    if (!p) return;
    // The whole group: the workers die with the primary, mid-request, as in a power cut.
    try {
      process.kill(-p.pid!, "SIGKILL");
    } catch {
      p.kill("SIGKILL");
    }
    await this.exited;
  }

  /** A polite stop (SIGTERM), then SIGKILL after a grace period. */
  async stop(graceMs = 5000): Promise<void> {
    const p = this.proc;
    if (!p) return;
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-p.pid!, signal);
      } catch {
        // the group is gone
      }
    };
    // The primary forwards SIGTERM to its workers and exits after them.
    p.kill("SIGTERM");
    const timer = setTimeout(() => group("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
    group("SIGKILL");
  }
}
