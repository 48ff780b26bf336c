/**
 * Forms posted without JavaScript (#38), as an attacker would try them:
 *  - a route's answer kept for the page it goes back to (lib/server/kernel/outcome.ts) is read only
 *    by the account that posted, on that page, within its time, by an id no one can guess;
 *  - a request is taken for a browser's own form only when the browser says so (a navigation);
 *  - the CSRF token the proxy gives the sign-in forms is next-auth's own (its check accepts it),
 *    comes from the cookie it is checked against, and cannot be set by the request;
 *  - the production server's answers to native sign-ins never leave the site
 *    (test/server/native-forms/native-forms.test.ts: a callbackUrl of //evil.example, https://evil.example,
 *    /\evil.example or javascript: leads home; a post without the CSRF cookie signs nobody in).
 */
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CSRF_HEADER, csrfCookieName, csrfToken } from "../../lib/auth/csrf";
import { isNativeForm, keepOutcome, readOutcome } from "../../lib/server/kernel/outcome";
import { resetRateLimits } from "../../lib/server/kernel/rate-limit";
import { proxy } from "../../proxy";

/** next-auth's own check of the cookie and the token (not among its exports: loaded from its file). */
const { createCSRFToken } = createRequire(import.meta.url)(path.resolve(__dirname, "../../node_modules/next-auth/core/lib/csrf-token.js")) as {
  createCSRFToken(o: { options: { secret: string }; cookieValue: string; isPost: boolean; bodyValue: string }): { csrfToken: string; csrfTokenVerified?: boolean };
};

const SECRET = "test-secret-for-the-native-forms-0123456789abcdef";
const saved = { secret: process.env.NEXTAUTH_SECRET, url: process.env.NEXTAUTH_URL };
beforeEach(() => {
  process.env.NEXTAUTH_SECRET = SECRET;
  delete process.env.NEXTAUTH_URL;
  resetRateLimits();
});
afterEach(() => {
  for (const [k, v] of [["NEXTAUTH_SECRET", saved.secret], ["NEXTAUTH_URL", saved.url]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("an outcome kept for a page", () => {
  const answer = { ok: false, message: "Choose a file." };

  it("is read by the account that posted, on the page it was kept for", () => {
    const id = keepOutcome(7, "/projects/3/scoring", answer);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(readOutcome(7, "/projects/3/scoring", id)).toEqual(answer);
  });

  it.each([
    ["another account", 8, "/projects/3/scoring"],
    ["nobody signed in", null, "/projects/3/scoring"],
    ["another page", 7, "/projects/4/scoring"],
  ])("is not read by %s", (_what, owner, page) => {
    const id = keepOutcome(7, "/projects/3/scoring", answer);
    expect(readOutcome(owner, page, id)).toBeNull();
  });

  it("is not read after its time", () => {
    const now = Date.now();
    const id = keepOutcome(7, "/p", answer, now);
    expect(readOutcome(7, "/p", id, now + 14 * 60_000)).toEqual(answer);
    expect(readOutcome(7, "/p", id, now + 16 * 60_000)).toBeNull();
  });

  it.each(["../../etc/passwd", "abc", "0".repeat(31), ["x"], undefined, `${"a".repeat(32)}/`])("takes no id but its own shape: %s", (id) => {
    expect(readOutcome(7, "/p", id)).toBeNull();
  });

  it("kept signed out, it is read signed out only", () => {
    const id = keepOutcome(null, "/study/t", answer);
    expect(readOutcome(null, "/study/t", id)).toEqual(answer);
    expect(readOutcome(1, "/study/t", id)).toBeNull();
  });

  it("ids are not sequential", () => {
    const ids = new Set(Array.from({ length: 50 }, () => keepOutcome(1, "/p", answer)));
    expect(ids.size).toBe(50);
  });
});

describe("a browser's own form (a navigation), told from the page's script", () => {
  const req = (headers: Record<string, string>) => new Request("http://x/api", { method: "POST", headers });
  it.each([
    [{ "sec-fetch-mode": "navigate", accept: "*/*" }, true],
    [{ "sec-fetch-dest": "document" }, true],
    [{ accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }, true],
    [{ "sec-fetch-mode": "cors", accept: "*/*" }, false],
    [{ "sec-fetch-mode": "cors", "sec-fetch-dest": "empty", accept: "application/json" }, false],
    [{}, false],
  ])("%j: %s", (headers, native) => {
    expect(isNativeForm(req(headers))).toBe(native);
  });
});

describe("the sign-in forms' CSRF token", () => {
  it("is next-auth's: its check accepts the cookie and the token of a page", () => {
    const { token, cookie } = csrfToken(undefined, SECRET);
    expect(cookie).toBe(`${token}|${createHash("sha256").update(`${token}${SECRET}`).digest("hex")}`);
    const checked = createCSRFToken({ options: { secret: SECRET }, cookieValue: cookie!, isPost: true, bodyValue: token });
    expect(checked).toMatchObject({ csrfTokenVerified: true, csrfToken: token });
  });

  it("is the cookie's when the cookie is next-auth's, a new one when it was tampered with", () => {
    const first = csrfToken(undefined, SECRET);
    expect(csrfToken(first.cookie!, SECRET)).toEqual({ token: first.token, cookie: null });
    const forged = `${"f".repeat(64)}|${"0".repeat(64)}`;
    const fresh = csrfToken(forged, SECRET);
    expect(fresh.token).not.toBe("f".repeat(64));
    expect(fresh.cookie).not.toBeNull();
    // Signed with another secret: not ours.
    expect(csrfToken(csrfToken(undefined, "another-secret-0123456789abcdef0123456789").cookie!, SECRET).cookie).not.toBeNull();
  });

  /** The request headers the proxy hands the page (NextResponse.next's overrides). */
  function forwarded(res: Response): Map<string, string> {
    const names = (res.headers.get("x-middleware-override-headers") ?? "").split(",").filter(Boolean);
    return new Map(names.map((n) => [n, res.headers.get(`x-middleware-request-${n}`) ?? ""]));
  }

  it("reaches the sign-in page from the proxy with its cookie; a request cannot set it", async () => {
    const res = await proxy(new NextRequest("http://lexgold.test/signin", { headers: { [CSRF_HEADER]: "chosen-by-the-request" } }));
    const token = forwarded(res).get(CSRF_HEADER);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${csrfCookieName()}=`));
    expect(set).toMatch(/HttpOnly/i);
    expect(decodeURIComponent(set!.split(";")[0].split("=")[1]).split("|")[0]).toBe(token);
  });

  it("the cookie a browser holds gives the same token, and no new cookie", async () => {
    const { token, cookie } = csrfToken(undefined, SECRET);
    const res = await proxy(new NextRequest("http://lexgold.test/study/abc", { headers: { cookie: `${csrfCookieName()}=${encodeURIComponent(cookie!)}` } }));
    expect(forwarded(res).get(CSRF_HEADER)).toBe(token);
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${csrfCookieName()}=`))).toBe(false);
  });

  it("a page of someone signed out, other than signing in, gets none, whatever the request says", async () => {
    const res = await proxy(new NextRequest("http://lexgold.test/projects", { headers: { [CSRF_HEADER]: "chosen-by-the-request" } }));
    expect(forwarded(res).has(CSRF_HEADER)).toBe(false);
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${csrfCookieName()}=`))).toBe(false);
  });
});
