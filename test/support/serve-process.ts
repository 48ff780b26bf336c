/**
 * scripts/serve.mjs, started by a test with a request handler of its own (LEXGOLD_SERVE_HANDLER)
 * instead of Next's: the primary and its workers as `lexgold start` runs them, without a build.
 * The handler runs in each worker's Next thread (scripts/next-thread.mjs), which in Node 20 does not
 * take the primary's --import tsx along: a handler that reads .ts registers tsx itself.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { freePort, ROOT } from "../../bench/lib/server";

export interface Served {
  child: ChildProcess;
  base: string;
  output: () => string;
}

const started: ChildProcess[] = [];

export async function serveWith(handler: string, env: Record<string, string>): Promise<Served> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "serve.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, LEXGOLD_SERVE_HANDLER: handler, LEXGOLD_WARM: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  started.push(child);
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  const up = async () => {
    try {
      await (await fetch(`${base}/up`, { signal: AbortSignal.timeout(3000) })).text();
      return true;
    } catch {
      return false;
    }
  };
  await until(up, () => out);
  return { child, base, output: () => out };
}

/** Kill what serveWith started and still runs (the whole process group). */
export function killServed(): void {
  for (const child of started.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // gone
    }
  }
}

/** Wait until `ok`; the bound only catches a hang. */
export async function until(ok: () => Promise<boolean> | boolean, said: () => string, guardMs = 60_000): Promise<void> {
  const end = Date.now() + guardMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not so after ${guardMs / 1000} s:\n${said()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
