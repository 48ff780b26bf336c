/**
 * next-auth's session JWT (v4's format: a JWE, "dir" + A256GCM, with a key derived
 * from the secret by HKDF-SHA256), encoded and decoded with the derived key kept
 * per secret. next-auth's own encode/decode derive the key again on every call,
 * and getServerSession decodes, runs the callbacks and re-encodes the token on
 * every request (in the App Router the re-encoded cookie is thrown away). Here a
 * request costs one AES-GCM decryption; tokens stay interchangeable with
 * next-auth's (test/security/auth.test.ts signs in through next-auth itself).
 */
import "server-only";
import { hkdfSync, randomUUID } from "node:crypto";
import { EncryptJWT, type JWTPayload, jwtDecrypt } from "jose";
import type { JWT, JWTDecodeParams, JWTEncodeParams } from "next-auth/jwt";

/** Seconds of clock skew accepted on exp / iat, as next-auth's decode does. */
export const CLOCK_TOLERANCE = 15;
/** A session's whole life: 12 hours from the sign-in, renewals or not. */
export const SESSION_MAX_AGE_S = 12 * 60 * 60;
const DEFAULT_MAX_AGE = SESSION_MAX_AGE_S;

/**
 * Whether a session token is past its 12 hours: it carries no sign-in time
 * (auth_time, seconds) or one more than SESSION_MAX_AGE_S ago.
 */
export function signedInTooLongAgo(token: object | null | undefined, now = Date.now()): boolean {
  const at = Number((token as { auth_time?: unknown } | null | undefined)?.auth_time);
  if (!Number.isFinite(at) || at <= 0) return true;
  return now / 1000 - at > SESSION_MAX_AGE_S;
}

const keys = new Map<string, Uint8Array>();

/** The encryption key next-auth derives from a secret (and salt), derived once. */
function derivedKey(secret: string, salt = ""): Uint8Array {
  const id = `${salt}\0${secret}`;
  let key = keys.get(id);
  if (!key) {
    const info = `NextAuth.js Generated Encryption Key${salt ? ` (${salt})` : ""}`;
    key = new Uint8Array(hkdfSync("sha256", secret, salt, info, 32));
    if (keys.size > 8) keys.clear();
    keys.set(id, key);
  }
  return key;
}

function secretOf(secret: string | Buffer): string {
  return typeof secret === "string" ? secret : secret.toString("utf8");
}

/** next-auth's jwt.encode, with the key derived once. */
export async function encodeSessionToken(params: JWTEncodeParams): Promise<string> {
  const { token = {}, secret, maxAge = DEFAULT_MAX_AGE, salt = "" } = params;
  const now = Math.floor(Date.now() / 1000);
  // Never past 12 hours after the sign-in, however often the token is renewed.
  const signedInAt = Number((token as { auth_time?: unknown }).auth_time);
  const exp = Number.isFinite(signedInAt) && signedInAt > 0 ? Math.min(now + maxAge, signedInAt + SESSION_MAX_AGE_S) : now + maxAge;
  return new EncryptJWT(token as JWTPayload)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt()
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .encrypt(derivedKey(secretOf(secret), salt));
}

/** next-auth's jwt.decode, with the key derived once: the payload, or null for no token. Throws on a bad or expired token. */
export async function decodeSessionToken(params: JWTDecodeParams): Promise<JWT | null> {
  const { token, secret, salt = "" } = params;
  if (!token) return null;
  const { payload } = await jwtDecrypt(token, derivedKey(secretOf(secret), salt), { clockTolerance: CLOCK_TOLERANCE });
  return payload as JWT;
}

/** The session cookie names next-auth uses (https deployments: the __Secure- one), in the order to look. */
const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"] as const;

/**
 * The session token in a request's cookies: the whole cookie, or next-auth's
 * chunks (name.0, name.1, …, used when a token passes 4 KB) joined in order.
 */
export function sessionTokenOf(cookies: ReadonlyArray<{ name: string; value: string }>): string | null {
  for (const name of SESSION_COOKIES) {
    const whole = cookies.find((c) => c.name === name);
    if (whole?.value) return whole.value;
    const chunks = cookies
      .filter((c) => c.name.startsWith(`${name}.`) && /^\d+$/.test(c.name.slice(name.length + 1)))
      .sort((a, b) => Number(a.name.slice(name.length + 1)) - Number(b.name.slice(name.length + 1)));
    if (chunks.length > 0) return chunks.map((c) => c.value).join("");
  }
  return null;
}
