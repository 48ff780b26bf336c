/** The signed-in user, re-read from the database on every request. */
import "server-only";
import { eq } from "drizzle-orm";
import { getServerSession } from "next-auth";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "../../db/client";
import { users } from "../../db/schema";
import type { Actor, UserActor } from "../server/actor";
import { authOptions } from "./options";
import { signInHref } from "./return-to";

export async function getActor(): Promise<Actor> {
  const session = await getServerSession(authOptions());
  const uid = (session?.user as { uid?: number } | undefined)?.uid;
  if (!uid) return null;
  const row = getDb()
    .select({ id: users.id, name: users.name, role: users.role, disabled: users.disabled, sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.id, uid))
    .get();
  if (!row || row.disabled) return null;
  // Sign-out, a password change or reset, disabling and removal from a project bump the version.
  if (row.sessionVersion !== (session as { sv?: number } | null)?.sv) return null;
  return { kind: "user", userId: row.id, name: row.name, role: row.role };
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
