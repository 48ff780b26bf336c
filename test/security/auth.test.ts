/**
 * Sessions and sign-in, through next-auth's own request handler with the app's
 * options (lib/auth/options.ts) over a test database:
 *  - the session cookie is HttpOnly and SameSite=Lax, and Secure with the
 *    __Secure- prefix when the app is served over https (NEXTAUTH_URL);
 *  - sign-in is rate-limited per user name and per client, also when the
 *    client rotates X-Forwarded-For, and the window ends;
 *  - passwords appear in no log line, response body, export or table.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import { projectGold } from "../../lib/server/gold";
import { exportResponses } from "../../lib/server/response-import";
import { saveResponse } from "../../lib/server/responses";
import { createAnnotatorForProject } from "../../lib/server/team";
import { SIGN_IN_LIMIT, SIGN_IN_WINDOW_MS } from "../../lib/server/users";
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
  process.env.NEXTAUTH_SECRET = "test-secret-for-the-security-tests-0123456789";
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
  constructor(
    private base: string,
    private ip: string | null = null,
  ) {}

  private async send(action: string, init: { method?: string; body?: unknown } = {}): Promise<AuthResponse> {
    const headers: Record<string, string> = {
      host: new URL(this.base).host,
      cookie: [...this.cookies.values()].map((c) => `${c.name}=${c.value}`).join("; "),
    };
    if (this.ip) headers["x-forwarded-for"] = this.ip;
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

describe("sign-in rate limit", () => {
  const URL = "http://lexgold.test:3000";

  it(`after ${SIGN_IN_LIMIT} failures for a name, even the right password is refused until the window passes, whatever X-Forwarded-For says`, async () => {
    process.env.NEXTAUTH_URL = URL;
    vi.useFakeTimers({ toFake: ["Date"] });
    setup();
    for (let i = 0; i < SIGN_IN_LIMIT; i++) {
      const r = await new Client(URL, `203.0.113.${i + 1}`).signIn("ann", `guess-${i}`);
      expect(r.redirect).toMatch(/error=CredentialsSignin/);
    }
    const blocked = new Client(URL, "198.51.100.77");
    expect((await blocked.signIn("ann", "password-ann")).redirect).toMatch(/error=RateLimited/);
    expect(blocked.sessionCookie()).toBeUndefined();
    // Other accounts are not locked by another name's failures from other clients.
    const other = new Client(URL, "198.51.100.78");
    await other.signIn("coord", "password-coord");
    expect(other.sessionCookie()).toBeDefined();
    // Still refused just before the window ends, allowed after it.
    vi.setSystemTime(Date.now() + SIGN_IN_WINDOW_MS - 60_000);
    expect((await new Client(URL, "198.51.100.79").signIn("ann", "password-ann")).redirect).toMatch(/error=RateLimited/);
    vi.setSystemTime(Date.now() + 61_000);
    const later = new Client(URL, "198.51.100.80");
    await later.signIn("ann", "password-ann");
    expect(later.sessionCookie()).toBeDefined();
  });

  it(`after ${SIGN_IN_LIMIT} failures from one client (any names), that client is refused; others are not`, async () => {
    process.env.NEXTAUTH_URL = URL;
    setup();
    for (let i = 0; i < SIGN_IN_LIMIT; i++) await new Client(URL, "192.0.2.9").signIn(`nobody${i}`, "whatever-it-is");
    const same = new Client(URL, "192.0.2.9");
    expect((await same.signIn("coord", "password-coord")).redirect).toMatch(/error=RateLimited/);
    const elsewhere = new Client(URL, "192.0.2.10");
    await elsewhere.signIn("coord", "password-coord");
    expect(elsewhere.sessionCookie()).toBeDefined();
  });

  it("an unknown name fails like a wrong password (same answer, no hint which)", async () => {
    process.env.NEXTAUTH_URL = URL;
    setup();
    const a = await new Client(URL, "192.0.2.20").signIn("no-such-user", "password-coord");
    const b = await new Client(URL, "192.0.2.21").signIn("coord", "not-the-password");
    expect(a.redirect).toBe(b.redirect);
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
      const created = createAnnotatorForProject(w.db, w.coord, w.p.id, { name: "nova", password: typed });
      const generated = createAnnotatorForProject(w.db, w.coord, w.p.id, { name: "orla", password: "" });
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
