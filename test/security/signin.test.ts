/**
 * Issue #27, through the real /api/auth route (app/api/auth/[...nextauth]/route.ts,
 * next-auth's App Router handler inside Next's request scope) over a test database:
 *  1. the device cookie goes to the account that signed in, bound to its id; a
 *     request repeating a credential field is refused; device-cookie failures
 *     count toward the ceilings per account and per address;
 *  2. a POST body over the limit is refused while it is read (Content-Length
 *     and chunked alike), before next-auth sees it;
 *  5. strangers' failures slow down their own address, never a new browser;
 *     refused attempts never extend the wait; the hard ceiling per account holds
 *     until it ages out or a coordinator or admin lifts it;
 *  7. the bcrypt gate answers 429 with Retry-After when its line is full, serves
 *     device-cookie sign-ins first, and counts IPv6 clients by /64.
 */
import { inRequestScope } from "../support/next-route";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import type { Db } from "../../db/client";
import { SYSTEM } from "../../lib/server/kernel/actor";
import {
  ACCOUNT_CEILING,
  CLIENT_LIMIT,
  DEVICE_COOKIE,
  deviceIdFor,
  FREE_FAILURES,
  liftSignInLock,
  signInLocks,
  slowDownMs,
} from "../../lib/server/people/signin";
import { sessionClaims } from "../../lib/auth/session";
import { clientKey, GateBusyError, type Priority, SignInGate, signInGate } from "../../lib/server/people/signin-gate";
import { createUser, addMember } from "../../lib/server/people/users";
import { outcomeOf, world } from "./world";

const state = vi.hoisted(() => ({ db: null as unknown }));
vi.mock("../../db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../db/client")>()),
  getDb: () => state.db,
}));

const route = await import("../../app/api/auth/[...nextauth]/route");

const BASE = "http://lexgold.test:3000";
const SECRET = "test-secret-for-the-sign-in-route-tests-0123456789";
const saved = { url: process.env.NEXTAUTH_URL, secret: process.env.NEXTAUTH_SECRET };
beforeEach(() => {
  process.env.NEXTAUTH_URL = BASE;
  process.env.NEXTAUTH_SECRET = SECRET;
});
afterEach(() => {
  for (const [k, v] of [["NEXTAUTH_URL", saved.url], ["NEXTAUTH_SECRET", saved.secret]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  vi.useRealTimers();
});

function setup() {
  const w = world();
  state.db = w.db as Db;
  return w;
}

/** A browser: its cookies, its address (as the server's socket hook stamps it). */
class Browser {
  jar = new Map<string, string>();
  constructor(public ip: string) {}

  async send(method: "GET" | "POST", action: string, init: { body?: BodyInit; headers?: Record<string, string> } = {}): Promise<Response> {
    const headers = new Headers({ "x-lexgold-peer": this.ip, ...init.headers });
    if (this.jar.size > 0) headers.set("cookie", [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const req = new NextRequest(`${BASE}/api/auth/${action}`, { method, headers, body: init.body, duplex: "half" } as ConstructorParameters<typeof NextRequest>[1]);
    const ctx = { params: Promise.resolve({ nextauth: action.split("/") }) };
    const res = await inRequestScope(req, () => (method === "GET" ? route.GET(req, ctx) : route.POST(req, ctx)));
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(";")[0];
      const i = pair.indexOf("=");
      const [name, value] = [pair.slice(0, i), pair.slice(i + 1)];
      if (value === "" || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(c)) this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }

  async csrf(): Promise<string> {
    return ((await (await this.send("GET", "csrf")).json()) as { csrfToken: string }).csrfToken;
  }

  /** POST the sign-in form as next-auth's client does, fields as given (in order, repeats and all). */
  async post(fields: Array<[string, string]>): Promise<Response> {
    const csrfToken = await this.csrf();
    const body = new URLSearchParams([...fields, ["csrfToken", csrfToken], ["json", "true"]]).toString();
    return this.send("POST", "callback/credentials", { body, headers: { "content-type": "application/x-www-form-urlencoded" } });
  }

  signIn(username: string, password: string): Promise<Response> {
    return this.post([
      ["username", username],
      ["password", password],
    ]);
  }

  signedIn(): boolean {
    return [...this.jar.keys()].some((k) => /next-auth\.session-token/.test(k));
  }

  device(): string | undefined {
    return this.jar.get(DEVICE_COOKIE);
  }

  signOutLocally(): void {
    for (const k of [...this.jar.keys()]) if (k !== DEVICE_COOKIE) this.jar.delete(k);
  }
}

const errorOf = async (res: Response) => new URL(((await res.clone().json()) as { url: string }).url).searchParams.get("error");
const failureRows = (w: { db: Db }) => w.db.$client.prepare("select key, client, device, throttled from sign_in_failures order by id").all() as Array<{ key: string; client: string; device: string | null; throttled: number }>;

describe("finding 1: the device cookie is the signed-in account's", () => {
  it("username=VICTIM&username=ME&password=MINE is refused: no session, no device cookie for anyone", async () => {
    const w = setup();
    const attacker = new Browser("192.0.2.10");
    const res = await attacker.post([
      ["username", "coord"],
      ["username", "ann"],
      ["password", "password-ann"],
    ]);
    expect(res.status).toBe(400);
    expect(attacker.signedIn()).toBe(false);
    expect(attacker.device()).toBeUndefined();
    // Any repeated field: the password, the CSRF token.
    for (const fields of [
      [["username", "ann"], ["password", "password-ann"], ["password", "password-ann"]],
      [["username", "ann"], ["password", "password-ann"], ["csrfToken", "x"]],
    ] as Array<Array<[string, string]>>) {
      expect((await new Browser("192.0.2.11").post(fields)).status).toBe(400);
    }
    expect(failureRows(w)).toEqual([]);
  });

  it("a sign-in leaves a device cookie bound to the id of the account that signed in (any case typed), valid for no other", async () => {
    const w = setup();
    const b = new Browser("192.0.2.12");
    const res = await b.signIn("ANN", "password-ann");
    expect(res.status).toBe(200);
    expect(b.signedIn()).toBe(true);
    const cookie = b.device()!;
    expect(deviceIdFor(SECRET, cookie, w.ann.userId)).not.toBeNull();
    expect(deviceIdFor(SECRET, cookie, w.coord.userId)).toBeNull();
    // A failed sign-in sets none.
    const other = new Browser("192.0.2.13");
    await other.signIn("coord", "not-the-password");
    expect(other.device()).toBeUndefined();
  });

  it("the attack: guessing the coordinator's password with one's own device cookie is slowed like any stranger (no free guesses)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const w = setup();
    const attacker = new Browser("192.0.2.14");
    await attacker.signIn("ann", "password-ann");
    expect(attacker.device()).toBeDefined();
    attacker.signOutLocally();
    const answers: number[] = [];
    for (let i = 0; i < 20; i++) answers.push((await attacker.signIn("coord", `guess-${i}-password`)).status);
    expect(answers.slice(0, FREE_FAILURES).every((s) => s === 401)).toBe(true);
    expect(answers.slice(FREE_FAILURES).every((s) => s === 429)).toBe(true);
    // Counted as an unknown browser for that account.
    expect(failureRows(w).filter((r) => r.key === "coord").every((r) => r.device === null)).toBe(true);
  });

  it(`device-cookie failures count toward the ceilings: ${ACCOUNT_CEILING} per account (every browser), ${CLIENT_LIMIT} per address`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const w = setup();
    // ann's own browser, signed in before anything failed.
    const home = new Browser("198.51.100.200");
    expect((await home.signIn("ann", "password-ann")).status).toBe(200);
    home.signOutLocally();
    // Browsers that signed in as ann once (each with its own device cookie), each then failing within its free tries.
    const owners: Browser[] = [];
    for (let i = 0; owners.length * FREE_FAILURES < ACCOUNT_CEILING; i++) {
      const b = new Browser(`198.51.100.${i + 1}`);
      await b.signIn("ann", "password-ann");
      b.signOutLocally();
      owners.push(b);
    }
    for (const b of owners) for (let k = 0; k < FREE_FAILURES; k++) expect((await b.signIn("ann", `typo-${k}-password`)).status).toBe(401);
    expect(failureRows(w).filter((r) => r.key === "ann" && r.device !== null)).toHaveLength(ACCOUNT_CEILING);
    // The account's ceiling: no check for a browser that never signed in as ann, right password or not.
    const stranger = await new Browser("203.0.113.99").signIn("ann", "password-ann");
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await errorOf(stranger)).toBe("RateLimited");
    // A known browser is held by its own failures only: the owner that failed waits its slow-down…
    expect((await owners[0].signIn("ann", "password-ann")).status).toBe(429);
    // …and one that has not failed still gets in: the ceiling never locks out a browser its owner signed in from.
    expect((await home.signIn("ann", "password-ann")).status).toBe(200);
    expect(signInLocks(w.db, SYSTEM, [{ id: w.ann.userId, name: "ann" }]).get(w.ann.userId)).toEqual({ failures: ACCOUNT_CEILING, locked: true });

    // The address ceiling: device-cookie failures from one address, for several accounts.
    const shared = new Browser("192.0.2.77");
    const names = ["coord", "annq", "coordq"];
    let failures = 0;
    for (const name of names) {
      await shared.signIn(name, `password-${name}`);
      shared.signOutLocally();
    }
    for (let round = 0; failures < CLIENT_LIMIT; round++) {
      // A fresh cookie per account every FREE_FAILURES failures, so no device's own slow-down applies.
      const name = names[round % names.length];
      const b = new Browser("192.0.2.77");
      await b.signIn(name, `password-${name}`);
      b.signOutLocally();
      for (let k = 0; k < FREE_FAILURES - 1 && failures < CLIENT_LIMIT; k++, failures++) expect((await b.signIn(name, `typo-${k}-password`)).status).toBe(401);
    }
    expect((await new Browser("192.0.2.77").signIn("coord", "password-coord")).status).toBe(429);
    expect((await new Browser("192.0.2.78").signIn("coord", "password-coord")).status).toBe(200);
  });
});

describe("finding 2: the body of an /api/auth POST is bounded", () => {
  /** A body of `total` bytes made as it is read; `pulled` counts what the server asked for. */
  function endless(total: number) {
    const chunk = new TextEncoder().encode("username=ann&" + "x".repeat(16 * 1024));
    const counter = { pulled: 0 };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        counter.pulled += chunk.byteLength;
        controller.enqueue(chunk);
        if (counter.pulled >= total) controller.close();
      },
    });
    return { body, counter };
  }

  it.each([
    ["no Content-Length (chunked)", null],
    ["a Content-Length that lies", "300"],
    ["an honest Content-Length", String(300 * 1024 * 1024)],
  ])("a 300 MB sign-in body with %s is refused (413) having read at most one chunk past a few KB", async (_what, length) => {
    const w = setup();
    const { body, counter } = endless(300 * 1024 * 1024);
    const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
    if (length) headers["content-length"] = length;
    const res = await new Browser("192.0.2.20").send("POST", "callback/credentials", { body, headers });
    expect(res.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(64 * 1024);
    expect(failureRows(w)).toEqual([]);
  });

  it("every /api/auth POST is bounded (sign-out, the client log), and only forms are read", async () => {
    setup();
    const big = "csrfToken=" + "x".repeat(20 * 1024);
    for (const action of ["signout", "_log", "callback/credentials"]) {
      expect((await new Browser("192.0.2.21").send("POST", action, { body: big, headers: { "content-type": "application/x-www-form-urlencoded" } })).status).toBe(413);
    }
    const json = await new Browser("192.0.2.22").send("POST", "callback/credentials", { body: JSON.stringify({ username: "ann", password: "password-ann" }), headers: { "content-type": "application/json" } });
    expect(json.status).toBe(415);
  });
});

describe("finding 5: slowed down, never locked out by strangers", () => {
  it("a stranger's eight failures elsewhere leave a new browser (no device cookie) free to sign in", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    setup();
    const stranger = new Browser("203.0.113.5");
    for (let i = 0; i < 8; i++) await stranger.signIn("ann", `guess-${i}-wrong`);
    const newcomer = new Browser("198.51.100.30");
    expect((await newcomer.signIn("ann", "password-ann")).status).toBe(200);
    expect(newcomer.signedIn()).toBe(true);
  });

  it("the wait grows (1 s, 2 s, 4 s …) and refused attempts never extend it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const w = setup();
    const b = new Browser("203.0.113.6");
    for (let i = 0; i < FREE_FAILURES; i++) expect((await b.signIn("ann", `guess-${i}-wrong`)).status).toBe(401);
    for (let step = 0; step < 3; step++) {
      const wait = slowDownMs(FREE_FAILURES + step);
      expect(wait).toBe(1000 * 2 ** step);
      // However many tries come meanwhile, they are refused unchecked and count for nothing.
      for (let k = 0; k < 10; k++) {
        const r = await b.signIn("ann", "password-ann");
        expect(r.status).toBe(429);
        expect(Number(r.headers.get("retry-after"))).toBe(Math.ceil(wait / 1000));
      }
      vi.setSystemTime(Date.now() + wait);
      expect((await b.signIn("ann", `late-${step}-wrong`)).status).toBe(401);
    }
    vi.setSystemTime(Date.now() + slowDownMs(FREE_FAILURES + 3));
    expect((await b.signIn("ann", "password-ann")).status).toBe(200);
    expect(failureRows(w).filter((r) => !r.throttled)).toHaveLength(FREE_FAILURES + 3);
  });

  it("an IPv6 client rotating addresses within its /64 is one client", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    setup();
    for (let i = 0; i < FREE_FAILURES; i++) await new Browser(`2001:db8:1:2::${i + 1}`).signIn("ann", `guess-${i}-wrong`);
    expect((await new Browser("2001:db8:1:2:ffff::99").signIn("ann", "password-ann")).status).toBe(429);
    expect((await new Browser("2001:db8:1:3::1").signIn("ann", "password-ann")).status).toBe(200);
    expect(clientKey("2001:0db8:0001:0002:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
  });

  it(`the ceiling (${ACCOUNT_CEILING} failures an hour from any browsers) holds until a coordinator lifts it; the lift is checked`, async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const w = setup();
    const known = new Browser("198.51.100.39");
    expect((await known.signIn("ann", "password-ann")).status).toBe(200);
    known.signOutLocally();
    for (let i = 0; i * FREE_FAILURES < ACCOUNT_CEILING; i++) {
      const b = new Browser(`203.0.113.${100 + i}`);
      for (let k = 0; k < FREE_FAILURES; k++) await b.signIn("ann", `guess-${k}-wrong`);
    }
    expect((await new Browser("198.51.100.40").signIn("ann", "password-ann")).status).toBe(429);
    // A browser ann signed in from before is held only by its own failures: the strangers' ceiling does not hold it.
    expect((await known.signIn("ann", "password-ann")).status).toBe(200);
    // Who may lift it: the annotator's coordinator, the CLI and an admin; not another project's coordinator or an annotator.
    const admin = createUser(w.db, SYSTEM, { name: "root", role: "admin", password: "password-root" });
    const refusals = [null, w.ann, w.annQ, w.coordQ].map((a) => {
      try {
        liftSignInLock(w.db, a, w.ann.userId);
        return "ok";
      } catch (e) {
        return outcomeOf(e);
      }
    });
    expect(refusals).toEqual(["401", "403", "403", "404"]);
    expect(liftSignInLock(w.db, w.coord, w.ann.userId)).toEqual({ name: "ann" });
    expect((await new Browser("198.51.100.41").signIn("ann", "password-ann")).status).toBe(200);
    expect(liftSignInLock(w.db, { kind: "user", userId: admin.id, name: "root", role: "admin" }, w.ann.userId)).toEqual({ name: "ann" });
    expect(w.db.$client.prepare("select count(*) as n from account_audit where action = 'sign-in-unlock'").get()).toEqual({ n: 2 });
  });

  it("a coordinator may not lift the lock of an account that is also in a project they do not coordinate", () => {
    const w = setup();
    addMember(w.db, w.coordQ, w.q.id, "ann");
    let got = "ok";
    try {
      liftSignInLock(w.db, w.coord, w.ann.userId);
    } catch (e) {
      got = outcomeOf(e);
    }
    expect(got).toBe("403");
    expect(liftSignInLock(w.db, SYSTEM, w.ann.userId)).toEqual({ name: "ann" });
  });
});

describe("finding 7: the bcrypt gate", () => {
  /** A check that ends when told to. */
  function held() {
    let end!: () => void;
    const done = new Promise<boolean>((r) => (end = () => r(false)));
    return { check: () => done, end };
  }

  it("holds at most its line and a client's share; a full line is answered at once with a retry time", async () => {
    const gate = new SignInGate({ slots: 1, maxWaiting: 6, perClient: 2 });
    const first = held();
    const running = gate.run({ client: "192.0.2.1", priority: "others" }, first.check);
    const waiting: Promise<unknown>[] = [];
    const refused: number[] = [];
    // 300 failures from 12 addresses arriving at once.
    for (let i = 0; i < 300; i++) {
      const p = gate.run({ client: `192.0.2.${(i % 12) + 1}`, priority: "others" }, async () => false);
      waiting.push(p.catch((e) => void (e instanceof GateBusyError && refused.push(e.retryAfterS))));
    }
    await vi.waitFor(() => expect(refused).toHaveLength(294));
    expect(gate.state()).toEqual({ running: 1, waitingKnown: 0, waitingClean: 0, waitingOthers: 6 });
    expect(refused.every((s) => s >= 1)).toBe(true);
    first.end();
    await running;
    await Promise.all(waiting);
    expect(gate.state()).toEqual({ running: 0, waitingKnown: 0, waitingClean: 0, waitingOthers: 0 });
  });

  it("serves device-cookie sign-ins first, then clients with no recent failure, then the others in turn, and counts IPv6 by /64", async () => {
    const gate = new SignInGate({ slots: 1, maxWaiting: 20, perClient: 3 });
    const order: string[] = [];
    const first = held();
    const running = gate.run({ client: "192.0.2.1", priority: "others" }, first.check);
    const queued: Promise<unknown>[] = [];
    const enqueue = (label: string, client: string, priority: Priority = "others") =>
      queued.push(gate.run({ client, priority }, async () => void order.push(label)).catch((e) => order.push(`${label}:busy:${(e as Error).name}`)));
    // A flooding client first, then another client, then a client with no recent failure, then a known browser.
    for (let i = 0; i < 3; i++) enqueue(`flood${i}`, "2001:db8:1:2::1");
    enqueue("flood-same-64", "2001:db8:1:2::abcd");
    enqueue("user", "198.51.100.7");
    enqueue("newcomer", "198.51.100.9", "clean");
    // A second check from the same new address waits with the others.
    enqueue("newcomer-again", "198.51.100.9", "clean");
    enqueue("known", "198.51.100.8", "known");
    first.end();
    await running;
    await Promise.all(queued);
    expect(order).toEqual(["flood-same-64:busy:GateBusyError", "known", "newcomer", "flood0", "user", "newcomer-again", "flood1", "flood2"]);
  });

  it("in the clean line, a client with one check goes before addresses that each keep several going", async () => {
    const gate = new SignInGate({ slots: 1, maxWaiting: 40, perClient: 4 });
    const order: string[] = [];
    const first = held();
    const running = gate.run({ client: "192.0.2.250", priority: "others" }, first.check);
    const queued: Promise<unknown>[] = [];
    const enqueue = (label: string, client: string) => queued.push(gate.run({ client, priority: "clean" }, async () => void order.push(label)));
    // A flood's first instant: 12 new addresses, 4 tries each (one of each in the clean line), then a new user's one try.
    for (let a = 1; a <= 12; a++) for (let k = 0; k < 4; k++) enqueue(`flood${a}`, `203.0.113.${a}`);
    enqueue("user", "198.51.100.7");
    first.end();
    await running;
    await Promise.all(queued);
    expect(order[0]).toBe("user");
    // Among the flood's addresses the turn is kept: each address's first try before any second.
    expect(new Set(order.slice(1, 13)).size).toBe(12);
  });

  it("through the route: a full gate answers 429 with Retry-After; a known browser and a new one still go first", async () => {
    const w = setup();
    const gate = signInGate();
    const { slots, maxWaiting, perClient } = gate.opts;
    // A known browser (it signed in before the flood), and an address that has failed once.
    const known = new Browser("198.51.100.50");
    await known.signIn("coord", "password-coord");
    known.signOutLocally();
    const flooder = new Browser("198.51.100.60");
    expect((await flooder.signIn("ann", "a-wrong-password")).status).toBe(401);
    const holds = Array.from({ length: slots }, () => held());
    const busy = holds.map((h, i) => gate.run({ client: `10.9.0.${i}`, priority: "others" }, h.check));
    // The line fills with checks that, once started, hold their slot until told.
    const fillerHolds = Array.from({ length: maxWaiting }, () => held());
    const fillers = fillerHolds.map((h, i) => gate.run({ client: `10.8.${Math.floor(i / perClient)}.1`, priority: "others" }, h.check));
    const res = await flooder.signIn("ann", "password-ann");
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await errorOf(res)).toBe("Busy");
    expect(failureRows(w)).toHaveLength(1);
    // The known browser waits in its own line and gets the first free slot: it signs in while every
    // filler that started still holds its slot (served in arrival order, it would wait for them all).
    const knownSignIn = known.signIn("coord", "password-coord");
    const newcomer = new Browser("198.51.100.70").signIn("ann", "password-ann");
    await vi.waitFor(() => expect(gate.state()).toMatchObject({ waitingKnown: 1, waitingClean: 1 }));
    for (const h of holds) h.end();
    expect((await knownSignIn).status).toBe(200);
    expect((await newcomer).status).toBe(200);
    for (const h of fillerHolds) h.end();
    await Promise.all([...busy, ...fillers]);
  });
});

describe("finding 6: a session lasts 12 hours from its sign-in", () => {
  it("renewals through /api/auth/session do not carry it past 12 hours", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const w = setup();
    const b = new Browser("192.0.2.90");
    expect((await b.signIn("ann", "password-ann")).status).toBe(200);
    const token = () => [...b.jar].find(([k]) => k.endsWith("next-auth.session-token"))?.[1] ?? null;
    // Renewed every two hours (a busy annotator's tab polls the session).
    for (let h = 2; h <= 10; h += 2) {
      vi.setSystemTime(Date.now() + 2 * 3600_000);
      const s = (await (await b.send("GET", "session")).json()) as { user?: { name: string } };
      expect(s.user?.name, `after ${h} hours`).toBe("ann");
      expect(await sessionClaims(token())).toEqual({ uid: w.ann.userId, sv: expect.any(Number) });
    }
    const renewed = token();
    vi.setSystemTime(Date.now() + 2 * 3600_000 + 60_000);
    // 12 hours and a minute: the session route has no user and clears the cookie, and the kept cookie opens nothing.
    expect(await (await b.send("GET", "session")).json()).toEqual({});
    expect(token()).toBeNull();
    expect(await sessionClaims(renewed)).toBeNull();
  });
});
