/**
 * What scripts/serve.mjs serves itself, before Next (#43 item 1): the save. The production server
 * owns createServer and routes explicitly — `if (isSaveRequest(req)) return serveSave(req, res)` —
 * with no prototype patched. Here the save (lib/server/annotate/save-request.ts: its checks, its
 * early refusal and its answer, the same as Next's route gives) is composed with what it needs: the
 * database, the session as lib/auth reads it from the cookie, and the headers Next puts on every
 * answer.
 *
 * Bundled at build time into dist-workers/serve.mjs (scripts/build-workers.mjs), which
 * scripts/serve.mjs imports: plain JavaScript, nothing built at run time. `stampRequest` comes along,
 * so that the server stamps every request's peer address itself (lib/net/trusted-proxy.ts).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { getDb } from "../db";
import { sessionTokenOf } from "../auth/jwt";
import { actorOfToken, knownUserId, parseCookies } from "../auth/session-token";
import { EVERY_ANSWER, NOT_FRAMED } from "../net/security-headers";
import { stampRequest } from "../net/trusted-proxy";
import { isSaveRequest, serveSave as serveSaveWith } from "../server/annotate";

export { isSaveRequest, stampRequest };

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
