/**
 * What scripts/serve.mjs serves itself, before Next (#43 item 1): the save, and the request limit
 * of every other /api route (#38 item 4). The production server owns createServer and routes
 * explicitly — `if (isSaveRequest(req)) return serveSave(req, res)` — with no prototype patched. Here the save (lib/server/annotate/save-request.ts: its checks, its
 * early refusal and its answer, the same as Next's route gives) is composed with what it needs: the
 * database, the session as lib/auth reads it from the cookie, and the headers Next puts on every
 * answer.
 *
 * Bundled at build time into dist-workers/serve.mjs (scripts/build-workers.mjs), which
 * scripts/serve.mjs imports: plain JavaScript, nothing built at run time. `stampRequest` comes along,
 * so that the server stamps every request's peer address itself (lib/net/trusted-proxy.ts), and
 * `holdForTurn`, so that a crowd's arrivals wait while saves are served (lib/server/crowd/join-gate.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb } from "../db";
import { sessionTokenOf } from "../auth/jwt";
import { actorOfToken, knownUserId, parseCookies, sessionClaims } from "../auth/session-token";
import { EVERY_ANSWER, NOT_FRAMED } from "../net/security-headers";
import { clientAddress, stampRequest } from "../net/trusted-proxy";
import { isSaveRequest, serveSave as serveSaveWith } from "../server/annotate";
import { holdForTurn } from "../server/crowd/join-gate";
import { answerLimitAsks, limitPage, retryAfterSeconds } from "../server/kernel/rate-limit";
import { markServed } from "../server/derived/queue";
import { warmLemmaProposers } from "../server/derived/lemmas";

export { answerLimitAsks, holdForTurn, isSaveRequest, stampRequest };

/**
 * Before the process serves: open the database (the primary then checkpoints it, db/client.ts) and
 * mark the connection the server's, so that a save's reads catch up only a bounded amount of queued
 * figures (lib/server/derived/queue.ts). Next's thread marks its own connection (instrumentation.ts).
 * The lemmatisers of the projects' languages are read now too (warmLemmaProposers), not by the first save.
 */
export function openDatabase(): void {
  const db = getDb();
  markServed(db);
  warmLemmaProposers(db);
}

const HEADERS = { ...EVERY_ANSWER, ...NOT_FRAMED };

/** The session of a request: its token's user id when this process decoded it before, and the checked user. */
function session(req: IncomingMessage) {
  const token = sessionTokenOf(parseCookies(req.headers.cookie));
  return { userId: knownUserId(token), actor: () => actorOfToken(token) };
}

/** Serve the save `req` (isSaveRequest): answered whatever happens; a fault of the server is logged and answered 500. */
export async function serveSave(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    await serveSaveWith(req, res, { db: getDb, session, headers: HEADERS });
  } catch (e) {
    // serveSave answers every refusal itself; this is a fault of the server.
    console.error(e);
    if (!res.headersSent) res.writeHead(500, { ...HEADERS, "Content-Type": "application/json" });
    res.end(JSON.stringify({ ok: false, message: "Something went wrong on the server; nothing was saved." }));
  }
}

/**
 * The request limit of an /api request that is not the save (the page limit's buckets, as proxy.ts
 * takes for pages: the account of a valid session token, else the address's signed-out bucket).
 * Past it the request is answered 429 here, as JSON with Retry-After, and true is returned; false:
 * it goes on to Next. Here rather than in proxy.ts, whose pass costs an /api request about 2 ms of
 * CPU; under `next dev` /api routes are not limited.
 */
export async function refuseApiRequest(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const token = sessionTokenOf(parseCookies(req.headers.cookie));
  const claims = token ? await sessionClaims(token) : null;
  const verdict = limitPage({ userId: claims?.uid ?? null, address: clientAddress(req.headers) });
  if (verdict.ok) return false;
  const seconds = retryAfterSeconds(verdict.retryAfterMs);
  const body = JSON.stringify({ ok: false, message: `Too many requests: try again in ${seconds} s.`, retryAfterMs: seconds * 1000 });
  res.writeHead(429, { ...HEADERS, "Content-Type": "application/json", "Retry-After": String(seconds), "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
  return true;
}
