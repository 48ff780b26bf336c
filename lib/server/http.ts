/** Helpers for route handlers: same-origin checks and error → HTTP response. */
import "server-only";
import { AuthError, httpStatus, InputError, toActionError } from "./errors";

/**
 * Refuse cross-site state-changing requests: the Origin (or, failing that, the
 * Referer) must name this host. Browsers always send Origin on cross-site POSTs.
 */
export function assertSameOrigin(req: Request): void {
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  const origin = req.headers.get("origin") ?? req.headers.get("referer");
  if (!origin) return; // same-origin non-browser clients (curl, scripts) send none
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new AuthError("Cross-site request refused.");
  }
  if (!host || originHost !== host) throw new AuthError("Cross-site request refused.");
}

export function errorResponse(e: unknown): Response {
  const status = httpStatus(e);
  const body = toActionError(e);
  return Response.json(body, { status });
}

export { InputError };
