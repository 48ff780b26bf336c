/**
 * No server process stays wedged (#38 item 3), through scripts/serve.mjs with a request handler
 * of the test's own (test/fixtures/spin-handler.mjs, LEXGOLD_SERVE_HANDLER) whose /spin holds the
 * worker's event loop for ever:
 *  - the primary notices that the worker's event loop has not turned for LEXGOLD_STALL_S seconds
 *    and replaces it (a new worker answers; the held one is gone), and the log names the request
 *    that was running;
 *  - SIGTERM stops the server even while a worker is held (before, the primary waited for it for ever).
 * Waits are bounded only to catch a hang; nothing here measures time.
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort, ROOT } from "../../bench/lib/server";

const HANDLER = path.join("test", "fixtures", "spin-handler.mjs");

interface Started {
  child: ChildProcess;
  base: string;
  output: () => string;
}

let running: ChildProcess | null = null;

afterEach(() => {
  if (running && running.exitCode === null && running.signalCode === null) {
    try {
      process.kill(-running.pid!, "SIGKILL");
    } catch {
      // gone
    }
  }
  running = null;
});

async function start(workers: number): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, "scripts", "serve.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...process.env, LEXGOLD_SERVE_HANDLER: HANDLER, LEXGOLD_WORKERS: String(workers), LEXGOLD_STALL_S: "2", LEXGOLD_WARM: "0" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  running = child;
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  await until(async () => (await pidAt(base)) !== null, () => out);
  return { child, base, output: () => out };
}

/** The pid of the worker that answers, or null when none does within a few seconds. */
async function pidAt(base: string): Promise<number | null> {
  try {
    const r = await fetch(base, { signal: AbortSignal.timeout(3000) });
    return Number(await r.text());
  } catch {
    return null;
  }
}

async function until(ok: () => Promise<boolean> | boolean, said: () => string, guardMs = 60_000): Promise<void> {
  const end = Date.now() + guardMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not so after ${guardMs / 1000} s:\n${said()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Send a request that holds the loop of the worker that receives it; the connection is left hanging. */
function spin(base: string): void {
  fetch(`${base}/spin?who=test`, { signal: AbortSignal.timeout(120_000) }).catch(() => {});
}

describe("a worker whose event loop is held", () => {
  it("is replaced by the primary, and the log names the request it was running", async () => {
    const s = await start(1);
    const held = (await pidAt(s.base))!;
    spin(s.base);
    // A new worker answers in its place, and the held one is gone.
    await until(async () => {
      const pid = await pidAt(s.base);
      return pid !== null && pid !== held;
    }, s.output);
    await until(() => !alive(held), s.output);
    expect(s.output()).toContain(`serve: worker ${held}: no heartbeat for 2 s`);
    expect(s.output()).toMatch(new RegExp(`serve: worker ${held}: its event loop has not turned for 2 s; running: GET /spin\\?who=test \\(for \\d+\\.\\d s\\)`));
  });

  it("does not keep the server from stopping on SIGTERM", async () => {
    const s = await start(2);
    spin(s.base);
    spin(s.base);
    // Both workers held (the cluster hands connections round the workers): nothing answers.
    await until(async () => (await pidAt(s.base)) === null, s.output);
    const exited = new Promise<number | null>((r) => s.child.once("exit", (code) => r(code)));
    s.child.kill("SIGTERM");
    await exited;
    expect(s.child.exitCode !== null || s.child.signalCode !== null).toBe(true);
  });
});
