/**
 * Sessions and sign-in, through next-auth's own request handler with the app's
 * options (lib/auth/options.ts) over a test database:
 *  - the session cookie is HttpOnly and SameSite=Lax, and Secure with the
 *    __Secure- prefix when the app is served over https (NEXTAUTH_URL);
 *  - sign-in is slowed down per account and client address (for browsers
 *    without that account's device cookie) and per device, with ceilings per
 *    account and per address — the socket's (x-lexgold-peer, stamped by
 *    instrumentation.ts), never a header the client writes — and strangers
 *    cannot lock out the coordinator, a new browser or a user's own browser;
 *  - sign-out retires the session's version;
 *  - passwords appear in no log line, response body, export or table.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import { projectGold } from "../../lib/server/gold/gold";
import { exportResponses } from "../../lib/server/annotate/response-import";
import { saveResponse } from "../../lib/server/annotate/responses";
import { createAnnotatorForProject } from "../../lib/server/people/team";
import { CLIENT_LIMIT, DEVICE_COOKIE, FREE_FAILURES as SIGN_IN_LIMIT, makeDeviceCookie } from "../../lib/server/people/signin";
import { dump, world } from "./world";

const state = vi.hoisted(() => ({ db: null as unknown }));
vi.mock("../../db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../db/client")>()),
  getDb: () => state.db,
}));

const { authOptions } = await import("../../lib/auth/options");

// next-auth's framework-neutral handler (next-auth/core), which its Next.js route handler wraps.
const require = createRequire(import.meta.url);
const { AuthHandler } = require(path.join(path.dirname(require.resolve("next-auth")), "core/index.js")) as {
  AuthHandler: (p: { req: Request; options: unknown }) => Promise<AuthResponse>;
};

interface AuthCookie {
  name: string;
  value: string;
  options: { httpOnly?: boolean; sameSite?: string | boolean; secure?: boolean; path?: string; expires?: Date };
}
interface AuthResponse {
  status?: number;
  body?: unknown;
  redirect?: string;
  cookies?: AuthCookie[];
}

const saved = { url: process.env.NEXTAUTH_URL, secret: process.env.NEXTAUTH_SECRET };
beforeEach(() => {
  process.env.NEXTAUTH_SECRET = "test-secret-for-the-security-tests-0123456789"; // = SECRET
});
afterEach(() => {
  process.env.NEXTAUTH_URL = saved.url;
  process.env.NEXTAUTH_SECRET = saved.secret;
  if (saved.url === undefined) delete process.env.NEXTAUTH_URL;
  if (saved.secret === undefined) delete process.env.NEXTAUTH_SECRET;
  vi.useRealTimers();
});

/** A browser talking to next-auth: keeps its cookies, signs in with the CSRF token as the sign-in form does. */
class Client {
  cookies = new Map<string, AuthCookie>();
  responses: AuthResponse[] = [];
  /** A device cookie this browser holds (the route handler sets it after a successful sign-in). */
  device: string | null = null;
  /**
   * @param ip the socket's address, as the server's request hook stamps it
   * @param forwardedFor an X-Forwarded-For header the client writes itself
   */
  constructor(
    private base: string,
    private ip: string | null = null,
    private forwardedFor: string | null = null,
  ) {}

  private async send(action: string, init: { method?: string; body?: unknown } = {}): Promise<AuthResponse> {
    const headers: Record<string, string> = {
      host: new URL(this.base).host,
      cookie: [...[...this.cookies.values()].map((c) => `${c.name}=${c.value}`), ...(this.device ? [`${DEVICE_COOKIE}=${this.device}`] : [])].join("; "),
    };
    if (this.ip) headers["x-lexgold-peer"] = this.ip;
    if (this.forwardedFor) headers["x-forwarded-for"] = this.forwardedFor;
    if (init.body) headers["content-type"] = "application/json";
    const req = new Request(`${this.base}/api/auth/${action}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
    const res = await AuthHandler({ req, options: authOptions() });
    for (const c of res.cookies ?? []) this.cookies.set(c.name, c);
    this.responses.push(res);
    return res;
  }

  async signIn(username: string, password: string): Promise<AuthResponse> {
    const csrf = (await this.send("csrf")).body as { csrfToken: string };
    return this.send("callback/credentials", { method: "POST", body: { username, password, csrfToken: csrf.csrfToken, json: "true" } });
  }

  session(): Promise<AuthResponse> {
    return this.send("session");
  }

  async signOut(): Promise<AuthResponse> {
    const csrf = (await this.send("csrf")).body as { csrfToken: string };
    return this.send("signout", { method: "POST", body: { csrfToken: csrf.csrfToken, json: "true" } });
  }

  sessionCookie(): AuthCookie | undefined {
    return [...this.cookies.values()].find((c) => c.name.endsWith("next-auth.session-token") && c.value !== "");
  }
}

function setup() {
  const w = world();
  state.db = w.db as Db;
  // world()'s accounts have the password "password-<name>".
  return w;
}

describe.each([
  { url: "http://lexgold.test:3000", secure: false },
  { url: "https://lexgold.example", secure: true },
])("session cookies when NEXTAUTH_URL is $url", ({ url, secure }) => {
  it(`are HttpOnly, SameSite=Lax${secure ? ", Secure and __Secure-/__Host- prefixed" : ", not Secure (plain http)"}`, async () => {
    process.env.NEXTAUTH_URL = url;
    setup();
    const c = new Client(url);
    const r = await c.signIn("coord", "password-coord");
    expect(r.redirect).toBe(url);
    const session = c.sessionCookie()!;
    expect(session).toBeDefined();
    expect(session.name).toBe(secure ? "__Secure-next-auth.session-token" : "next-auth.session-token");
    expect(session.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", secure });
    const csrf = c.cookies.get(secure ? "__Host-next-auth.csrf-token" : "next-auth.csrf-token")!;
    expect(csrf.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", secure });
    for (const cookie of c.cookies.values()) expect(cookie.options.httpOnly, cookie.name).toBe(true);
    // The session lasts 12 hours, not next-auth's default 30 days.
    const hours = (session.options.expires!.getTime() - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    // The session the browser reads names the user and role: no password, no hash.
    const s = await c.session();
    expect(s.body).toMatchObject({ user: { name: "coord", role: "coordinator" } });
    expect(JSON.stringify(s.body)).not.toMatch(/password|hash|\$2[aby]\$/i);
  });

  it("a wrong password sets no session cookie", async () => {
    process.env.NEXTAUTH_URL = url;
    setup();
    const c = new Client(url);
    const r = await c.signIn("coord", "password-wrong");
    expect(r.redirect).toMatch(/error=CredentialsSignin/);
    expect(c.sessionCookie()).toBeUndefined();
  });
});

const SECRET = "test-secret-for-the-security-tests-0123456789";

describe("sign-in throttle", () => {
  const URL = "http://lexgold.test:3000";
  const failures = (db: { $client: { prepare(s: string): { all(): unknown[] } } }) =>
    db.$client.prepare("select key, client, device, throttled from sign_in_failures order by id").all() as Array<{ key: string; client: string; device: string | null; throttled: number }>;

  it(`after ${SIGN_IN_LIMIT} failures for a name from one address, that address is slowed down for it (1 s, 2 s, …), whatever X-Forwarded-For says; other addresses are not`, async () => {
    process.env.NEXTAUTH_URL = URL;
    vi.useFakeTimers({ toFake: ["Date"] });
    setup();
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      const r = await new Client(URL, "192.0.2.50", `203.0.113.${i + 1}`).signIn("ann", `guess-${i}`);
      expect(r.redirect).toMatch(/error=CredentialsSignin/);
    }
    const slowed = new Client(URL, "192.0.2.50", "198.51.100.77");
    expect((await slowed.signIn("ann", "password-ann")).redirect).toMatch(/error=RateLimited/);
    expect(slowed.sessionCookie()).toBeUndefined();
    // A new browser elsewhere is not slowed by those failures.
    const elsewhere = new Client(URL, "198.51.100.78");
    await elsewhere.signIn("ann", "password-ann");
    expect(elsewhere.sessionCookie()).toBeDefined();
    // Other accounts are not slowed by another name's failures.
    const other = new Client(URL, "192.0.2.50");
    await other.signIn("coord", "password-coord");
    expect(other.sessionCookie()).toBeDefined();
    // A second later the slowed address gets its next check.
    vi.setSystemTime(Date.now() + 1_100);
    const later = new Client(URL, "192.0.2.50");
    await later.signIn("ann", "password-ann");
    expect(later.sessionCookie()).toBeDefined();
  });

  it("finding 1: strangers' failures with made-up names from the same address (no X-Forwarded-For) do not lock out the coordinator", async () => {
    process.env.NEXTAUTH_URL = URL;
    setup();
    for (let i = 0; i < 6; i++) await new Client(URL, "127.0.0.1").signIn(`nobody${i}`, "whatever-it-is");
    const coordinator = new Client(URL, "127.0.0.1");
    await coordinator.signIn("coord", "password-coord");
    expect(coordinator.sessionCookie()).toBeDefined();
  });

  it("finding 2: after a stranger's eight failures as a user, the user's own browser (device cookie) still signs in, from the stranger's very address", async () => {
    process.env.NEXTAUTH_URL = URL;
    // The clock stands still: the attempts after the fifth all come within its 1 s slow-down.
    vi.useFakeTimers({ toFake: ["Date"] });
    const w = setup();
    for (let i = 0; i < 8; i++) await new Client(URL, "127.0.0.1", `203.0.113.${i}`).signIn("ann", `guess-${i}-wrong`);
    const stranger = new Client(URL, "127.0.0.1");
    expect((await stranger.signIn("ann", "password-ann")).redirect).toMatch(/error=RateLimited/);
    const own = new Client(URL, "127.0.0.1");
    own.device = makeDeviceCookie(SECRET, w.ann.userId);
    await own.signIn("ann", "password-ann");
    expect(own.sessionCookie()).toBeDefined();
    // A device cookie for another account, or a forged one, gives no way around the slow-down.
    for (const device of [makeDeviceCookie(SECRET, w.coord.userId), makeDeviceCookie("another-secret", w.ann.userId), `v2.${w.ann.userId}.abc.forged`]) {
      const c = new Client(URL, "127.0.0.1");
      c.device = device;
      expect((await c.signIn("ann", "password-ann")).redirect).toMatch(/error=RateLimited/);
    }
    // The failures are recorded with the socket's address, not the header the client wrote;
    // the three after the fifth came within the slow-down and were refused unchecked.
    const rows = failures(w.db).slice(0, 8);
    expect(rows.map((r) => r.throttled)).toEqual([0, 0, 0, 0, 0, 1, 1, 1]);
    expect(new Set(rows.map((r) => r.client))).toEqual(new Set(["127.0.0.1"]));
    expect(rows.every((r) => r.key === "ann" && r.device === null)).toBe(true);
  });

  it("a device cookie's own failures slow that device only", async () => {
    process.env.NEXTAUTH_URL = URL;
    vi.useFakeTimers({ toFake: ["Date"] });
    const w = setup();
    const device = makeDeviceCookie(SECRET, w.ann.userId);
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      const c = new Client(URL, "192.0.2.60");
      c.device = device;
      expect((await c.signIn("ann", `typo-${i}-password`)).redirect).toMatch(/error=CredentialsSignin/);
    }
    const again = new Client(URL, "192.0.2.60");
    again.device = device;
    expect((await again.signIn("ann", "password-ann")).redirect).toMatch(/error=RateLimited/);
    // The account itself is not locked for other browsers by its own device's failures.
    const elsewhere = new Client(URL, "192.0.2.61");
    await elsewhere.signIn("ann", "password-ann");
    expect(elsewhere.sessionCookie()).toBeDefined();
  });

  it(`finding 2: spraying names from one address is limited after ${CLIENT_LIMIT} failures, however X-Forwarded-For rotates`, async () => {
    process.env.NEXTAUTH_URL = URL;
    setup();
    for (let i = 0; i < CLIENT_LIMIT; i++) await new Client(URL, "192.0.2.9", `198.51.100.${i}`).signIn(`name${i}`, "Spring2026!!");
    const same = new Client(URL, "192.0.2.9", "198.51.100.250");
    expect((await same.signIn("coord", "password-coord")).redirect).toMatch(/error=RateLimited/);
    const elsewhere = new Client(URL, "192.0.2.10");
    await elsewhere.signIn("coord", "password-coord");
    expect(elsewhere.sessionCookie()).toBeDefined();
  });

  it("behind a configured trusted proxy the client is the proxy's X-Forwarded-For entry", async () => {
    process.env.NEXTAUTH_URL = URL;
    const saved = process.env.LEXGOLD_TRUSTED_PROXY;
    process.env.LEXGOLD_TRUSTED_PROXY = "10.0.0.1";
    try {
      const w = setup();
      await new Client(URL, "10.0.0.1", "203.0.113.9, 198.51.100.200").signIn("ann", "not-the-password");
      await new Client(URL, "192.0.2.70", "203.0.113.9").signIn("ann", "not-the-password");
      expect(failures(w.db).map((r) => r.client)).toEqual(["198.51.100.200", "192.0.2.70"]);
    } finally {
      if (saved === undefined) delete process.env.LEXGOLD_TRUSTED_PROXY;
      else process.env.LEXGOLD_TRUSTED_PROXY = saved;
    }
  });

  it("an unknown name fails like a wrong password (same answer, no hint which)", async () => {
    process.env.NEXTAUTH_URL = URL;
    setup();
    const a = await new Client(URL, "192.0.2.20").signIn("no-such-user", "password-coord");
    const b = await new Client(URL, "192.0.2.21").signIn("coord", "not-the-password");
    expect(a.redirect).toBe(b.redirect);
  });
});

describe("sign-out", () => {
  it("finding 4: retires the session's version, so the session read from a kept cookie no longer matches the user", async () => {
    process.env.NEXTAUTH_URL = "http://lexgold.test:3000";
    const w = setup();
    const c = new Client("http://lexgold.test:3000", "192.0.2.90");
    await c.signIn("ann", "password-ann");
    const kept = c.sessionCookie()!;
    const version = () => (w.db.$client.prepare("select session_version as v from users where name = 'ann'").get() as { v: number }).v;
    const before = version();
    expect(((await c.session()).body as { sv: number }).sv).toBe(before);
    await c.signOut();
    expect(version()).toBe(before + 1);
    // The old cookie still decodes (a JWT), but names the retired version: lib/auth/session.ts refuses it.
    const thief = new Client("http://lexgold.test:3000", "192.0.2.91");
    thief.cookies.set(kept.name, kept);
    expect(((await thief.session()).body as { sv: number }).sv).toBe(before);
    expect(w.db.$client.prepare("select action from account_audit where action = 'sign-out'").all()).toHaveLength(1);
  });
});

describe("passwords never in logs, responses, exports or tables", () => {
  it("sign-ins (good, wrong, rate-limited), account creation, saving, exports: no password anywhere", async () => {
    process.env.NEXTAUTH_URL = "http://lexgold.test:3000";
    const out: string[] = [];
    const capture = (...args: unknown[]) => void out.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : typeof a === "string" ? a : JSON.stringify(a))).join(" "));
    const spies = (["log", "info", "warn", "error", "debug", "trace"] as const).map((m) => vi.spyOn(console, m).mockImplementation(capture));
    const writes = [vi.spyOn(process.stdout, "write"), vi.spyOn(process.stderr, "write")].map((s) =>
      s.mockImplementation((chunk: string | Uint8Array) => {
        out.push(String(chunk));
        return true;
      }),
    );
    try {
      const w = setup();
      const typed = "Sekrit-typed-pass-42";
      const created = await createAnnotatorForProject(w.db, w.coord, w.p.id, { name: "nova", password: typed });
      const generated = await createAnnotatorForProject(w.db, w.coord, w.p.id, { name: "orla", password: "" });
      const passwords = [typed, generated.password, "password-coord", "password-ann", "Wrong-pass-for-nova-1"];
      const clients = [new Client("http://lexgold.test:3000", "192.0.2.30"), new Client("http://lexgold.test:3000", "192.0.2.31")];
      await clients[0].signIn("nova", typed);
      await clients[0].session();
      for (let i = 0; i <= SIGN_IN_LIMIT; i++) await clients[1].signIn("nova", "Wrong-pass-for-nova-1");
      await clients[1].signIn("coord", "password-coord");
      await clients[1].session();
      saveResponse(w.db, { kind: "user", userId: created.user.id, name: "nova", role: "annotator" }, w.p.id, w.ref.p2, { kind: "NIL", substitutes: [], multiword: false }, { expectedRevision: 0 });
      const tsv = exportResponses(w.db, w.coord, w.p.id);
      const gold = projectGold(w.db, w.coord, w.p.id);
      expect(tsv).toContain("nova\tbright.a\tp2\tNIL");

      const bodies = clients.flatMap((c) => c.responses.map((r) => JSON.stringify(r)));
      const everything = [...out, ...bodies, tsv, gold.gold, gold.mwgold, JSON.stringify(dump(w.db))].join("\n");
      for (const p of passwords) expect(everything).not.toContain(p);
      // The hashes stay in the users table: never in a response or an export.
      for (const text of [...bodies, tsv, gold.gold, gold.mwgold]) expect(text).not.toMatch(/\$2[aby]\$/);
    } finally {
      for (const s of [...spies, ...writes]) s.mockRestore();
    }
  });
});
