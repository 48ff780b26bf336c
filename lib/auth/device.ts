/**
 * The device cookie (OWASP's pattern against account lock-out by strangers):
 * after a successful sign-in the browser gets a signed cookie bound to the id
 * of the account that signed in (authorize's result, never a name read from the
 * request); with it, the browser is slowed only by its own failures
 * (lib/server/people/signin.ts), never by strangers' failures against the account.
 */
import "server-only";
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S, makeDeviceCookie } from "../server/people/signin";
import { setting } from "../config";
import { authSecret } from "../server/kernel/secret";

/** Whether next-auth's response starts a session (sets a non-empty session cookie). */
export function startsSession(res: Response): boolean {
  return res.headers.getSetCookie().some((c) => /^(__Secure-)?next-auth\.session-token(\.0)?=[^;]/.test(c));
}

/** The Set-Cookie value for a fresh device cookie for the account. */
export function deviceCookieHeader(userId: number): string {
  const secure = (setting("NEXTAUTH_URL") ?? "").startsWith("https:");
  const value = makeDeviceCookie(authSecret(), userId);
  return `${DEVICE_COOKIE}=${value}; Path=/api/auth; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
