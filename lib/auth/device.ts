/**
 * The device cookie (OWASP's pattern against account lock-out by strangers):
 * after a successful sign-in the browser gets a signed cookie naming the account;
 * with it, the browser is throttled only by its own failures
 * (lib/server/signin.ts), never by strangers' failures against the account.
 */
import "server-only";
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S, makeDeviceCookie } from "../server/signin";
import { authSecret } from "./secret";

/** The user name a credentials sign-in request names, read from a copy of its body. */
export async function signInName(req: Request): Promise<string> {
  const type = req.headers.get("content-type") ?? "";
  const text = await req.clone().text();
  try {
    if (type.includes("application/json")) return String((JSON.parse(text) as { username?: unknown }).username ?? "").trim();
    return String(new URLSearchParams(text).get("username") ?? "").trim();
  } catch {
    return "";
  }
}

/** Whether next-auth's response starts a session (sets a non-empty session cookie). */
export function startsSession(res: Response): boolean {
  return res.headers.getSetCookie().some((c) => /^(__Secure-)?next-auth\.session-token=[^;]/.test(c));
}

/** The Set-Cookie value for a fresh device cookie for the account. */
export function deviceCookieHeader(userName: string): string {
  const secure = (process.env.NEXTAUTH_URL ?? "").startsWith("https:");
  const value = makeDeviceCookie(authSecret(), userName);
  return `${DEVICE_COOKIE}=${value}; Path=/api/auth; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
