/**
 * The request limits hold per server, not per server process (#38 item 10): with two processes
 * every limit used to double (12.8 saves a second accepted for one account against 6.5 configured),
 * for each process kept buckets of its own. Here scripts/serve.mjs runs two workers whose handler
 * (test/fixtures/limit-handler.mjs, in each worker's Next thread, asking its main thread) takes a save token of one account per request; requests over
 * new connections are handed to both workers in turn, and together they accept the configured
 * burst, not twice it. (The rate is set so low that no token comes back while the test runs.)
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killServed, serveWith, until } from "../../support/serve-process";

afterEach(killServed);

const BURST = 10;

describe("the save limit of one account, two server processes", () => {
  it("accepts the configured burst in all, from both processes together", async () => {
    const s = await serveWith(path.join("test", "fixtures", "limit-handler.mjs"), {
      LEXGOLD_WORKERS: "2",
      LEXGOLD_SAVE_RATE: `0.0001,${BURST}`,
      LEXGOLD_ADDRESS_SAVE_RATE: "off",
    });
    // Both workers listening: new connections reach each of them.
    const seen = new Set<number>();
    await until(async () => {
      const r = await fetch(`${s.base}/up`, { headers: { Connection: "close" }, signal: AbortSignal.timeout(30_000) });
      seen.add(((await r.json()) as { pid: number }).pid);
      return seen.size === 2;
    }, s.output);
    const answers: Array<{ ok: boolean; pid: number }> = [];
    for (let i = 0; i < 4 * BURST; i++) {
      const r = await fetch(`${s.base}/save`, { headers: { Connection: "close" }, signal: AbortSignal.timeout(30_000) });
      answers.push((await r.json()) as { ok: boolean; pid: number });
    }
    // Both processes served (the cluster hands new connections to each in turn).
    expect(new Set(answers.map((a) => a.pid)).size).toBe(2);
    expect(answers.filter((a) => a.ok).length).toBe(BURST);
  });
});
