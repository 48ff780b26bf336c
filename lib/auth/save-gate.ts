/**
 * The save limit's early refusal: a save (POST /api/projects/P/responses/I) whose
 * account or address bucket is empty (lib/server/kernel/rate-limit.ts) is answered 429
 * by the HTTP server itself, before Next parses, routes and runs the request.
 * A flood's refusals then cost a few microseconds each instead of a pass through
 * the framework, which is what kept another annotator's saves waiting.
 *
 * It only refuses, and takes no token: the save route stays the one that takes
 * a token (and refuses the request that empties the bucket), so the limit holds
 * the same with the gate or without it (tests, `next dev`).
 *
 * The account is the user id of the session token, decrypted by the auth
 * library (lib/auth/jwt.ts). The first request with a token goes on to the route
 * while the token is decrypted in the background; from then on the token's user
 * id is known here, synchronously. A token this process never decrypted is
 * never believed: it can only be refused by its address's bucket.
 *
 * A save the gate does not refuse goes on to `serve` when one is installed (the production
 * server: lib/server/annotate/save-request.ts serves the save right here, with the same checks and
 * answer as the route), else to Next's route. `serve` gets the session's user as this module's
 * auth glue decodes it (lib/auth/session.ts actorOfToken), never anything re-read by the serving code.
 *
 * instrumentation.ts installs it in each server process (as it installs the
 * peer-address stamp of lib/net/trusted-proxy.ts, which it calls first).
 */
import http from "node:http";
import https from "node:https";
import type { Actor } from "../server/kernel/actor";
import { decodeSessionToken, sessionTokenOf } from "./jwt";
import { actorOfToken } from "./session";
import { authSecret } from "../server/kernel/secret";
import { clientAddress, stampRequest } from "../net/trusted-proxy";
import { peekSave, tooManySavesParts } from "../server/kernel/rate-limit";

const SAVE_PATH = /^\/api\/projects\/\d+\/responses\/\d+\/?(?:\?|$)/;
/** The saves `serve` answers: no trailing slash (Next redirects those). */
const SERVED_PATH = /^\/api\/projects\/\d+\/responses\/\d+(?:\?|$)/;

/** Tokens decrypted here → their user id and expiry (ms), the latest used last. */
const known = new Map<string, { userId: number; until: number }>();
const pending = new Map<string, Promise<void>>();
const MAX_KNOWN = 10_000;
/** Saves let through to the route and not yet answered, by user id. */
const inFlight = new Map<number, number>();

/**
 * A Cookie header read as Next reads it for cookies() (@edge-runtime/cookies): pairs split at
 * "; ", values percent-decoded (a pair that does not decode is dropped), a name given twice keeps
 * its last value — so the token found here is the one the route would find.
 */
export function parseCookies(header: string | undefined): Array<{ name: string; value: string }> {
  const map = new Map<string, string>();
  if (!header) return [];
  for (const pair of header.split(/; */)) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    if (eq === -1) {
      map.set(pair, "true");
      continue;
    }
    try {
      map.set(pair.slice(0, eq), decodeURIComponent(pair.slice(eq + 1)));
    } catch {
      /* not percent-encoding: left out, as Next leaves it out */
    }
  }
  return [...map].map(([name, value]) => ({ name, value }));
}

/** The user id of a token decrypted before, or null (and the token is decrypted for next time). */
export function knownUser(token: string, now = Date.now()): number | null {
  const hit = known.get(token);
  if (hit && hit.until > now) {
    known.delete(token);
    known.set(token, hit);
    return hit.userId;
  }
  if (hit) known.delete(token);
  if (!pending.has(token) && pending.size < MAX_KNOWN) {
    const decrypting = decodeSessionToken({ token, secret: authSecret() })
      .then((payload) => {
        const userId = Number(payload?.uid);
        const until = Number(payload?.exp) * 1000;
        if (!Number.isInteger(userId) || userId <= 0 || !(until > Date.now())) return;
        known.set(token, { userId, until });
        if (known.size > MAX_KNOWN) known.delete(known.keys().next().value!);
      })
      .catch(() => {
        /* forged, expired or another secret's: never known */
      })
      .finally(() => pending.delete(token));
    pending.set(token, decrypting);
  }
  return null;
}

/** The decryption of a token under way, if any (tests wait for it). */
export function decrypting(token: string): Promise<void> | undefined {
  return pending.get(token);
}

/** Serves a save the gate let through (see the header); `actor` is the session's user. */
export type SaveServer = (req: http.IncomingMessage, res: http.ServerResponse, actor: () => Promise<Actor>) => Promise<void>;
let serve: SaveServer | null = null;

/**
 * A save request, answered here: 429 now if its bucket is empty, else served by `serve` when one is
 * installed. False: the request goes on to Next (not a save, or no `serve`).
 */
export function refuseEarly(req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (req.method !== "POST" || !SAVE_PATH.test(req.url ?? "")) return false;
  stampRequest(req);
  const token = sessionTokenOf(parseCookies(req.headers.cookie));
  const userId = token ? knownUser(token) : null;
  // Saves of this account let through and not answered yet will each take a token: this one
  // passes only if the bucket holds one more (else, when a token comes back, every connection
  // of a flood would pass at once and all but one be refused by the route, the dear way).
  const held = userId === null ? 0 : (inFlight.get(userId) ?? 0);
  const verdict = peekSave({ userId, address: clientAddress(req.headers) }, held + 1);
  if (verdict.ok) {
    if (userId !== null) {
      inFlight.set(userId, held + 1);
      res.once("close", () => {
        const n = (inFlight.get(userId) ?? 1) - 1;
        if (n > 0) inFlight.set(userId, n);
        else inFlight.delete(userId);
      });
    }
    if (!serve || !SERVED_PATH.test(req.url ?? "")) return false;
    serve(req, res, () => actorOfToken(token)).catch((e) => {
      // serveSave answers every refusal itself; this is a fault of the server (logged, 500).
      console.error(e);
      if (!res.headersSent) res.writeHead(500, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ ok: false, message: "Something went wrong on the server; nothing was saved." }));
    });
    return true;
  }
  const { status, headers, body } = tooManySavesParts(verdict);
  const send = () => {
    if (res.destroyed) return;
    res.writeHead(status, { ...headers, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  };
  // Sent again before the Retry-After of the last refusal: this refusal is held back a while.
  const key = userId !== null ? `u${userId}` : `a${clientAddress(req.headers) ?? ""}`;
  const now = performance.now();
  const last = lastRefused.get(key);
  lastRefused.delete(key);
  lastRefused.set(key, now);
  if (lastRefused.size > MAX_KNOWN) lastRefused.delete(lastRefused.keys().next().value!);
  if (last !== undefined && now - last < 1000 && heldBack < MAX_HELD) {
    heldBack++;
    hold(() => {
      heldBack--;
      send();
    });
  } else send();
  return true;
}

/**
 * A client that ignores Retry-After and sends again at once (a flood: each of its
 * connections sends the moment the last answer came) gets its next refusals after
 * HOLD_MS instead of at once: 16 connections then cost 32 refusals a second, not
 * thousands. A client that waits as asked (the workspace) is never held. At most
 * MAX_HELD refusals wait at a time (beyond that they go at once): each is an open
 * connection and a timer, no work.
 */
export const HOLD_MS = 500;
const MAX_HELD = 1000;
let heldBack = 0;
/** When each account (or, signed out, address) was last refused here. */
const lastRefused = new Map<string, number>();
let hold: (send: () => void) => void = (send) => void setTimeout(send, HOLD_MS);

/** How a held refusal waits (tests hold it until they let it go). */
export function setRefusalHold(fn: ((send: () => void) => void) | null): void {
  hold = fn ?? ((send) => void setTimeout(send, HOLD_MS));
}

const INSTALLED = Symbol.for("lexgold.saveGate");

/**
 * Install the gate in node's HTTP servers (once per process; a later call only changes `serve`).
 * With `serve`, the saves the gate lets through are served by it instead of Next.
 */
export function installSaveGate(options: { serve?: SaveServer | null } = {}): void {
  serve = options.serve ?? null;
  for (const Server of [http.Server, https.Server] as Array<typeof http.Server>) {
    const proto = Server.prototype as http.Server & { [INSTALLED]?: boolean };
    if (proto[INSTALLED]) continue;
    const emit = proto.emit;
    proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event === "request" && refuseEarly(args[0] as http.IncomingMessage, args[1] as http.ServerResponse)) return true;
      return (emit as (this: http.Server, e: string | symbol, ...a: unknown[]) => boolean).call(this, event, ...args);
    } as typeof proto.emit;
    proto[INSTALLED] = true;
  }
}
