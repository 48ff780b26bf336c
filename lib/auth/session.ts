/**
 * The signed-in user of Next's request: its session cookie, checked as on every request by
 * lib/auth/session-token.ts (decoded once per token, the user's row read every time).
 */
import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import type { Actor, UserActor } from "../server/kernel/actor";
import { sessionTokenOf } from "./jwt";
import { actorOfToken } from "./session-token";
import { signInHref } from "./return-to";

export { actorOfClaims, keptSessionTokens, sessionClaims } from "./session-token";

export async function getActor(): Promise<Actor> {
  return actorOfToken(sessionTokenOf((await cookies()).getAll()));
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
