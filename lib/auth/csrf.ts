/**
 * next-auth's CSRF token, for the forms that post to its sign-in callbacks without JavaScript (#38):
 * the sign-in page's and a study's start. next-auth v4 checks a POST to /api/auth/callback/* by a
 * double submit: its cookie `next-auth.csrf-token` (`__Host-` first when served over https) holds
 * `token|sha256(token + secret)`, and the form's `csrfToken` field must be that token. The page
 * script's signIn() fetches the token from /api/auth/csrf; a page without script has it from the
 * proxy (proxy.ts), which reads the cookie, or makes one as next-auth would, and hands the token to
 * the page in a request header.
 */
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { setting } from "../config";

/** The request header the proxy puts the token in, for the page (never read from a browser: the proxy sets or removes it). */
export const CSRF_HEADER = "x-lexgold-csrf";

function secure(): boolean {
  return (setting("NEXTAUTH_URL") ?? "").startsWith("https:");
}

/** next-auth's name for the cookie (lib/auth/options.ts leaves its cookie settings at their defaults). */
export function csrfCookieName(): string {
  return `${secure() ? "__Host-" : ""}next-auth.csrf-token`;
}

const hash = (token: string, secret: string) => createHash("sha256").update(`${token}${secret}`).digest("hex");

/**
 * The token of the cookie `value` when next-auth would accept it; else a new token and the cookie
 * to set for it (`cookie`: its value; the options are next-auth's: HttpOnly, SameSite=Lax, Path=/,
 * Secure over https).
 */
export function csrfToken(value: string | undefined, secret: string): { token: string; cookie: string | null } {
  if (value) {
    const [token, digest] = value.split("|");
    if (token && digest === hash(token, secret)) return { token, cookie: null };
  }
  const token = randomBytes(32).toString("hex");
  return { token, cookie: `${token}|${hash(token, secret)}` };
}

/** The cookie's options, as next-auth sets them. */
export function csrfCookieOptions(): { httpOnly: true; sameSite: "lax"; path: "/"; secure: boolean } {
  return { httpOnly: true, sameSite: "lax", path: "/", secure: secure() };
}
