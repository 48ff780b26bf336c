/**
 * The signed-in user of a session token, re-read from the database on every request: what
 * lib/auth/session.ts asks for Next's requests and the production server for the save it serves
 * itself (lib/serve). Nothing of Next here.
 *
 * The session cookie is next-auth's JWT, decoded here with the derived key kept
 * (lib/auth/jwt.ts), once per token (sessionClaims keeps what it said), rather
 * than through getServerSession, which derives the key, decodes, runs the
 * callbacks and re-encodes the token on every call, and in the App Router throws
 * the re-encoded cookie away: the token read is the same, its expiry (exp) is
 * checked on every request, and the user's row, read on every request, decides
 * the rest — disabled, or a session version bumped since the token was issued.
 * A session also ends 12 hours after its sign-in (the token's auth_time),
 * however often next-auth renewed the cookie's expiry.
 */
import "server-only";
import { getDb } from "../../db/client";
import type { Actor, UserActor } from "../server/kernel/actor";
import { get } from "../server/kernel/statements";
import { CLOCK_TOLERANCE, decodeSessionToken, signedInTooLongAgo } from "./jwt";
import { authSecret } from "../server/kernel/secret";
import { users } from "../../db/schema";
import { named } from "../../db/sql-names";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const USERS = named(users);

/**
 * Decoded tokens, kept: a token is decrypted once, not on every request (the decryption was most of
 * the session check's cost, and the workspace sends the same cookie with every save). What is kept
 * is only what the token itself says — its user id, session version, sign-in time and expiry — so
 * keeping it changes no decision: the expiry (with the decryption's clock tolerance) and the 12 hours
 * after the sign-in are checked again on every use, and whether the session is still current (the
 * account enabled, its session version unchanged: sign-out, a password change and disabling bump it)
 * is asked of the database on every request by actorOfClaims. Kept per secret (a new secret forgets
 * them all); at most `claimsLimit` tokens, the least recently used dropped first. A token that fails
 * to decode is never kept.
 */
interface KeptClaims {
  uid: number;
  sv: number;
  authTime: number;
  /** Epoch ms from which the decryption would refuse the token as expired. */
  until: number;
}
const kept = new Map<string, KeptClaims>();
let keptSecret: string | null = null;
let claimsLimit = 10_000;

/** For tests: how many decoded tokens are kept now, and (given) a new bound on them. */
export function keptSessionTokens(limit?: number): number {
  if (limit !== undefined) {
    claimsLimit = limit;
    while (kept.size > claimsLimit) kept.delete(kept.keys().next().value!);
  }
  return kept.size;
}

/** The user id and session version a session cookie carries, or null (none, forged, expired). */
export async function sessionClaims(token: string | null): Promise<{ uid: number; sv: number } | null> {
  if (!token) return null;
  const secret = authSecret();
  if (secret !== keptSecret) {
    kept.clear();
    keptSecret = secret;
  }
  const now = Date.now();
  const hit = kept.get(token);
  if (hit) {
    kept.delete(token);
    if (now < hit.until && !signedInTooLongAgo({ auth_time: hit.authTime }, now)) {
      kept.set(token, hit);
      return { uid: hit.uid, sv: hit.sv };
    }
    return null;
  }
  let payload: Record<string, unknown> | null;
  try {
    payload = await decodeSessionToken({ token, secret });
  } catch {
    return null;
  }
  const uid = Number(payload?.uid);
  if (!Number.isInteger(uid) || uid <= 0) return null;
  // 12 hours after the sign-in the session ends, whatever renewed its expiry.
  if (signedInTooLongAgo(payload)) return null;
  const sv = Number(payload?.sv ?? 0);
  const exp = Number(payload?.exp);
  // A token without an expiry is decrypted every time (next-auth's always carry one).
  if (Number.isFinite(exp) && claimsLimit > 0) {
    kept.set(token, { uid, sv, authTime: Number(payload?.auth_time), until: (exp + CLOCK_TOLERANCE) * 1000 });
    if (kept.size > claimsLimit) kept.delete(kept.keys().next().value!);
  }
  return { uid, sv };
}

/** The user a session's claims name, if the account still exists, is enabled and the session's version is current. */
export function actorOfClaims(claims: { uid: number; sv: number } | null): Actor {
  if (!claims) return null;
  // A prepared statement kept per connection (lib/server/kernel/statements.ts): every request asks this.
  const row = get<{ id: number; name: string; role: UserActor["role"] | "model"; disabled: number; sessionVersion: number }>(
    getDb(),
    `select ${USERS.id}, ${USERS.name}, ${USERS.role}, ${USERS.disabled}, ${USERS.sessionVersion} as sessionVersion from ${USERS.$} where ${USERS.id} = ?`,
    claims.uid,
  );
  // A model's pseudo-annotator (lib/server/models) is never anyone's session.
  if (!row || row.disabled || row.role === "model") return null;
  // Sign-out, a password change or reset, disabling and removal from a project bump the version.
  if (row.sessionVersion !== claims.sv) return null;
  return { kind: "user", userId: row.id, name: row.name, role: row.role };
}

/** The user a session token (the cookie's value) names, checked as on every request; null for none, forged, expired or ended. */
export async function actorOfToken(token: string | null): Promise<Actor> {
  return actorOfClaims(await sessionClaims(token));
}

/**
 * The user id of a token decoded before and still unexpired, or null: synchronous, nothing decoded
 * (the save's early refusal, lib/server/annotate/save-request.ts, reads it before anything else).
 */
export function knownUserId(token: string | null, now = Date.now()): number | null {
  if (!token) return null;
  const hit = kept.get(token);
  return hit && now < hit.until && !signedInTooLongAgo({ auth_time: hit.authTime }, now) ? hit.uid : null;
}

/**
 * A Cookie header read as Next reads it for cookies() (@edge-runtime/cookies): pairs split at
 * "; ", values percent-decoded (a pair that does not decode is dropped), a name given twice keeps
 * its last value — so the token found here is the one Next's route would find.
 */
export function parseCookies(header: string | undefined): Array<{ name: string; value: string }> {
  const map = new Map<string, string>();
  if (!header) return [];
  for (const pair of header.split(/; */)) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    if (eq === -1) {
      map.set(pair, "true");
      continue;
    }
    try {
      map.set(pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1)));
    } catch {
      /* not percent-encoding: left out, as Next leaves it out */
    }
  }
  return [...map].map(([name, value]) => ({ name, value }));
}
