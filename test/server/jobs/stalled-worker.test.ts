/**
 * No server process stays wedged (#38 item 3), through scripts/serve.mjs with a request handler
 * of the test's own (test/fixtures/spin-handler.mjs, LEXGOLD_SERVE_HANDLER) whose /spin holds the
 * event loop of the worker's Next thread (scripts/next-thread.mjs) for ever:
 *  - the primary notices that the thread's event loop has not turned for LEXGOLD_STALL_S seconds
 *    and replaces it (a new worker answers; the held one is gone), and the log names the request
 *    that was running;
 *  - SIGTERM stops the server even while a worker is held (before, the primary waited for it for ever).
 * Waits are bounded only to catch a hang; nothing here measures time.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killServed, serveWith, until } from "../../support/serve-process";

const HANDLER = path.join("test", "fixtures", "spin-handler.mjs");

afterEach(killServed);

const start = (workers: number) => serveWith(HANDLER, { LEXGOLD_WORKERS: String(workers), LEXGOLD_STALL_S: "2" });

/** The pid of the worker that answers, or null when none does within a few seconds. */
async function pidAt(base: string): Promise<number | null> {
  try {
    const r = await fetch(base, { signal: AbortSignal.timeout(3000) });
    return Number(await r.text());
  } catch {
    return null;
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

describe("a worker whose Next thread's event loop is held", () => {
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
    expect(s.output()).toMatch(new RegExp(`serve: worker ${held}: the event loop of its Next thread has not turned for 2 s; running: GET /spin\\?who=test \\(for \\d+\\.\\d s\\)`));
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
