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

const sessionModule = await import("../../lib/auth/session");
const { actorOfClaims, sessionClaims } = sessionModule;

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

describe("a model's pseudo-annotator (lib/server/models)", () => {
  it("is never anyone's session, whatever a token names", async () => {
    const w = world();
    state.db = w.db as Db;
    const u = w.db.$client.prepare("insert into users (name, role, password_hash) values ('model:1:m:1', 'model', '!model') returning id, session_version as sv").get() as { id: number; sv: number };
    const claims = await sessionClaims(await encodeSessionToken({ token: { uid: u.id, sv: u.sv, auth_time: Math.floor(Date.now() / 1000) }, secret: SECRET, maxAge: 60 }));
    expect(claims).not.toBeNull();
    expect(actorOfClaims(claims)).toBeNull();
  });

  it("never signs in, whatever is typed", async () => {
    const w = world();
    const { signInWithPassword } = await import("../../lib/server/people/signin");
    w.db.$client.prepare("insert into users (name, role, password_hash) values ('model:1:m:1', 'model', '!model')").run();
    for (const password of ["!model", "", "anything-at-all"]) {
      expect(await signInWithPassword(w.db as Db, { name: "model:1:m:1", password, client: "127.0.0.1", deviceCookie: null, secret: SECRET })).toMatchObject({ ok: false, reason: "invalid" });
    }
  });
});

describe("decoded tokens kept between requests", () => {
  const { keptSessionTokens } = sessionModule;
  const now = () => Math.floor(Date.now() / 1000);

  it("a kept token still ends at its expiry and 12 hours after its sign-in", async () => {
    const token = await encodeSessionToken({ token: { uid: 7, sv: 2, auth_time: now() }, secret: SECRET, maxAge: 60 });
    expect(await sessionClaims(token)).toEqual({ uid: 7, sv: 2 });
    expect(await sessionClaims(token)).toEqual({ uid: 7, sv: 2 });
    vi.useFakeTimers({ now: Date.now() + 30_000 });
    try {
      expect(await sessionClaims(token)).toEqual({ uid: 7, sv: 2 });
      // Past the expiry and the decryption's 15 s of tolerance: refused, as the decryption refuses it.
      vi.setSystemTime(Date.now() + 31_000 + 15_000);
      expect(await sessionClaims(token)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
    // A renewed cookie (next-auth's encode: a fresh expiry, the sign-in time carried over) ends 12 hours after the sign-in.
    const renewed = await nextAuthEncode({ token: { uid: 7, sv: 2, auth_time: now() - 12 * 3600 + 60 }, secret: SECRET, maxAge: 12 * 3600 });
    expect(await sessionClaims(renewed)).toEqual({ uid: 7, sv: 2 });
    vi.useFakeTimers({ now: Date.now() + 120_000 });
    try {
      expect(await sessionClaims(renewed)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("a token decoded under one secret opens nothing once the secret changed", async () => {
    const token = await encodeSessionToken({ token: { uid: 7, sv: 0, auth_time: now() }, secret: SECRET, maxAge: 60 });
    expect(await sessionClaims(token)).toEqual({ uid: 7, sv: 0 });
    process.env.NEXTAUTH_SECRET = "another-secret-of-enough-length-0123456789";
    expect(await sessionClaims(token)).toBeNull();
  });

  it("a forged token is never kept", async () => {
    const before = keptSessionTokens();
    expect(await sessionClaims("not-a-token")).toBeNull();
    const noSignIn = await encodeSessionToken({ token: { uid: 7, sv: 0 }, secret: SECRET, maxAge: 60 });
    expect(await sessionClaims(noSignIn)).toBeNull();
    expect(keptSessionTokens()).toBe(before);
  });

  it("the session version is checked on every request: sign-out refuses the kept token's next request", async () => {
    const w = world();
    state.db = w.db as Db;
    const sv = (w.db.$client.prepare("select session_version as sv from users where id = ?").get(w.ann.userId) as { sv: number }).sv;
    const token = await encodeSessionToken({ token: { uid: w.ann.userId, sv, auth_time: now() }, secret: SECRET, maxAge: 60 });
    expect(actorOfClaims(await sessionClaims(token))).toMatchObject({ kind: "user", userId: w.ann.userId });
    expect(actorOfClaims(await sessionClaims(token))).toMatchObject({ kind: "user", userId: w.ann.userId });
    w.db.$client.prepare("update users set session_version = session_version + 1 where id = ?").run(w.ann.userId);
    expect(actorOfClaims(await sessionClaims(token))).toBeNull();
    w.db.$client.prepare("update users set session_version = ?, disabled = 1 where id = ?").run(sv, w.ann.userId);
    expect(actorOfClaims(await sessionClaims(token))).toBeNull();
  });

  it("at most the bound of tokens is kept, the least recently used dropped first", async () => {
    const limit = 3;
    keptSessionTokens(limit);
    try {
      const tokens = await Promise.all([1, 2, 3, 4].map((uid) => encodeSessionToken({ token: { uid, sv: 0, auth_time: now() }, secret: SECRET, maxAge: 60 })));
      for (const t of tokens.slice(0, 3)) await sessionClaims(t);
      expect(keptSessionTokens()).toBe(3);
      // Token 1 used again: token 2 is now the least recently used, and goes when token 4 comes.
      await sessionClaims(tokens[0]);
      await sessionClaims(tokens[3]);
      expect(keptSessionTokens()).toBe(3);
      // Each still opens its session (a dropped one is decoded again).
      for (const [i, t] of tokens.entries()) expect(await sessionClaims(t)).toEqual({ uid: i + 1, sv: 0 });
      expect(keptSessionTokens()).toBe(3);
    } finally {
      keptSessionTokens(10_000);
    }
  });
});
