/**
 * A browser for the study link's sign-in tests: keeps cookies with their paths, posts the CSRF
 * token as next-auth's client does, and runs next-auth's own request handler with the app's
 * options; after a sign-in that starts a session it sets the cookies the /api/auth route adds to
 * such an answer (lib/auth/route.ts: the device cookie, the participant's cookies), through the
 * same function the route calls.
 */
import { createRequire } from "node:module";
import path from "node:path";
import type { NextAuthOptions } from "next-auth";
import { afterEach, beforeEach } from "vitest";
import { resetRateLimits } from "../../lib/server/kernel/rate-limit";
import { decodeSessionToken } from "../../lib/auth/jwt";
import type { SignInOutcome } from "../../lib/auth/options";

const require = createRequire(import.meta.url);
const { AuthHandler } = require(path.join(path.dirname(require.resolve("next-auth")), "core/index.js")) as {
  AuthHandler: (p: { req: Request; options: unknown }) => Promise<{ status?: number; body?: unknown; redirect?: string; cookies?: Array<{ name: string; value: string; options?: { path?: string } }> }>;
};

export const URL_ = "http://lexgold.test:3000";
export const SECRET = "test-secret-for-the-security-tests-0123456789";

/**
 * For a test file: NEXTAUTH_URL and the secret set before each test (and put back after), joins
 * unlimited, the re-join limits at their defaults, the buckets empty.
 */
export function studySignInEnv(): void {
  const saved = { url: process.env.NEXTAUTH_URL, secret: process.env.NEXTAUTH_SECRET };
  beforeEach(() => {
    process.env.NEXTAUTH_URL = URL_;
    process.env.NEXTAUTH_SECRET = SECRET;
    process.env.LEXGOLD_STUDY_JOIN_RATE = "off";
    process.env.LEXGOLD_ADDRESS_JOIN_RATE = "off";
    for (const k of ["LEXGOLD_REJOIN_RATE", "LEXGOLD_RESUME_RATE", "LEXGOLD_ADDRESS_REJOIN_RATE"]) delete process.env[k];
    resetRateLimits();
  });
  afterEach(() => {
    for (const [k, v] of [["NEXTAUTH_URL", saved.url], ["NEXTAUTH_SECRET", saved.secret]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

interface Jarred {
  value: string;
  path: string;
}

export interface Deps {
  authOptions: (outcome: SignInOutcome) => NextAuthOptions;
  /** lib/auth/route.ts's cookies for a sign-in's outcome. */
  outcomeCookies: (outcome: SignInOutcome) => string[];
}

export class StudyBrowser {
  /** name → value and path. */
  jar = new Map<string, Jarred>();

  constructor(
    private readonly deps: Deps,
    readonly address = "192.0.2.9",
  ) {}

  /** The cookies a request to `urlPath` carries. */
  cookieHeader(urlPath: string): string {
    return [...this.jar]
      .filter(([, c]) => urlPath === c.path || urlPath.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`) || c.path === "/")
      .map(([k, c]) => `${k}=${encodeURIComponent(c.value)}`)
      .join("; ");
  }

  cookie(name: string): string | undefined {
    return this.jar.get(name)?.value;
  }

  private set(setCookie: string) {
    const [pair, ...attrs] = setCookie.split(";").map((s) => s.trim());
    const eq = pair.indexOf("=");
    const name = pair.slice(0, eq);
    const value = decodeURIComponent(pair.slice(eq + 1));
    const pathAttr = attrs.find((a) => /^path=/i.test(a));
    const maxAge = attrs.find((a) => /^max-age=/i.test(a));
    if (value === "" || (maxAge && Number(maxAge.split("=")[1]) <= 0)) this.jar.delete(name);
    else this.jar.set(name, { value, path: pathAttr ? pathAttr.slice(5) : "/" });
  }

  private async send(action: string, body?: Record<string, string>) {
    const urlPath = `/api/auth/${action}`;
    const req = new Request(`${URL_}${urlPath}`, {
      method: body ? "POST" : "GET",
      headers: { host: "lexgold.test:3000", "x-lexgold-peer": this.address, cookie: this.cookieHeader(urlPath), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const outcome: SignInOutcome = {};
    const res = await AuthHandler({ req, options: this.deps.authOptions(outcome) });
    let started = false;
    for (const c of res.cookies ?? []) {
      this.jar.set(c.name, { value: c.value, path: c.options?.path ?? "/" });
      if (/^(__Secure-)?next-auth\.session-token$/.test(c.name) && c.value) started = true;
    }
    if (started) for (const c of this.deps.outcomeCookies(outcome)) this.set(c);
    return res;
  }

  async signIn(provider: string, fields: Record<string, string>) {
    const csrf = ((await this.send("csrf")).body as { csrfToken: string }).csrfToken;
    return this.send(`callback/${provider}`, { ...fields, csrfToken: csrf, json: "true" });
  }

  /** The study sign-in; resolves with the refusal's sentence, or null when it signed in. */
  async join(token: string, params: Record<string, string>, extra: Record<string, string> = {}): Promise<string | null> {
    const had = this.cookie("next-auth.session-token");
    const r = await this.signIn("study", { token, params: JSON.stringify(params), consent: "yes", ...extra });
    const error = r.redirect ? new URL(r.redirect).searchParams.get("error") : null;
    if (error) return decodeURIComponent(error);
    if (!this.cookie("next-auth.session-token") || this.cookie("next-auth.session-token") === had) return "no session";
    return null;
  }

  session() {
    return this.send("session");
  }

  async claims(): Promise<Record<string, unknown> | null> {
    const token = this.cookie("next-auth.session-token");
    return token ? ((await decodeSessionToken({ token, secret: SECRET })) as Record<string, unknown> | null) : null;
  }

  async uid(): Promise<number | null> {
    const c = await this.claims();
    return typeof c?.uid === "number" ? c.uid : null;
  }
}
