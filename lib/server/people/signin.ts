/**
 * Sign-in under a throttle that slows guessing down without letting strangers
 * lock anyone out (OWASP's authentication guidance: progressive delays, device
 * cookies, a hard limit):
 *
 *  - Slow-down. Who is slowed is a browser holding a valid device cookie for
 *    the account (set after an earlier successful sign-in, bound to the
 *    account's id) by its own failures, or else the account from one client
 *    address (IPv6: its /64). The first FREE_FAILURES failures in the last hour
 *    cost nothing; after k failures the next password check waits
 *    2^(k − FREE_FAILURES) s after the previous failure (1 s, 2 s, 4 s, … at most
 *    MAX_DELAY_MS). An attempt that comes sooner is answered "retry after N s"
 *    unchecked; it is recorded but counts for nothing, so refused attempts never
 *    extend a wait. A stranger's failures from elsewhere never slow a new browser.
 *  - Ceilings (hard limits against brute force; device-cookie failures count
 *    toward them too): ACCOUNT_CEILING failed checks for an account in an hour
 *    stop every check for it from browsers without its device cookie until the
 *    oldest ages out or a coordinator or admin lifts the lock (liftSignInLock);
 *    CLIENT_LIMIT failed checks from one address in 15 minutes (any names) stop
 *    that address's checks from such browsers until they age out. A browser with
 *    the account's device cookie is held only by its own failures (the slow-down
 *    above: about 20 checks an hour at most), so no stranger can lock out a
 *    browser its owner has signed in from.
 *  - The checks themselves wait at a bounded, prioritised gate (signin-gate.ts):
 *    known browsers first, then addresses without a recent failure, then the rest.
 *
 * Addresses come from the socket or a trusted proxy (lib/net/trusted-proxy.ts),
 * never from a header the client writes. Every failure is recorded (name typed,
 * when, address, device, whether it was refused unchecked) for coordinators.
 */
import "server-only";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { accountAudit, memberships, signInFailures, users } from "../../../db/schema";
import { setting } from "../../config";
import { type Actor, actorUserId, requireAccountManager, type Role } from "../kernel/actor";
import { AuthError, InputError, NotFoundError } from "../kernel/errors";
import { named } from "../../../db/sql-names";
import { checkPassword } from "./passwords";
import { clientKey, GateBusyError, signInGate } from "./signin-gate";
import { projectIdsOf } from "./users";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const F = named(signInFailures, "f");
const SIGN_IN_FAILURES = named(signInFailures);
const USERS = named(users);

/** Failures (per device, or per account and address) that cost no wait. */
export const FREE_FAILURES = setting("LEXGOLD_SIGNIN_LIMIT");
/** The longest wait between two checks. */
export const MAX_DELAY_MS = 15 * 60 * 1000;
/** How far back failures count for the slow-down and the account ceiling. */
export const SLOW_DOWN_WINDOW_MS = 60 * 60 * 1000;
/** Failed checks for one account in SLOW_DOWN_WINDOW_MS (every browser) after which no check is made. */
export const ACCOUNT_CEILING = setting("LEXGOLD_SIGNIN_ACCOUNT_CEILING");
/** Failed checks from one address (IPv6: /64) in SIGN_IN_WINDOW_MS after which its checks stop. */
export const CLIENT_LIMIT = setting("LEXGOLD_SIGNIN_CLIENT_LIMIT");
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
/** Failures are kept this long for the failed sign-ins page, then dropped. */
export const FAILURE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

export const DEVICE_COOKIE = "lexgold-device";
export const DEVICE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** The wait before the next check after `failures` counted failures. */
export function slowDownMs(failures: number): number {
  if (failures < FREE_FAILURES) return 0;
  return Math.min(1000 * 2 ** (failures - FREE_FAILURES), MAX_DELAY_MS);
}

export type SignInResult =
  | { ok: true; user: { id: number; name: string; role: Role; sessionVersion: number } }
  | { ok: false; reason: "invalid" }
  /** Refused unchecked: too soon after failures (slow-down), or a ceiling reached. */
  | { ok: false; reason: "rate-limited"; retryAfterS: number }
  /** Refused unchecked: too many checks waiting (the gate). */
  | { ok: false; reason: "busy"; retryAfterS: number };

function sign(secret: string, userId: number, id: string): string {
  return createHmac("sha256", secret).update(`lexgold-device:v2:${userId}:${id}`).digest("base64url");
}

/** A fresh device cookie value for the account, bound to its id. */
export function makeDeviceCookie(secret: string, userId: number): string {
  const id = randomBytes(12).toString("base64url");
  return `v2.${userId}.${id}.${sign(secret, userId, id)}`;
}

/** The device id when the cookie is valid for this account, else null. */
export function deviceIdFor(secret: string, cookie: string | null | undefined, userId: number | null | undefined): string | null {
  if (!cookie || !userId) return null;
  const parts = cookie.split(".");
  if (parts.length !== 4 || parts[0] !== "v2" || parts[1] !== String(userId)) return null;
  const want = Buffer.from(sign(secret, userId, parts[2]));
  const got = Buffer.from(parts[3]);
  return want.length === got.length && timingSafeEqual(want, got) ? parts[2] : null;
}

export interface SignInAttempt {
  name: string;
  password: string;
  /** The client's address, or null when it cannot be known (then it counts as "unknown"). */
  client: string | null;
  /** The device cookie the browser sent, if any. */
  deviceCookie: string | null;
  secret: string;
}

type Counted = { n: number; last: number | null };

function counted(db: Db, where: string, args: unknown[]): Counted {
  const r = db.$client.prepare(`select count(*) as n, max(${SIGN_IN_FAILURES.at}) as last from ${SIGN_IN_FAILURES.$} where ${SIGN_IN_FAILURES.throttled} = 0 and ${where}`).get(...args) as Counted;
  return { n: r.n, last: r.last === null ? null : Number(r.last) };
}

/** The account's row by name, whatever the case typed. */
function accountNamed(db: Db, name: string) {
  return db
    .select({
      id: users.id,
      name: users.name,
      role: users.role,
      passwordHash: users.passwordHash,
      disabled: users.disabled,
      sessionVersion: users.sessionVersion,
      clearedAt: users.signInClearedAt,
    })
    .from(users)
    .where(sql`${users.name} = ${name} collate nocase`)
    .get();
}

/**
 * Seconds until this attempt may be checked (0: now), and the client's failed
 * checks in the last 15 minutes. Counts only checked failures, never refusals.
 */
function waitFor(db: Db, key: string, client: string, device: string | null, clearedAt: number, now: number): { retryAfterS: number; clientFailures: number } {
  const hour = Math.max(now - SLOW_DOWN_WINDOW_MS, clearedAt);
  const wait: number[] = [];
  const account = counted(db, `${SIGN_IN_FAILURES.key} = ? and ${SIGN_IN_FAILURES.at} > ?`, [key, hour]);
  // The ceilings stop browsers the account has never signed in from; a known browser
  // (a valid device cookie) is held only by its own failures, so strangers never lock its owner out.
  if (!device && account.n >= ACCOUNT_CEILING) {
    // The oldest counted failure ages out of the hour: then one more check is allowed.
    const oldest = db.$client.prepare(`select ${SIGN_IN_FAILURES.at} from ${SIGN_IN_FAILURES.$} where ${SIGN_IN_FAILURES.throttled} = 0 and ${SIGN_IN_FAILURES.key} = ? and ${SIGN_IN_FAILURES.at} > ? order by ${SIGN_IN_FAILURES.at} desc limit 1 offset ?`).get(key, hour, ACCOUNT_CEILING - 1) as { at: number };
    wait.push(Number(oldest.at) + SLOW_DOWN_WINDOW_MS - now);
  }
  const fromClient = counted(db, `${SIGN_IN_FAILURES.client} = ? and ${SIGN_IN_FAILURES.at} > ?`, [client, now - SIGN_IN_WINDOW_MS]);
  if (!device && fromClient.n >= CLIENT_LIMIT) {
    const oldest = db.$client.prepare(`select ${SIGN_IN_FAILURES.at} from ${SIGN_IN_FAILURES.$} where ${SIGN_IN_FAILURES.throttled} = 0 and ${SIGN_IN_FAILURES.client} = ? and ${SIGN_IN_FAILURES.at} > ? order by ${SIGN_IN_FAILURES.at} desc limit 1 offset ?`).get(client, now - SIGN_IN_WINDOW_MS, CLIENT_LIMIT - 1) as { at: number };
    wait.push(Number(oldest.at) + SIGN_IN_WINDOW_MS - now);
  }
  const own = device ? counted(db, `${SIGN_IN_FAILURES.device} = ? and ${SIGN_IN_FAILURES.at} > ?`, [device, hour]) : counted(db, `${SIGN_IN_FAILURES.key} = ? and ${SIGN_IN_FAILURES.client} = ? and ${SIGN_IN_FAILURES.device} is null and ${SIGN_IN_FAILURES.at} > ?`, [key, client, hour]);
  if (own.last !== null) wait.push(own.last + slowDownMs(own.n) - now);
  const ms = Math.max(0, ...wait);
  return { retryAfterS: ms > 0 ? Math.ceil(ms / 1000) : 0, clientFailures: fromClient.n };
}

function record(db: Db, row: { key: string; client: string; device: string | null; throttled?: boolean }): void {
  db.insert(signInFailures).values({ ...row, at: new Date(Date.now()), throttled: row.throttled ?? false }).run();
}

let lastPurge = 0;

/**
 * Check a name (any case) and password under the throttle and the gate. The
 * check is bcrypt on the hash pool, with the same work for unknown names as for
 * real ones; identity is the row found here, never anything else in the request.
 */
export async function signInWithPassword(db: Db, a: SignInAttempt): Promise<SignInResult> {
  const now = Date.now();
  const key = a.name.toLowerCase();
  const client = clientKey(a.client);
  // Old failures go at most once a minute per process: not a write on every attempt of a flood.
  if (now - lastPurge > 60_000) {
    lastPurge = now;
    db.delete(signInFailures).where(lt(signInFailures.at, new Date(now - FAILURE_RETENTION_MS))).run();
  }
  const row = accountNamed(db, a.name);
  const device = deviceIdFor(a.secret, a.deviceCookie, row?.id);
  const { retryAfterS, clientFailures } = waitFor(db, key, client, device, row?.clearedAt?.getTime() ?? 0, now);
  if (retryAfterS > 0) {
    // Recorded for coordinators to see, but it counts for nothing: refusals never extend a wait.
    record(db, { key, client, device, throttled: true });
    return { ok: false, reason: "rate-limited", retryAfterS };
  }
  let matches: boolean;
  try {
    // Known browsers first, then clients with no recent failure (a new annotator), then the rest.
    const priority = device !== null ? "known" : clientFailures === 0 ? "clean" : "others";
    // A crowd participant's account has no password: it signs in only by its study link (lib/server/crowd),
    // so whatever is typed is checked against nothing (the same work as for an unknown name) and refused.
    // A model's pseudo-annotator (lib/server/models) has none either and never signs in.
    const hash = row?.role === "participant" || row?.role === "model" ? undefined : row?.passwordHash;
    matches = await signInGate().run({ client, priority }, () => checkPassword(a.password, hash));
  } catch (e) {
    if (e instanceof GateBusyError) return { ok: false, reason: "busy", retryAfterS: e.retryAfterS };
    throw e;
  }
  if (!matches || !row || row.disabled || row.role === "participant" || row.role === "model") {
    record(db, { key, client, device });
    return { ok: false, reason: "invalid" };
  }
  return { ok: true, user: { id: row.id, name: row.name, role: row.role, sessionVersion: row.sessionVersion } };
}

export interface SignInLock {
  /** Failed checks counted now (the last hour, since any lift). */
  failures: number;
  /** The account ceiling is reached: no check for a browser without the account's device cookie. */
  locked: boolean;
}

/** The accounts whose sign-in is slowed down or locked now: FREE_FAILURES or more failures counted against them. Account managers only. */
export function signInLocks(db: Db, actor: Actor, accounts: ReadonlyArray<{ id: number; name: string }>): Map<number, SignInLock> {
  requireAccountManager(actor);
  const out = new Map<number, SignInLock>();
  if (accounts.length === 0) return out;
  const since = Date.now() - SLOW_DOWN_WINDOW_MS;
  const stmt = db.$client.prepare(
    `select count(*) as n from ${F.$} where ${F.throttled} = 0 and ${F.key} = ? and ${F.at} > max(?, coalesce((select ${USERS.signInClearedAt} from ${USERS.$} where ${USERS.id} = ?), 0))`,
  );
  for (const u of accounts) {
    const n = (stmt.get(u.name.toLowerCase(), since, u.id) as { n: number }).n;
    if (n >= FREE_FAILURES) out.set(u.id, { failures: n, locked: n >= ACCOUNT_CEILING });
  }
  return out;
}

/**
 * Lift an account's sign-in lock: its failures so far no longer count, for the
 * slow-down or the ceiling (they stay listed). An admin may lift any account's;
 * a coordinator only an account whose every project membership lies in projects
 * they coordinate (so not one shared with a project they do not run).
 */
export function liftSignInLock(db: Db, actor: Actor, userId: unknown): { name: string } {
  const a = requireAccountManager(actor);
  const id = typeof userId === "string" && userId.trim() !== "" ? Number(userId) : userId;
  if (typeof id !== "number" || !Number.isInteger(id)) throw new InputError("Choose an account.", { userId: "Choose an account." });
  const u = db.select({ id: users.id, name: users.name, role: users.role }).from(users).where(eq(users.id, id)).get();
  if (!u) throw new NotFoundError("No such account.");
  if (a.kind === "user" && a.role !== "admin") {
    const mine = new Set(projectIdsOf(db, a.userId));
    const theirs = db.select({ p: memberships.projectId }).from(memberships).where(eq(memberships.userId, u.id)).all().map((r) => r.p);
    // Accounts outside the coordinator's projects stay invisible.
    if (!theirs.some((p) => mine.has(p))) throw new NotFoundError("No such account.");
    if (u.role === "admin") throw new AuthError("Admin accounts are managed by an admin.");
    if (!theirs.every((p) => mine.has(p))) throw new AuthError("This account is also in a project you do not coordinate: ask an admin to lift its lock.");
  }
  db.transaction((tx) => {
    tx.update(users).set({ signInClearedAt: new Date() }).where(and(eq(users.id, u.id))).run();
    tx.insert(accountAudit).values({ at: new Date(), actorId: actorUserId(a), action: "sign-in-unlock", targetId: u.id }).run();
  });
  return { name: u.name };
}
