/**
 * The save's route in the production server (#43 item 1), on a loopback server made as
 * scripts/serve.mjs makes its own — `stampRequest(req); if (isSaveRequest(req)) return serveSave(…)`,
 * everything else to "Next" (here a stand-in that says what reached it) — with the session read from
 * the cookie as lib/serve reads it:
 *  - the save's route is exactly POST /api/projects/<digits>/responses/<digits>: a trailing slash,
 *    another method and other paths go on to Next;
 *  - the limit is checked once per save (the route's limitSave); while the wait its last refusal
 *    gave is not over, the server answers 429 at once, before the origin, the session or the body;
 *    a client that sends again without waiting gets its next refusal late;
 *  - a token this process never decoded is never believed.
 * Buckets on a fake clock.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import { encodeSessionToken, sessionTokenOf } from "../../lib/auth/jwt";
import { knownUserId, parseCookies, sessionClaims } from "../../lib/auth/session-token";
import { stampRequest } from "../../lib/net/trusted-proxy";
import { isSaveRequest } from "../../lib/server/annotate/save-route";
import { serveSave, setRefusalHold } from "../../lib/server/annotate/save-request";
import { resetRateLimits } from "../../lib/server/kernel/rate-limit";
import type { Actor } from "../../lib/server/kernel/actor";
import { type World, world } from "./world";

const SECRET = "test-secret-for-the-save-gate-tests-0123456789";
const ORIGIN = "http://lexgold.test:3000";
const ENV = ["NEXTAUTH_SECRET", "NEXTAUTH_URL", "LEXGOLD_SAVE_RATE", "LEXGOLD_ADDRESS_SAVE_RATE", "LEXGOLD_TRUSTED_PROXY"] as const;
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
let clock = { t: 0 };
let server: http.Server;
let base = "";
let w: World;
/** What reached "Next". */
let reached: string[] = [];
/** Sessions whose actor was asked for. */
let asked = 0;

beforeAll(async () => {
  process.env.NEXTAUTH_SECRET = SECRET;
  server = http.createServer((req, res) => {
    stampRequest(req);
    if (isSaveRequest(req)) {
      return void serveSave(req, res, {
        db: () => w.db as Db,
        // As lib/serve reads it; the user's row comes from the test's world.
        session: (r) => {
          const token = sessionTokenOf(parseCookies(r.headers.cookie));
          return {
            userId: knownUserId(token),
            actor: async () => {
              asked++;
              const claims = await sessionClaims(token);
              return (claims && claims.uid === w.ann.userId ? w.ann : null) as Actor;
            },
          };
        },
        headers: { "X-Content-Type-Options": "nosniff" },
      });
    }
    reached.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetRateLimits();
});
beforeEach(() => {
  process.env.NEXTAUTH_URL = ORIGIN;
  delete process.env.LEXGOLD_TRUSTED_PROXY;
  process.env.LEXGOLD_SAVE_RATE = "1,2";
  process.env.LEXGOLD_ADDRESS_SAVE_RATE = "off";
  clock = { t: 0 };
  resetRateLimits(() => clock.t);
  reached = [];
  asked = 0;
  w = world();
});
afterEach(() => resetRateLimits());

async function post(path: string, token: string | null, o: { origin?: string; body?: unknown } = {}) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", origin: o.origin ?? ORIGIN, ...(token ? { cookie: `other=1; next-auth.session-token=${token}` } : {}) },
    body: JSON.stringify(o.body ?? { response: { kind: "NIL" }, expectedRevision: 0 }),
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as { ok: boolean; message?: string; retryAfterMs?: number } };
}

const tokenOf = (uid: number) => encodeSessionToken({ token: { uid, sv: 0, auth_time: Math.floor(Date.now() / 1000) }, secret: SECRET });

describe("the save's route", () => {
  it("is exactly POST /api/projects/<digits>/responses/<digits>; the rest goes on to Next", async () => {
    expect((await post(`/api/projects/${w.p.id}/responses/${w.ref.p2}`, null)).status).toBe(401);
    expect((await post(`/api/projects/${w.p.id}/responses/${w.ref.p2}?x=1`, null)).status).toBe(401);
    expect(reached).toEqual([]);
    expect((await post("/api/projects/1/responses/2/", null)).status).toBe(200);
    expect((await fetch(`${base}/api/projects/1/responses/2`)).status).toBe(200);
    expect((await post("/api/projects/1/responses", null)).status).toBe(200);
    expect((await post("/api/projects/x/responses/2", null)).status).toBe(200);
    expect(reached).toEqual(["POST /api/projects/1/responses/2/", "GET /api/projects/1/responses/2", "POST /api/projects/1/responses", "POST /api/projects/x/responses/2"]);
  });
});

describe("the early refusal", () => {
  it("answers 429 at once while the account's last refusal holds, before the origin, the session or the body", async () => {
    const token = await tokenOf(w.ann.userId);
    const path = `/api/projects/${w.p.id}/responses/${w.ref.p2}`;
    expect((await post(path, token)).status).toBe(200);
    expect((await post(path, token, { body: { response: { kind: "NIL" }, expectedRevision: 1 } })).status).toBe(200);
    // The bucket (2) is empty: the save route's one check refuses.
    const refused = await post(path, token, { body: { response: { kind: "NIL" }, expectedRevision: 2 } });
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe("1");
    expect(refused.body).toMatchObject({ ok: false, retryAfterMs: 1000 });
    expect(refused.body.message).toMatch(/too many saves/);
    // While that wait holds: 429 at once, even for a save from another origin (not looked at), and its session is not asked for.
    const before = asked;
    expect((await post(path, token, { origin: "https://elsewhere.example" })).status).toBe(429);
    expect(asked).toBe(before);
    // A second later a token is back: the save is served (and checked) again.
    clock.t += 1000;
    expect((await post(path, token, { body: { response: { kind: "NIL" }, expectedRevision: 2 } })).status).toBe(200);
    expect(w.db.$client.prepare("select revision from responses where instance_ref = ? and user_id = ?").get(w.ref.p2, w.ann.userId)).toEqual({ revision: 3 });
  });

  it("a client that sends again at once, ignoring Retry-After, gets its next refusal late", async () => {
    process.env.LEXGOLD_SAVE_RATE = "1,1";
    resetRateLimits(() => clock.t);
    const holds: Array<() => void> = [];
    setRefusalHold((send) => void holds.push(send));
    try {
      const token = await tokenOf(w.ann.userId);
      const path = `/api/projects/${w.p.id}/responses/${w.ref.p2}`;
      expect((await post(path, token)).status).toBe(200);
      // The route's refusal, then the first early one, go at once.
      expect((await post(path, token)).status).toBe(429);
      expect((await post(path, token)).status).toBe(429);
      expect(holds).toHaveLength(0);
      // Sent again at once: held back until the hold lets it go.
      let answered = false;
      const again = post(path, token).then((r) => {
        answered = true;
        return r;
      });
      await expect.poll(() => holds.length).toBe(1);
      expect(answered).toBe(false);
      holds.shift()!();
      const r = await again;
      expect(r.status).toBe(429);
      expect(r.retryAfter).toBe("1");
    } finally {
      setRefusalHold(null);
    }
  });

  it("never believes a token this process did not decode", async () => {
    const forged = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..bm90.YS10b2tlbg.dGFn";
    expect(knownUserId(forged)).toBeNull();
    expect(await sessionClaims(forged)).toBeNull();
    expect(knownUserId(forged)).toBeNull();
    const foreign = await encodeSessionToken({ token: { uid: 7, sv: 0 }, secret: "another-secret-entirely-0123456789-abcdef" });
    expect(await sessionClaims(foreign)).toBeNull();
    expect(knownUserId(foreign)).toBeNull();
    const good = await tokenOf(7);
    expect(knownUserId(good)).toBeNull();
    expect(await sessionClaims(good)).toEqual({ uid: 7, sv: 0 });
    expect(knownUserId(good)).toBe(7);
  });
});

describe("the Cookie header, read as Next reads it", () => {
  it("splits at '; ', percent-decodes values, drops what does not decode, keeps a repeated name's last value", () => {
    expect(parseCookies("a=1; next-auth.session-token=x%2Ey;b; a=2; c=%E0%A4%A")).toEqual([
      { name: "a", value: "2" },
      { name: "next-auth.session-token", value: "x.y" },
      { name: "b", value: "true" },
    ]);
    expect(parseCookies(undefined)).toEqual([]);
  });
});
