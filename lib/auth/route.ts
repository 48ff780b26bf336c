/**
 * The /api/auth/* route around next-auth's handler:
 *  - a POST's body is read once, within MAX_AUTH_BODY_BYTES (counted while
 *    reading, whatever Content-Length says or when there is none), must be a
 *    form (what next-auth's client sends) and may not repeat a field; next-auth
 *    gets a request rebuilt from those bytes;
 *  - after a successful credentials sign-in the browser gets a device cookie for
 *    the account authorize returned (lib/auth/device.ts), and a study participant
 *    their browser's key and resume code (lib/auth/sign-in-cookies.ts);
 *  - a sign-in refused unchecked (slow-down, ceiling, busy gate) is answered 429
 *    with Retry-After;
 *  - a form the browser posted itself (no `json=true`, which next-auth's client
 *    always sends: JavaScript off, or not yet running; #38) is answered with a page
 *    (303): the page to go back to (a path of this site, never another) or the
 *    study's started page once signed in; after a refusal, the sign-in page with
 *    its reason (`?error=`) or the study's page with the sentence (kept as an
 *    outcome, lib/server/kernel/outcome.ts); after a sign-out, the sign-in page.
 */
import "server-only";
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { readBodyLimited, TooLargeError } from "../server/kernel/http";
import { keepOutcome } from "../server/kernel/outcome";
import { prepareDummyHash } from "../server/people/passwords";
import { startsSession } from "./device";
import { safeReturnTo, signInHref } from "./return-to";
import { outcomeCookies, studyPagePath } from "./sign-in-cookies";
import { authOptions, type SignInOutcome } from "./options";

/** The largest body any /api/auth POST may have (a sign-in form is a few hundred bytes; the return path at most 2000 characters, escaped). */
export const MAX_AUTH_BODY_BYTES = 8 * 1024;

type Ctx = { params: Promise<{ nextauth: string[] }> };

// The first sign-in this process checks must not also pay for starting the hash thread and making the
// dummy hash (the start-up warm-up in scripts/serve.mjs requests /api/auth/csrf, which loads this module).
void prepareDummyHash().catch((e) => console.error("[auth] preparing the dummy hash failed:", e));

function refuse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ message }), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers } });
}

/** The body's fields, or the response refusing it. */
async function formOf(req: Request): Promise<{ text: string } | { refused: Response }> {
  let bytes: Uint8Array;
  try {
    bytes = await readBodyLimited(req, MAX_AUTH_BODY_BYTES, "Request body too large.");
  } catch (e) {
    if (e instanceof TooLargeError) return { refused: refuse(413, e.message, { Connection: "close" }) };
    throw e;
  }
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (bytes.byteLength > 0 && type !== "application/x-www-form-urlencoded") return { refused: refuse(415, "Send a form (application/x-www-form-urlencoded).") };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { refused: refuse(400, "The form is not UTF-8.") };
  }
  const seen = new Set<string>();
  for (const key of new URLSearchParams(text).keys()) {
    // next-auth keeps one value of a repeated field; nothing may read another.
    if (seen.has(key)) return { refused: refuse(400, `The field "${key}" is repeated.`) };
    seen.add(key);
  }
  return { text };
}

/** A study link's parameters as the study's form sent them (JSON), for its page's address; none when unreadable. */
function linkQuery(params: string | null): URLSearchParams {
  const q = new URLSearchParams();
  try {
    const v: unknown = JSON.parse(params ?? "");
    if (v && typeof v === "object" && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v).slice(0, 32)) if (typeof x === "string" && k !== "started" && k !== "outcome") q.set(k, x.slice(0, 512));
    }
  } catch {
    /* none */
  }
  return q;
}

/** The refusal next-auth's answer names (`error=` of its redirect), and whether it was its CSRF check's. */
function refusalOf(res: Response): { error: string | null; csrf: boolean } {
  const location = res.headers.get("location") ?? "";
  let url: URL;
  try {
    url = new URL(location, "http://x");
  } catch {
    return { error: null, csrf: false };
  }
  return { error: url.searchParams.get("error"), csrf: url.searchParams.get("csrf") === "true" };
}

/**
 * next-auth's answer to a form the browser posted itself, as a page (303 to `location`): its cookies
 * kept (the session's, the device's and a participant's), nothing else of it.
 */
function seeOther(res: Response, location: string): Response {
  const headers = new Headers({ Location: location, "Cache-Control": "no-store" });
  for (const c of res.headers.getSetCookie()) headers.append("Set-Cookie", c);
  const retry = res.headers.get("retry-after");
  if (retry) headers.set("Retry-After", retry);
  return new Response(null, { status: 303, headers });
}

/** Where a form posted without JavaScript goes after next-auth's answer `res` (see the head of this file). */
function nativeAnswer(res: Response, action: string | undefined, provider: string | undefined, fields: URLSearchParams, outcome: SignInOutcome): Response {
  const signedIn = startsSession(res);
  if (action === "signout") return seeOther(res, res.headers.getSetCookie().some((c) => /session-token=;/.test(c)) ? "/signin" : "/");
  if (provider === "study") {
    const token = fields.get("token") ?? "";
    const page = studyPagePath(token);
    if (signedIn) return seeOther(res, `${page}?started=1`);
    const { error, csrf } = refusalOf(res);
    const message = csrf ? "The page had expired: start again." : error && error !== "CredentialsSignin" ? error : "Could not start: open the study link again.";
    const query = linkQuery(fields.get("params"));
    // A plain link's id typed on the page comes back in the address, so it is not asked again.
    const typed = (fields.get("id") ?? "").trim();
    if (typed && !query.has("id")) query.set("id", typed.slice(0, 64));
    query.set("outcome", keepOutcome(null, page, { ok: false, message }));
    return seeOther(res, `${page}?${query}`);
  }
  const back = safeReturnTo(fields.get("callbackUrl"));
  if (signedIn) return seeOther(res, back);
  const { error, csrf } = refusalOf(res);
  const reason = outcome.refused ? (outcome.refused.reason === "busy" ? "Busy" : "RateLimited") : csrf ? "Expired" : error === "RateLimited" || error === "Busy" ? error : "CredentialsSignin";
  const signIn = signInHref(back);
  return seeOther(res, `${signIn}${signIn.includes("?") ? "&" : "?"}error=${reason}`);
}

export async function authRoute(req: NextRequest, ctx: Ctx): Promise<Response> {
  let forward = req;
  let native: URLSearchParams | null = null;
  if (req.method === "POST") {
    const form = await formOf(req);
    if ("refused" in form) return form.refused;
    const fields = new URLSearchParams(form.text);
    if (fields.get("json") !== "true") native = fields;
    const headers = new Headers(req.headers);
    headers.delete("content-length");
    headers.delete("transfer-encoding");
    headers.set("content-type", "application/x-www-form-urlencoded");
    forward = new NextRequest(req.url, { method: "POST", headers, body: form.text });
  }
  const outcome: SignInOutcome = {};
  const res: Response = await NextAuth(authOptions(outcome))(forward, ctx);
  if (startsSession(res)) for (const c of outcomeCookies(outcome)) res.headers.append("Set-Cookie", c);
  if (native) {
    const [action, provider] = (await ctx.params).nextauth ?? [];
    if (action === "callback" || action === "signout") return nativeAnswer(res, action, provider, native, outcome);
  }
  if (outcome.refused) {
    const headers = new Headers(res.headers);
    headers.set("Retry-After", String(outcome.refused.retryAfterS));
    headers.delete("Location");
    return new Response(await res.text(), { status: 429, headers });
  }
  return res;
}
