/**
 * Next's proxy (the file formerly called middleware): a Content-Security-Policy
 * on every page with a fresh nonce per request. Next puts the nonce on its own
 * scripts (it reads the policy from the request headers); no other inline script
 * runs. Styles: the app's stylesheets, plus inline style attributes (progress
 * bars' widths), which cannot run code.
 *
 * On the sign-in page, a study's page and every page of someone signed in (the sign-out form),
 * next-auth's CSRF token for their forms (lib/auth/csrf.ts).
 *
 * Before that, the page limit (lib/server/kernel/rate-limit.ts): every page render,
 * client-side navigation and server action takes a token from its account's
 * bucket (the user id in the decoded session token) and its address's (signed out:
 * the address's signed-out bucket); an empty bucket answers 429 with Retry-After,
 * and a page that loads itself again then. Prefetches are not matched here, so they
 * cost nothing. The /api routes are limited by the production server itself, before
 * Next (lib/serve: a pass through this proxy costs an /api request about 2 ms of CPU).
 */
import { type NextRequest, NextResponse } from "next/server";
import { CSRF_HEADER, csrfCookieName, csrfCookieOptions, csrfToken } from "./lib/auth/csrf";
import { decodeSessionToken, sessionTokenOf } from "./lib/auth/jwt";
import { authSecret } from "./lib/server/kernel/secret";
import { clientAddress } from "./lib/net/trusted-proxy";
import { limitPageShared, retryAfterSeconds } from "./lib/server/kernel/rate-limit";

/**
 * Who may show a page in a frame: nobody, but a crowd study's page (/study/<token>), which
 * Mechanical Turk shows as an ExternalQuestion inside a frame on its own site (the live one and
 * the sandbox). The page then opens the study in a tab of its own (app/study/[token]).
 */
export const STUDY_FRAME_ANCESTORS = "https://www.mturk.com https://workersandbox.mturk.com";

export function frameAncestorsFor(pathname: string): string {
  return pathname.startsWith("/study/") ? STUDY_FRAME_ANCESTORS : "'none'";
}

export function contentSecurityPolicy(nonce: string, dev = process.env.NODE_ENV !== "production", frameAncestors = "'none'"): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // Mechanical Turk's externalSubmit (app/annotate/completion.tsx): a study participant's form back to the assignment.
    "form-action 'self' https://www.mturk.com https://workersandbox.mturk.com",
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");
}

/** The user id the request's session token carries (decrypted and unexpired), or null. */
async function sessionUserId(request: NextRequest): Promise<number | null> {
  const token = sessionTokenOf(request.cookies.getAll());
  if (!token) return null;
  try {
    const uid = Number((await decodeSessionToken({ token, secret: authSecret() }))?.uid);
    return Number.isInteger(uid) && uid > 0 ? uid : null;
  } catch {
    return null;
  }
}

/** 429 for a page: a short page that loads itself again when the wait is over; plain text for navigations and actions. */
export function tooManyPages(seconds: number, request: Pick<NextRequest, "headers">): NextResponse {
  const headers = { "Retry-After": String(seconds), "Cache-Control": "no-store" };
  if (request.headers.get("rsc") || request.headers.get("next-action")) {
    return new NextResponse(`Too many requests: try again in ${seconds} s.`, { status: 429, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
  }
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${seconds}"><meta name="viewport" content="width=device-width, initial-scale=1"><title>One moment</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; padding: 0 1rem; line-height: 1.5">
<h1 style="font-size: 1.4rem">One moment</h1>
<p>This browser asked for pages faster than the server hands them out. The page loads again by itself in ${seconds} s. Nothing you saved is lost, and typing not yet saved is kept in this browser.</p>
</body></html>
`;
  return new NextResponse(html, {
    status: 429,
    headers: { ...headers, "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'" },
  });
}

/** The pages whose forms post to next-auth's sign-in callbacks (a CSRF token in the form: lib/auth/csrf.ts); signed in, every page has the sign-out form. */
function postsToAuth(pathname: string, signedIn: boolean): boolean {
  return signedIn || pathname === "/signin" || pathname.startsWith("/study/");
}

export async function proxy(request: NextRequest) {
  const userId = await sessionUserId(request);
  const verdict = await limitPageShared({ userId, address: clientAddress(request.headers) });
  if (!verdict.ok) return tooManyPages(retryAfterSeconds(verdict.retryAfterMs), request);
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce, undefined, frameAncestorsFor(request.nextUrl.pathname));
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  // The page asked for, so a page that finds nobody signed in can send them back here after signing in.
  headers.set("x-lexgold-path", request.nextUrl.pathname + request.nextUrl.search);
  // The sign-in forms work without JavaScript: next-auth's CSRF token (its cookie's, or a new one) for the page to put in them.
  headers.delete(CSRF_HEADER);
  let csrfCookie: string | null = null;
  if (postsToAuth(request.nextUrl.pathname, userId !== null)) {
    const csrf = csrfToken(request.cookies.get(csrfCookieName())?.value, authSecret());
    headers.set(CSRF_HEADER, csrf.token);
    csrfCookie = csrf.cookie;
  }
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  if (csrfCookie) response.cookies.set(csrfCookieName(), csrfCookie, csrfCookieOptions());
  return response;
}

export const config = {
  matcher: [
    // Pages only: not the static files, nor the API routes (JSON and downloads run no script;
    // their request limit is the production server's, lib/serve).
    {
      source: "/((?!api|_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
