/**
 * The session check every request makes (lib/auth/session.ts over lib/auth/jwt.ts):
 * the cookie next-auth sets at sign-in is read with the derived key kept, and
 * still refused when forged, expired, of a disabled account or of a retired
 * session version; tokens are interchangeable with next-auth's own.
 */
import { encode as nextAuthEncode, decode as nextAuthDecode } from "next-auth/jwt";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import { decodeSessionToken, encodeSessionToken, sessionTokenOf } from "../../lib/auth/jwt";
import { world } from "./world";

const state = vi.hoisted(() => ({ db: null as unknown }));
vi.mock("../../db/client", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../db/client")>()),
  getDb: () => state.db,
}));

const { actorOfClaims, sessionClaims } = await import("../../lib/auth/session");

const SECRET = "test-secret-for-the-session-tests-0123456789";
const saved = process.env.NEXTAUTH_SECRET;
beforeEach(() => {
  process.env.NEXTAUTH_SECRET = SECRET;
});
afterEach(() => {
  if (saved === undefined) delete process.env.NEXTAUTH_SECRET;
  else process.env.NEXTAUTH_SECRET = saved;
});

describe("session tokens", () => {
  it("next-auth's own tokens decode with the kept key, and ours with next-auth's decode", async () => {
    const theirs = await nextAuthEncode({ token: { uid: 7, sv: 3, name: "ann" }, secret: SECRET, maxAge: 60 });
    expect(await decodeSessionToken({ token: theirs, secret: SECRET })).toMatchObject({ uid: 7, sv: 3, name: "ann" });
    const ours = await encodeSessionToken({ token: { uid: 8, sv: 1 }, secret: SECRET, maxAge: 60 });
    expect(await nextAuthDecode({ token: ours, secret: SECRET })).toMatchObject({ uid: 8, sv: 1 });
  });

  it("a token under another secret, a changed byte or one past its expiry is no session", async () => {
    const good = await encodeSessionToken({ token: { uid: 7, sv: 0, auth_time: Math.floor(Date.now() / 1000) }, secret: SECRET, maxAge: 60 });
    expect(await sessionClaims(good)).toEqual({ uid: 7, sv: 0 });
    const other = await encodeSessionToken({ token: { uid: 7, sv: 0, auth_time: Math.floor(Date.now() / 1000) }, secret: "another-secret-of-enough-length-0123456789", maxAge: 60 });
    expect(await sessionClaims(other)).toBeNull();
    const parts = good.split(".");
    const flip = (s: string) => (s[5] === "A" ? s.slice(0, 5) + "B" + s.slice(6) : s.slice(0, 5) + "A" + s.slice(6));
    expect(await sessionClaims([parts[0], parts[1], parts[2], flip(parts[3]), parts[4]].join("."))).toBeNull();
    expect(await sessionClaims("not-a-token")).toBeNull();
    expect(await sessionClaims(null)).toBeNull();
    vi.useFakeTimers({ now: Date.now() + 61_000 + 15_000 });
    try {
      expect(await sessionClaims(good)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("finding 6: a token is no session more than 12 hours after its sign-in, whatever its expiry says, nor without a sign-in time", async () => {
    const now = Math.floor(Date.now() / 1000);
    // Tokens as renewal leaves them: a fresh expiry (next-auth's own encode, which knows nothing of sign-in times).
    const renewed = (authTime?: number) => nextAuthEncode({ token: { uid: 7, sv: 0, ...(authTime ? { auth_time: authTime } : {}) }, secret: SECRET, maxAge: 12 * 3600 });
    expect(await sessionClaims(await renewed(now - 11 * 3600))).toEqual({ uid: 7, sv: 0 });
    expect(await sessionClaims(await renewed(now - 12 * 3600 - 60))).toBeNull();
    expect(await sessionClaims(await renewed())).toBeNull();
    // Ours never write an expiry past 12 hours after the sign-in.
    const ours = await encodeSessionToken({ token: { uid: 7, sv: 0, auth_time: now - 11 * 3600 }, secret: SECRET, maxAge: 12 * 3600 });
    const exp = Number((await decodeSessionToken({ token: ours, secret: SECRET }))!.exp);
    expect(exp).toBeLessThanOrEqual(now - 11 * 3600 + 12 * 3600);
  });

  it("the cookie is found whole or in next-auth's chunks, the __Secure- one first", () => {
    expect(sessionTokenOf([{ name: "next-auth.session-token", value: "abc" }])).toBe("abc");
    expect(
      sessionTokenOf([
        { name: "next-auth.session-token.1", value: "def" },
        { name: "next-auth.session-token.0", value: "abc" },
      ]),
    ).toBe("abcdef");
    expect(
      sessionTokenOf([
        { name: "next-auth.session-token", value: "plain" },
        { name: "__Secure-next-auth.session-token", value: "secure" },
      ]),
    ).toBe("secure");
    expect(sessionTokenOf([{ name: "other", value: "x" }])).toBeNull();
  });
});

describe("the user a session names", () => {
  it("is the account while it is enabled and the session's version is current", async () => {
    const w = world();
    state.db = w.db as Db;
    const sv = (w.db.$client.prepare("select session_version as sv from users where id = ?").get(w.ann.userId) as { sv: number }).sv;
    const claims = await sessionClaims(await encodeSessionToken({ token: { uid: w.ann.userId, sv, auth_time: Math.floor(Date.now() / 1000) }, secret: SECRET, maxAge: 60 }));
    expect(actorOfClaims(claims)).toEqual({ kind: "user", userId: w.ann.userId, name: "ann", role: "annotator" });
    // Sign-out (or a password change) bumps the version: the kept cookie opens nothing.
    w.db.$client.prepare("update users set session_version = session_version + 1 where id = ?").run(w.ann.userId);
    expect(actorOfClaims(claims)).toBeNull();
    w.db.$client.prepare("update users set session_version = ?, disabled = 1 where id = ?").run(sv, w.ann.userId);
    expect(actorOfClaims(claims)).toBeNull();
    expect(actorOfClaims({ uid: 99999, sv: 0 })).toBeNull();
  });
});
