/**
 * scripts/serve.mjs bounds each worker's heap (LEXGOLD_SERVER_HEAP_MB, default 512: #39, the server's
 * process tree at a human pace), takes another bound or none (0), and refuses a setting it cannot read.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../../bench/lib/server";
import { killServed, serveWith } from "../../support/serve-process";

const HANDLER = path.join(ROOT, "test", "fixtures", "heap-handler.mjs");
afterAll(killServed);

/** The heap limit (MB) a worker answers with. */
async function workerHeap(env: Record<string, string>): Promise<number> {
  const served = await serveWith(HANDLER, { LEXGOLD_WORKERS: "1", ...env });
  const mb = Number(await (await fetch(`${served.base}/heap`)).text());
  killServed();
  return mb;
}

describe("the server processes' heap", () => {
  it("is bounded at 512 MB unless told otherwise", async () => {
    // V8 adds its young generation to the old space's limit: within a few tens of MB of it.
    expect(await workerHeap({ LEXGOLD_SERVER_HEAP_MB: "" })).toBeGreaterThanOrEqual(512);
    expect(await workerHeap({ LEXGOLD_SERVER_HEAP_MB: "" })).toBeLessThan(600);
    const bounded = await workerHeap({ LEXGOLD_SERVER_HEAP_MB: "300" });
    expect(bounded).toBeGreaterThanOrEqual(300);
    expect(bounded).toBeLessThan(400);
    // 0: V8's own limit, well above 512 on any machine these run on.
    expect(await workerHeap({ LEXGOLD_SERVER_HEAP_MB: "0" })).toBeGreaterThan(700);
  });

  it("refuses a setting it cannot read, naming it", () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, "scripts", "serve.mjs"), "-p", "1"], {
      env: { ...process.env, LEXGOLD_SERVER_HEAP_MB: "lots", LEXGOLD_SERVE_HANDLER: HANDLER },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/LEXGOLD_SERVER_HEAP_MB must be a whole number of MB, at least 128 \(or 0: no bound of its own\), not "lots"/);
  });
});
