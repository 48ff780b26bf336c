/**
 * Sign-in with a throttle no stranger can turn against a user (OWASP's "device
 * cookie" pattern):
 *  - a browser holding a valid device cookie for the account (set after an
 *    earlier successful sign-in) is limited only by its own failures;
 *  - any other browser is refused for an account after ACCOUNT_LIMIT failures
 *    from untrusted browsers in the window, and a client address is refused after
 *    CLIENT_LIMIT failures of its own (any names) — addresses come from the socket
 *    or a trusted proxy (lib/net/trusted-proxy.ts), never from a header the client
 *    writes.
 * Every failure is recorded (name typed, when, address, device, whether the
 * throttle refused it unchecked) for coordinators to see.
 */
import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, count, eq, gt, isNull, lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { signInFailures, users } from "../../db/schema";
import type { Role } from "./actor";
import { checkPassword } from "./passwords";

export const ACCOUNT_LIMIT = Number(process.env.LEXGOLD_SIGNIN_LIMIT ?? 5);
export const CLIENT_LIMIT = Number(process.env.LEXGOLD_SIGNIN_CLIENT_LIMIT ?? 30);
export const DEVICE_LIMIT = ACCOUNT_LIMIT;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failures are kept this long for the failed sign-ins page, then dropped. */
export const FAILURE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export const DEVICE_COOKIE = "lexgold-device";
export const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

export type SignInResult =
  | { ok: true; user: { id: number; name: string; role: Role; sessionVersion: number } }
  | { ok: false; reason: "invalid" | "rate-limited" };

function sign(secret: string, name: string, id: string): string {
  return createHmac("sha256", secret).update(`lexgold-device:v1:${name}:${id}`).digest("base64url");
}

/** A fresh device cookie value for the account (its name, lower-cased, is bound into the signature). */
export function makeDeviceCookie(secret: string, userName: string): string {
  const name = userName.toLowerCase();
  const id = randomBytes(12).toString("base64url");
  return `v1.${Buffer.from(name).toString("base64url")}.${id}.${sign(secret, name, id)}`;
}

/** The device id when the cookie is valid for this name, else null. */
export function deviceIdFor(secret: string, cookie: string | null | undefined, userName: string): string | null {
  if (!cookie) return null;
  const parts = cookie.split(".");
  if (parts.length !== 4 || parts[0] !== "v1") return null;
  const name = userName.toLowerCase();
  if (Buffer.from(parts[1], "base64url").toString() !== name) return null;
  const want = Buffer.from(sign(secret, name, parts[2]));
  const got = Buffer.from(parts[3]);
  return want.length === got.length && timingSafeEqual(want, got) ? parts[2] : null;
}

export interface SignInAttempt {
  name: string;
  password: string;
  /** The client's address, or null when it cannot be known (then no per-client limit applies). */
  client: string | null;
  /** The device cookie the browser sent, if any. */
  deviceCookie: string | null;
  secret: string;
}

function failuresSince(db: Db, where: ReturnType<typeof and>, since: number): number {
  return db.select({ n: count() }).from(signInFailures).where(and(where, gt(signInFailures.at, new Date(since)))).get()!.n;
}

/** Whether this attempt is refused before its password is even checked. */
function throttled(db: Db, key: string, client: string | null, device: string | null, now: number): boolean {
  const since = now - SIGN_IN_WINDOW_MS;
  if (device) return failuresSince(db, eq(signInFailures.device, device), since) >= DEVICE_LIMIT;
  if (failuresSince(db, and(eq(signInFailures.key, key), isNull(signInFailures.device)), since) >= ACCOUNT_LIMIT) return true;
  if (client && failuresSince(db, and(eq(signInFailures.client, client), isNull(signInFailures.device)), since) >= CLIENT_LIMIT) return true;
  return false;
}

/**
 * Check a name and password under the throttle. The password check is bcrypt
 * off the request thread's critical path (async), with the same work for
 * unknown names as for real ones.
 */
export async function signInWithPassword(db: Db, a: SignInAttempt): Promise<SignInResult> {
  const now = Date.now();
  const key = a.name.toLowerCase();
  const device = deviceIdFor(a.secret, a.deviceCookie, key);
  db.delete(signInFailures).where(lt(signInFailures.at, new Date(now - FAILURE_RETENTION_MS))).run();
  if (throttled(db, key, a.client, device, now)) {
    // Recorded too (and counted: an address that keeps trying stays throttled), but no password is checked.
    db.insert(signInFailures).values({ key, at: new Date(now), client: a.client ?? "unknown", device, throttled: true }).run();
    return { ok: false, reason: "rate-limited" };
  }
  const row = db
    .select({ id: users.id, name: users.name, role: users.role, passwordHash: users.passwordHash, disabled: users.disabled, sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.name, a.name))
    .get();
  const matches = await checkPassword(a.password, row?.passwordHash);
  if (!matches || !row || row.disabled) {
    db.insert(signInFailures).values({ key, at: new Date(Date.now()), client: a.client ?? "unknown", device }).run();
    return { ok: false, reason: "invalid" };
  }
  return { ok: true, user: { id: row.id, name: row.name, role: row.role, sessionVersion: row.sessionVersion } };
}
