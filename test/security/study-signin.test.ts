/**
 * The study link's sign-in (next-auth's "study" credentials, lib/auth/options.ts), through
 * next-auth's own request handler over a test database: joining makes a session whose user and
 * role are the participant's (role "participant"); an id in another case is another participant;
 * a refusal says why and sets no session; the participant's name and any password never sign in
 * through the password form.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import { createStudy, setStudyState } from "../../lib/server/crowd/studies";
import { SYSTEM } from "../../lib/server/kernel/actor";
import { decodeSessionToken } from "../../lib/auth/jwt";
import { world } from "./world";
import { SECRET, studySignInEnv, URL_ } from "./study-browser";

const state = vi.hoisted(() => ({ db: null as unknown }));
vi.mock("../../db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../db/client")>()),
  getDb: () => state.db,
}));

const { authOptions } = await import("../../lib/auth/options");
const require = createRequire(import.meta.url);
const { AuthHandler } = require(path.join(path.dirname(require.resolve("next-auth")), "core/index.js")) as {
  AuthHandler: (p: { req: Request; options: unknown }) => Promise<{ status?: number; body?: unknown; redirect?: string; cookies?: Array<{ name: string; value: string }> }>;
};

studySignInEnv();

/** A browser: keeps next-auth's cookies, posts the CSRF token as next-auth's client does. */
class Browser {
  cookies = new Map<string, string>();
  private async send(action: string, body?: Record<string, string>) {
    const req = new Request(`${URL_}/api/auth/${action}`, {
      method: body ? "POST" : "GET",
      headers: { host: "lexgold.test:3000", "x-lexgold-peer": "192.0.2.9", cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "), ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const res = await AuthHandler({ req, options: authOptions() });
    for (const c of res.cookies ?? []) this.cookies.set(c.name, c.value);
    return res;
  }
  async signIn(provider: string, fields: Record<string, string>) {
    const csrf = ((await this.send("csrf")).body as { csrfToken: string }).csrfToken;
    return this.send(`callback/${provider}`, { ...fields, csrfToken: csrf, json: "true" });
  }
  session() {
    return this.send("session");
  }
  async claims() {
    const token = this.cookies.get("next-auth.session-token");
    return token ? await decodeSessionToken({ token, secret: SECRET }) : null;
  }
}

function setup(consent = "") {
  const w = world();
  state.db = w.db as Db;
  const s = createStudy(w.db, SYSTEM, w.p.id, { platform: "link", batchSize: 2, overlap: 2, minutes: 30, consent });
  return { w, s };
}

describe('the "study" sign-in', () => {
  it("joins and signs in as the participant (role participant), with the batch given; arriving again is the same account", async () => {
    const { w, s } = setup();
    const b = new Browser();
    const r = await b.signIn("study", { token: s.token, params: JSON.stringify({ id: "reader-1" }), consent: "" });
    expect(r.redirect).toBe(URL_);
    const claims = await b.claims();
    expect(claims).toMatchObject({ role: "participant", name: `link:${s.id}:reader-1` });
    const uid = claims!.uid;
    expect((await b.session()).body).toMatchObject({ user: { name: `link:${s.id}:reader-1`, role: "participant" } });
    expect(w.db.$client.prepare("select count(*) as n from batch_items").get()).toEqual({ n: 2 });
    // Arriving again from the same browser is the same account (its cookie, set by lib/auth/route.ts:
    // test/security/participant-takeover.test.ts); "READER-1" is another id, so another participant.
    const again = new Browser();
    await again.signIn("study", { token: s.token, params: JSON.stringify({ id: "READER-1" }), consent: "" });
    expect((await again.claims())?.uid).not.toBe(uid);
    // Account names are one whatever their case: the second is told apart by "~2" ("~" is in no id).
    expect((await again.claims())?.name).toBe(`link:${s.id}:READER-1~2`);
    // The password form never signs into it, whatever is typed.
    const pw = new Browser();
    expect((await pw.signIn("credentials", { username: `link:${s.id}:reader-1`, password: "!participant" })).redirect).toMatch(/error=CredentialsSignin/);
    expect(pw.cookies.get("next-auth.session-token")).toBeUndefined();
  });

  it("a refusal says why (consent, a closed study, a bad id, unreadable parameters) and sets no session", async () => {
    const { w, s } = setup("You agree.");
    const refused = async (fields: Record<string, string>) => {
      const b = new Browser();
      const r = await b.signIn("study", { token: s.token, consent: "", ...fields });
      expect(b.cookies.get("next-auth.session-token")).toBeUndefined();
      return decodeURIComponent(new URL(r.redirect!).searchParams.get("error") ?? "");
    };
    expect(await refused({ params: JSON.stringify({ id: "ann" }) })).toBe("Read the consent and agree to it to start.");
    expect(await refused({ params: JSON.stringify({ id: "a b" }), consent: "yes" })).toBe("Your id: 1 to 64 letters, digits, dots, dashes or underscores.");
    expect(await refused({ params: "not json", consent: "yes" })).toBe("The link's parameters could not be read: open the study link again.");
    expect(await refused({ params: JSON.stringify({ id: ["x"] }), consent: "yes" })).toBe("The link's parameters could not be read: open the study link again.");
    expect(await refused({ token: "no-such-study-token-here", params: JSON.stringify({ id: "ann" }), consent: "yes" })).toBe("No such study: check the link you were given.");
    setStudyState(w.db, SYSTEM, s.id, "closed");
    expect(await refused({ params: JSON.stringify({ id: "ann" }), consent: "yes" })).toMatch(/^This study is closed/);
    expect(w.db.$client.prepare("select count(*) as n from participants").get()).toEqual({ n: 0 });
  });
});
