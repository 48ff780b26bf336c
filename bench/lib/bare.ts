/**
 * The bare route's phase of the load run (lib/server/ops/bench-bare.ts): as many connections as
 * annotators, each POSTing a save-sized JSON body as fast as answered. What Next and one SQLite
 * transaction cost on this machine with nothing of lexgold's in between: saves per second as a
 * share of it carries across machines.
 */
import autocannon from "autocannon";

export interface BareFigures {
  requestsPerSec: number;
  answered: number;
  non2xx: number;
  errors: number;
  p50Ms: number;
  p99Ms: number;
  seconds: number;
}

/**
 * `path`: /api/bench/bare (static), or /api/bench/bare/P/I (shaped like the save's path) with
 * `cookie` a session's: that variant checks the session as the save does.
 */
export async function runBare(base: string, connections: number, durationSec: number, path = "/api/bench/bare", cookie?: string): Promise<BareFigures> {
  const body = JSON.stringify({
    response: { kind: "substitutes", substitutes: ["qa1b2c3a1n1x", "qa1b2c3a1n1y", ""], multiword: false, phrase: "" },
    expectedRevision: 0,
    activeMs: 9000,
  });
  const t0 = performance.now();
  const r = await autocannon({
    url: base,
    connections,
    duration: durationSec,
    timeout: 10,
    requests: [{ method: "POST", path, headers: { "Content-Type": "application/json", Accept: "application/json", ...(cookie ? { Cookie: cookie } : {}) }, body }],
  });
  const seconds = (performance.now() - t0) / 1000;
  const answered = r.requests.total;
  return {
    requestsPerSec: (answered - r.non2xx) / seconds,
    answered,
    non2xx: r.non2xx,
    errors: r.errors,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    seconds,
  };
}
