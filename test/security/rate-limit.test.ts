/**
 * Finding 9: one annotator with 16 connections pushed another annotator's save
 * p99 from 73 ms to 2.2 s, for nothing limited how fast one account may save or
 * ask for pages. Now (lib/server/kernel/rate-limit.ts, on a fake clock here):
 *  - one account's burst of saves past its bucket is answered 429 with
 *    Retry-After before anything is read or stored, while another annotator's
 *    saves, interleaved with the flood, all go through;
 *  - the account is the session's user (several sessions of one account share a
 *    bucket); the address is the socket's, counted over every account;
 *  - page renders through proxy.ts: the same, keyed by the user id in the
 *    decrypted session token, and by address for everyone.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import { encodeSessionToken } from "../../lib/auth/jwt";
import { PEER_HEADER, stampRequest } from "../../lib/net/trusted-proxy";
import { isSaveRequest } from "../../lib/server/annotate/save-route";
import type { UserActor } from "../../lib/server/kernel/actor";
import { LIMIT_SETTINGS, resetRateLimits } from "../../lib/server/kernel/rate-limit";
import { addMember } from "../../lib/server/people/users";
import { actorFor } from "../support/db";
import { type World, world } from "./world";

// Each request carries its own actor, as each would carry its own cookie.
const als = vi.hoisted(() => ({ store: null as unknown as AsyncLocalStorage<{ actor: unknown }>, db: null as unknown }));
vi.mock("@/lib/auth/session", () => ({ getActor: async () => als.store.getStore()?.actor ?? null }));
vi.mock("@/lib/db", () => ({ getDb: () => als.db }));
als.store = new AsyncLocalStorage();

const route = await import("../../app/api/projects/[projectId]/responses/[instanceRef]/route");
const { saveFlagAction } = await import("../../app/annotate/flags/actions");
const { proxy } = await import("../../proxy");
const { refuseApiRequest } = await import("../../lib/serve");

const ORIGIN = "http://lexgold.test:3000";
const SECRET = "test-secret-for-the-rate-limit-tests-0123456789";
const ENV = ["NEXTAUTH_URL", "NEXTAUTH_SECRET", "LEXGOLD_TRUSTED_PROXY", ...Object.values(LIMIT_SETTINGS).map((s) => s.env)];
const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
let clock = { t: 0 };

beforeEach(() => {
  process.env.NEXTAUTH_URL = ORIGIN;
  process.env.NEXTAUTH_SECRET = SECRET;
  delete process.env.LEXGOLD_TRUSTED_PROXY;
  for (const s of Object.values(LIMIT_SETTINGS)) delete process.env[s.env];
  clock = { t: 0 };
  // Time stands still unless a test moves it: the counts below do not depend on how busy the machine is.
  resetRateLimits(() => clock.t);
});
afterEach(() => {
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetRateLimits();
});

const VIVID = { kind: "substitutes", substitutes: ["vivid", "", ""], multiword: false, phrase: "" };

function save(w: World, actor: UserActor | null, ref: number, expectedRevision: number, address = "127.0.0.1") {
  als.db = w.db as Db;
  return als.store.run({ actor }, async () => {
    const req = new Request(`${ORIGIN}/api/projects/${w.p.id}/responses/${ref}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN, [PEER_HEADER]: address },
      body: JSON.stringify({ response: VIVID, expectedRevision }),
    });
    const res = await route.POST(req, { params: Promise.resolve({ projectId: String(w.p.id), instanceRef: String(ref) }) });
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as { ok: boolean; revision?: number; message?: string; retryAfterMs?: number } };
  });
}

/** p's third instance (world()'s World type names only the ones other tests use). */
const p3 = (w: World) => (w.ref as Record<string, number>).p3;

/** A second annotator of project p. */
function withSecondAnnotator(w: World): UserActor {
  const ann2 = actorFor(w.db, "ann2", "annotator");
  addMember(w.db, w.coord, w.p.id, "ann2");
  return ann2;
}

const historyOf = (w: World, userId: number) =>
  (w.db.$client.prepare("select count(*) as n from response_history h join responses r on r.id = h.response_id where r.user_id = ?").get(userId) as { n: number } | undefined)?.n;

describe("a flood of saves from one annotator", () => {
  it("gets 429 past its burst while another annotator's saves, in among it, all go through", async () => {
    const w = world();
    const flooder = w.ann;
    const other = withSecondAnnotator(w);
    const burst = LIMIT_SETTINGS.save.fallback.burst;
    const flood = burst + 34;
    // 16 connections' worth and more, all at once; the other annotator's three saves start in the middle.
    const floodSaves = Array.from({ length: flood }, (_, i) => save(w, flooder, w.ref.p2, i, "127.0.0.2"));
    const otherSaves = [w.ref.p1, w.ref.p2, w.ref.p1].map((ref, i) => save(w, other, ref, ref === w.ref.p1 && i === 2 ? 1 : 0));
    const more = Array.from({ length: 16 }, (_, i) => save(w, flooder, w.ref.p2, flood + i, "127.0.0.2"));
    const [f, o, m] = await Promise.all([Promise.all(floodSaves), Promise.all(otherSaves), Promise.all(more)]);

    expect(o.map((r) => r.status)).toEqual([200, 200, 200]);
    const all = [...f, ...m];
    const refused = all.filter((r) => r.status === 429);
    expect(refused).toHaveLength(all.length - burst);
    for (const r of refused) {
      expect(r.retryAfter).toBe("1");
      expect(r.body).toMatchObject({ ok: false, retryAfterMs: 1000 });
      expect(r.body.message).toMatch(/too many saves/);
    }
    // The saves let through were handled as usual (one per revision, in order: the first wins, the rest are stale).
    const through = all.filter((r) => r.status !== 429);
    expect(through).toHaveLength(burst);
    expect(through.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    // Nothing refused was stored: one history row per acknowledged save.
    expect(historyOf(w, flooder.userId)).toBe(1 + through.filter((r) => r.status === 200).length); // world() saved p1 once
    expect(historyOf(w, other.userId)).toBe(3);

    // The bucket refills at the rate: a fifth of a second later, one more save.
    clock.t += 1000 / LIMIT_SETTINGS.save.fallback.rate;
    expect((await save(w, flooder, p3(w), 0, "127.0.0.2")).status).toBe(200);
    expect((await save(w, flooder, p3(w), 1, "127.0.0.2")).status).toBe(429);
    // The other annotator, from the same address as the flood, still saves: the flood's refusals took nothing from the address.
    expect((await save(w, other, p3(w), 0, "127.0.0.2")).status).toBe(200);
  });

  it("the flag-and-note action draws on the same bucket", async () => {
    const w = world();
    als.db = w.db as Db;
    const burst = LIMIT_SETTINGS.save.fallback.burst;
    for (let i = 0; i < burst; i++) expect((await save(w, w.ann, w.ref.p2, i)).status).not.toBe(429);
    const r = await als.store.run({ actor: w.ann }, () => saveFlagAction(w.p.id, w.ref.p2, { flag: "unsure", note: "" }));
    expect(r).toMatchObject({ ok: false, retryAfterMs: 1000 });
    const other = withSecondAnnotator(w);
    const r2 = await als.store.run({ actor: other }, () => saveFlagAction(w.p.id, w.ref.p2, { flag: "unsure", note: "" }));
    expect(r2.ok).toBe(true);
  });

  it("many accounts (or none) from one address share the address's bucket; other addresses are untouched", async () => {
    process.env.LEXGOLD_ADDRESS_SAVE_RATE = "1,4";
    resetRateLimits(() => clock.t);
    const w = world();
    const other = withSecondAnnotator(w);
    const statuses = [];
    for (const [actor, ref] of [[w.ann, w.ref.p2], [other, w.ref.p1], [w.ann, p3(w)], [other, w.ref.p2]] as const) statuses.push((await save(w, actor, ref, 0, "2001:db8::1")).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const refused = await save(w, other, p3(w), 0, "2001:db8::2"); // the same /64
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe("1");
    // Signed out, from the same address: a bucket of its own (#38 item 11), so 401, not 429.
    expect((await save(w, null, p3(w), 0, "2001:db8::3")).status).toBe(401);
    expect((await save(w, other, p3(w), 0, "2001:db8:0:1::1")).status).toBe(200);
    expect((await save(w, null, p3(w), 0, "198.51.100.7")).status).toBe(401);
  });

  it("signed-out saves from an address spend a bucket of their own, never its annotators' (#38 item 11)", async () => {
    process.env.LEXGOLD_ADDRESS_SAVE_RATE = "1,4";
    resetRateLimits(() => clock.t);
    const w = world();
    // Strangers behind the lab's address: their requests are refused, 401 until their own bucket is empty, then 429.
    const strangers = [];
    for (let i = 0; i < 6; i++) strangers.push((await save(w, null, w.ref.p2, 0, "192.0.2.9")).status);
    expect(strangers).toEqual([401, 401, 401, 401, 429, 429]);
    // The annotator behind the same address still has the whole of the address's bucket.
    const own = [];
    for (const [ref, rev] of [[w.ref.p2, 0], [w.ref.p2, 1], [p3(w), 0], [w.ref.p2, 2]] as const) own.push((await save(w, w.ann, ref, rev, "192.0.2.9")).status);
    expect(own).toEqual([200, 200, 200, 200]);
  });
});

describe("a flood of page requests (proxy.ts)", () => {
  async function cookieFor(uid: number) {
    return `next-auth.session-token=${await encodeSessionToken({ token: { uid, sv: 0 }, secret: SECRET })}`;
  }
  function page(path: string, opts: { cookie?: string; address: string; headers?: Record<string, string> }) {
    return proxy(
      new NextRequest(`${ORIGIN}${path}`, { headers: { [PEER_HEADER]: opts.address, ...(opts.cookie ? { cookie: opts.cookie } : {}), ...opts.headers } }),
    );
  }

  it("one session past its burst gets 429 and a page that reloads itself; another session's pages render", async () => {
    const a = await cookieFor(11);
    const b = await cookieFor(12);
    const burst = LIMIT_SETTINGS.page.fallback.burst;
    const statuses: number[] = [];
    // Different addresses for each request: the session's bucket is the one that holds.
    for (let i = 0; i < burst + 5; i++) statuses.push((await page("/annotate/1/5", { cookie: a, address: `10.1.${i >> 8}.${i & 255}` })).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(burst);
    expect(statuses.slice(burst)).toEqual([429, 429, 429, 429, 429]);

    const refused = await page("/annotate/1/5", { cookie: a, address: "10.9.9.9" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    const html = await refused.text();
    expect(html).toMatch(/<meta http-equiv="refresh" content="1">/);
    expect(html).toMatch(/Nothing you saved is lost/);
    // A client-side navigation or server action gets plain text (the router then loads the page itself).
    const action = await page("/annotate/1/5", { cookie: a, address: "10.9.9.9", headers: { "next-action": "abc" } });
    expect(action.status).toBe(429);
    expect(action.headers.get("content-type")).toMatch(/text\/plain/);

    const other = await page("/annotate/1/5", { cookie: b, address: "10.9.9.9" });
    expect(other.status).toBe(200);
    expect(other.headers.get("content-security-policy")).toMatch(/nonce-/);
  });

  it("a forged or missing token counts only against the address's signed-out bucket", async () => {
    process.env.LEXGOLD_ADDRESS_PAGE_RATE = "1,3";
    resetRateLimits(() => clock.t);
    const forged = "next-auth.session-token=not-a-token";
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await page("/signin", { cookie: i % 2 ? forged : undefined, address: "192.0.2.1" })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await page("/signin", { address: "192.0.2.2" })).status).toBe(200);
    // A signed-in user behind that address is not held up by the strangers (#38 item 11).
    expect((await page("/projects", { cookie: await cookieFor(21), address: "192.0.2.1" })).status).toBe(200);
    clock.t += 1000;
    expect((await page("/signin", { address: "192.0.2.1" })).status).toBe(200);
  });

});

describe("a flood of /api requests (the production server, lib/serve: #38 item 4)", () => {
  /** A loopback server routed as scripts/serve.mjs routes: the save to its own limit, every other /api request through refuseApiRequest. */
  async function served<T>(run: (base: string) => Promise<T>): Promise<T> {
    const server = http.createServer((req, res) => {
      stampRequest(req);
      const reply = () => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end("{}");
      };
      if (isSaveRequest(req) || !req.url?.startsWith("/api/")) return reply();
      void refuseApiRequest(req, res).then((refused) => refused || reply());
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      return await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    } finally {
      await new Promise((r) => server.close(r));
    }
  }
  const cookieFor = async (uid: number) => `next-auth.session-token=${await encodeSessionToken({ token: { uid, sv: 0, auth_time: Math.floor(Date.now() / 1000) }, secret: SECRET })}`;

  it("every /api request but the save takes a request token; past it, 429 JSON with Retry-After", async () => {
    process.env.LEXGOLD_PAGE_RATE = "1,2";
    resetRateLimits(() => clock.t);
    const a = await cookieFor(31);
    await served(async (base) => {
      const get = (path: string, cookie?: string) => fetch(base + path, { headers: cookie ? { cookie } : {} });
      const statuses = [];
      for (const path of ["/api/projects/1/gold?file=gold", "/api/auth/session", "/api/projects/1/flags"]) statuses.push((await get(path, a)).status);
      expect(statuses).toEqual([200, 200, 429]);
      const refused = await get("/api/projects/1/gold?file=gold", a);
      expect(refused.headers.get("content-type")).toBe("application/json");
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(((await refused.json()) as { ok: boolean }).ok).toBe(false);
      // The save is not counted here: it has its own bucket.
      expect((await fetch(`${base}/api/projects/1/responses/2`, { method: "POST", headers: { cookie: a } })).status).toBe(200);
      // Another account, and signed-out requests (a bucket of their own), go on.
      expect((await get("/api/projects/1/gold", await cookieFor(32))).status).toBe(200);
      expect((await get("/api/auth/csrf")).status).toBe(200);
      clock.t += 1000;
      expect((await get("/api/projects/1/gold?file=gold", a)).status).toBe(200);
    });
  });
});
