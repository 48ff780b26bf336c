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
 *    with Retry-After.
 */
import "server-only";
import NextAuth from "next-auth";
import { NextRequest } from "next/server";
import { readBodyLimited, TooLargeError } from "../server/kernel/http";
import { prepareDummyHash } from "../server/people/passwords";
import { startsSession } from "./device";
import { outcomeCookies } from "./sign-in-cookies";
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

export async function authRoute(req: NextRequest, ctx: Ctx): Promise<Response> {
  let forward = req;
  if (req.method === "POST") {
    const form = await formOf(req);
    if ("refused" in form) return form.refused;
    const headers = new Headers(req.headers);
    headers.delete("content-length");
    headers.delete("transfer-encoding");
    headers.set("content-type", "application/x-www-form-urlencoded");
    forward = new NextRequest(req.url, { method: "POST", headers, body: form.text });
  }
  const outcome: SignInOutcome = {};
  const res: Response = await NextAuth(authOptions(outcome))(forward, ctx);
  if (startsSession(res)) for (const c of outcomeCookies(outcome)) res.headers.append("Set-Cookie", c);
  if (outcome.refused) {
    const headers = new Headers(res.headers);
    headers.set("Retry-After", String(outcome.refused.retryAfterS));
    headers.delete("Location");
    return new Response(await res.text(), { status: 429, headers });
  }
  return res;
}
