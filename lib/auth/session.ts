/**
 * The signed-in user, re-read from the database on every request.
 *
 * The session cookie is next-auth's JWT, decoded here with the derived key kept
 * (lib/auth/jwt.ts) rather than through getServerSession, which derives the key,
 * decodes, runs the callbacks and re-encodes the token on every call, and in the
 * App Router throws the re-encoded cookie away: the token read is the same, its
 * expiry (exp, checked by the decryption) is the same, and the user's row decides
 * the rest — disabled, or a session version bumped since the token was issued.
 * A session also ends 12 hours after its sign-in (the token's auth_time),
 * however often next-auth renewed the cookie's expiry.
 */
import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "../../db/client";
import type { Actor, UserActor } from "../server/kernel/actor";
import { get } from "../server/kernel/statements";
import { decodeSessionToken, sessionTokenOf, signedInTooLongAgo } from "./jwt";
import { authSecret } from "../server/kernel/secret";
import { signInHref } from "./return-to";
import { users } from "../../db/schema";
import { named } from "../../db/sql-names";

// Tables and columns for the SQL texts below (db/sql-names.ts).
const USERS = named(users);

/** The user id and session version a session cookie carries, or null (none, forged, expired). */
export async function sessionClaims(token: string | null): Promise<{ uid: number; sv: number } | null> {
  if (!token) return null;
  let payload: Record<string, unknown> | null;
  try {
    payload = await decodeSessionToken({ token, secret: authSecret() });
  } catch {
    return null;
  }
  const uid = Number(payload?.uid);
  if (!Number.isInteger(uid) || uid <= 0) return null;
  // 12 hours after the sign-in the session ends, whatever renewed its expiry.
  if (signedInTooLongAgo(payload)) return null;
  return { uid, sv: Number(payload?.sv ?? 0) };
}

/** The user a session's claims name, if the account still exists, is enabled and the session's version is current. */
export function actorOfClaims(claims: { uid: number; sv: number } | null): Actor {
  if (!claims) return null;
  // A prepared statement kept per connection (lib/server/kernel/statements.ts): every request asks this.
  const row = get<{ id: number; name: string; role: UserActor["role"]; disabled: number; sessionVersion: number }>(
    getDb(),
    `select ${USERS.id}, ${USERS.name}, ${USERS.role}, ${USERS.disabled}, ${USERS.sessionVersion} as sessionVersion from ${USERS.$} where ${USERS.id} = ?`,
    claims.uid,
  );
  if (!row || row.disabled) return null;
  // Sign-out, a password change or reset, disabling and removal from a project bump the version.
  if (row.sessionVersion !== claims.sv) return null;
  return { kind: "user", userId: row.id, name: row.name, role: row.role };
}

export async function getActor(): Promise<Actor> {
  return actorOfClaims(await sessionClaims(sessionTokenOf((await cookies()).getAll())));
}

/** For pages: the signed-in user, or a redirect to the sign-in page. */
export async function requireUserPage(): Promise<UserActor> {
  const a = await getActor();
  // Back to this page after signing in (proxy.ts passes the path it was asked for).
  if (!a || a.kind !== "user") redirect(signInHref((await headers()).get("x-lexgold-path") ?? "/"));
  return a;
}

/** For coordinator pages: annotators are sent to their workspace. */
export async function requireCoordinatorPage(): Promise<UserActor> {
  const a = await requireUserPage();
  if (a.role !== "coordinator") redirect("/annotate");
  return a;
}
