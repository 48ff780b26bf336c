/**
 * lib/auth/save-gate.ts: a save whose bucket is empty is answered 429 by the
 * HTTP server before the app (here a stand-in handler that takes tokens as the
 * save route does) sees it; everything else goes on. A real server on loopback,
 * the buckets on a fake clock.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { encodeSessionToken } from "../../lib/auth/jwt";
import { limitSave, resetRateLimits } from "../../lib/server/kernel/rate-limit";
import { decrypting, installSaveGate, knownUser, parseCookies, setRefusalHold } from "../../lib/auth/save-gate";

const SECRET = "test-secret-for-the-save-gate-tests-0123456789";
const saved = { secret: process.env.NEXTAUTH_SECRET, save: process.env.LEXGOLD_SAVE_RATE, address: process.env.LEXGOLD_ADDRESS_SAVE_RATE };
let clock = { t: 0 };
let server: http.Server;
let base = "";
let reached: string[] = [];
/** Answers the app holds back (a slow save), to end when a test says. */
const held: Array<() => void> = [];

beforeAll(async () => {
  process.env.NEXTAUTH_SECRET = SECRET;
  installSaveGate();
  // The app: takes a token per save as the save route does, and says who it saw.
  server = http.createServer((req, res) => {
    const uid = Number(req.headers["x-test-uid"] ?? 0) || null;
    reached.push(`${req.method} ${req.url} ${uid}`);
    const v = req.method === "POST" && req.url?.startsWith("/api/projects/") ? limitSave({ userId: uid, address: null }) : { ok: true };
    const answer = () => {
      res.writeHead(v.ok ? 200 : 429, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ ok: v.ok }));
    };
    if (req.url?.endsWith("?slow")) held.push(answer);
    else answer();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  for (const [k, v] of [["NEXTAUTH_SECRET", saved.secret], ["LEXGOLD_SAVE_RATE", saved.save], ["LEXGOLD_ADDRESS_SAVE_RATE", saved.address]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetRateLimits();
});
beforeEach(() => {
  process.env.LEXGOLD_SAVE_RATE = "1,2";
  process.env.LEXGOLD_ADDRESS_SAVE_RATE = "off";
  clock = { t: 0 };
  resetRateLimits(() => clock.t);
  reached = [];
});
afterEach(() => resetRateLimits());

async function post(path: string, token: string | null, uid: number) {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-uid": String(uid), ...(token ? { cookie: `other=1; next-auth.session-token=${token}` } : {}) },
    body: JSON.stringify({ response: { kind: "NIL" }, expectedRevision: 0 }),
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as { ok: boolean; message?: string; retryAfterMs?: number } };
}

describe("the save gate", () => {
  it("refuses a known account's save once its bucket is empty, before the app sees it", async () => {
    const token = await encodeSessionToken({ token: { uid: 5, sv: 0 }, secret: SECRET });
    // First sight of the token: the app decides, and the token is decrypted meanwhile.
    expect((await post("/api/projects/1/responses/2", token, 5)).status).toBe(200);
    await decrypting(token);
    expect(knownUser(token)).toBe(5);
    expect((await post("/api/projects/1/responses/3", token, 5)).status).toBe(200);
    expect(reached).toHaveLength(2);

    const refused = await post("/api/projects/1/responses/4", token, 5);
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe("1");
    expect(refused.body).toMatchObject({ ok: false, retryAfterMs: 1000 });
    expect(refused.body.message).toMatch(/too many saves/);
    expect(reached).toHaveLength(2); // never reached the app

    // Other requests, and other accounts, go on.
    expect((await fetch(`${base}/annotate/1/4`, { headers: { cookie: `next-auth.session-token=${token}` } })).status).toBe(200);
    const other = await encodeSessionToken({ token: { uid: 6, sv: 0 }, secret: SECRET });
    expect((await post("/api/projects/1/responses/4", other, 6)).status).toBe(200);
    expect(reached).toHaveLength(4);

    // A second later the bucket has a token again: the save goes on to the app.
    clock.t += 1000;
    expect((await post("/api/projects/1/responses/4", token, 5)).status).toBe(200);
    expect(reached).toHaveLength(5);
  });

  it("lets through only as many saves at once as the account has tokens for", async () => {
    process.env.LEXGOLD_SAVE_RATE = "1,3";
    resetRateLimits(() => clock.t);
    const token = await encodeSessionToken({ token: { uid: 8, sv: 0 }, secret: SECRET });
    expect((await post("/api/projects/1/responses/2", token, 8)).status).toBe(200);
    await decrypting(token);
    // Two tokens left. A slow save passes and is held by the app (it took its token on arrival).
    const slow = post("/api/projects/1/responses/3?slow", token, 8);
    await expect.poll(() => held.length).toBe(1);
    // One token left, one save of the account in flight: the next is refused here, not by the app.
    expect((await post("/api/projects/1/responses/4", token, 8)).status).toBe(429);
    expect(reached).toHaveLength(2);
    held.shift()!();
    expect((await slow).status).toBe(200);
    // Answered: the last token is there for the next save.
    expect((await post("/api/projects/1/responses/4", token, 8)).status).toBe(200);
    expect(reached).toHaveLength(3);
  });

  it("a client that sends again at once, ignoring Retry-After, gets its next refusal late", async () => {
    process.env.LEXGOLD_SAVE_RATE = "1,1";
    resetRateLimits(() => clock.t);
    const holds: Array<() => void> = [];
    setRefusalHold((send) => void holds.push(send));
    try {
      const token = await encodeSessionToken({ token: { uid: 9, sv: 0 }, secret: SECRET });
      expect((await post("/api/projects/1/responses/2", token, 9)).status).toBe(200);
      await decrypting(token);
      // The first refusal goes at once.
      expect((await post("/api/projects/1/responses/3", token, 9)).status).toBe(429);
      expect(holds).toHaveLength(0);
      // Sent again at once: held back until the hold lets it go.
      let answered = false;
      const again = post("/api/projects/1/responses/3", token, 9).then((r) => {
        answered = true;
        return r;
      });
      await expect.poll(() => holds.length).toBe(1);
      expect(answered).toBe(false);
      holds.shift()!();
      const r = await again;
      expect(r.status).toBe(429);
      expect(r.retryAfter).toBe("1");
      expect(reached).toHaveLength(1);
    } finally {
      setRefusalHold(null);
    }
  });

  it("never believes a token it could not decrypt", async () => {
    const forged = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..bm90.YS10b2tlbg.dGFn";
    expect(knownUser(forged)).toBeNull();
    await decrypting(forged);
    expect(knownUser(forged)).toBeNull();
    const foreign = await encodeSessionToken({ token: { uid: 7, sv: 0 }, secret: "another-secret-entirely-0123456789-abcdef" });
    expect(knownUser(foreign)).toBeNull();
    await decrypting(foreign);
    expect(knownUser(foreign)).toBeNull();
  });
});

describe("the saves it lets through, served by the gate's `serve` (the production server)", () => {
  /** What `serve` was handed: the path, and the actor its resolver gave. */
  let served: Array<{ url: string; actor: unknown }> = [];
  beforeEach(() => {
    served = [];
    installSaveGate({
      serve: async (req, res, actor) => {
        served.push({ url: req.url ?? "", actor: await actor() });
        res.writeHead(201, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ ok: true }));
      },
    });
  });
  afterEach(() => installSaveGate());

  it("serves a save at the exact path, leaves a trailing slash, another method and other paths to the app", async () => {
    const forged = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..bm90.YS10b2tlbg.dGFn";
    expect((await post("/api/projects/1/responses/2", forged, 0)).status).toBe(201);
    expect((await post("/api/projects/1/responses/2?x=1", null, 0)).status).toBe(201);
    // A forged token, and none: the resolver the gate hands over names nobody.
    expect(served).toEqual([
      { url: "/api/projects/1/responses/2", actor: null },
      { url: "/api/projects/1/responses/2?x=1", actor: null },
    ]);
    expect(reached).toEqual([]);
    expect((await post("/api/projects/1/responses/2/", null, 0)).status).toBe(200);
    expect((await fetch(`${base}/api/projects/1/responses/2`)).status).toBe(200);
    expect((await post("/api/projects/1/responses", null, 0)).status).toBe(200);
    expect(reached).toEqual(["POST /api/projects/1/responses/2/ null", "GET /api/projects/1/responses/2 null", "POST /api/projects/1/responses null"]);
    expect(served).toHaveLength(2);
  });

  it("still refuses an account past its limit before serving", async () => {
    const token = await encodeSessionToken({ token: { uid: 11, sv: 0 }, secret: SECRET });
    await post("/api/projects/1/responses/2", token, 11);
    await decrypting(token);
    // The stand-in `serve` takes no token: spend the bucket (2) as the real save would.
    limitSave({ userId: 11, address: null });
    limitSave({ userId: 11, address: null });
    expect((await post("/api/projects/1/responses/3", token, 11)).status).toBe(429);
    expect(served).toHaveLength(1);
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
