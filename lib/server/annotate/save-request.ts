/**
 * The save request (POST /api/projects/P/responses/I, what the workspace's "Save & next" sends),
 * from its headers and body to its answer, in one place for the two ways it is served:
 *
 * - Next's route handler (app/api/projects/[projectId]/responses/[instanceRef]/route.ts), which
 *   `next dev` and the route's tests use;
 * - the HTTP server itself, before Next parses, routes and runs the request (`serveSave`, installed
 *   by instrumentation.ts through lib/auth/save-gate.ts). A save is the one request that comes by the
 *   hundred a second; Next's own handling of a request cost about as much CPU as the save's checks
 *   and transaction together (bench/RESULTS.md, issue #28 item 7), so the production server serves it
 *   here. LEXGOLD_SAVE_BEFORE_NEXT=0 sends saves through Next like every other request.
 *
 * Either way the same checks run in the same order, and the answer is the same bytes: the origin;
 * the session (the auth library's decoded token and the user's row, lib/auth/session.ts, handed in
 * as `actor`); the save limit (lib/server/kernel/rate-limit.ts), before the body is read; nobody
 * signed in: 401 before the body is read; JSON of at most MAX_SAVE_BYTES; then saveResponseAsync
 * (lib/server/annotate/responses.ts), which checks the project, the assignment, the input and the
 * revision and stores the response in one transaction.
 *
 * Answer: { ok: true, revision, response, next, progress, lexelt, upcoming } (SaveResult), or
 * { ok: false, message, errors?, conflict? } with 400 / 401 / 403 / 404 / 409 / 413, or 503 with
 * Retry-After when the database's write lock stayed taken for seconds (nothing stored; the
 * workspace sends the save again after the wait), or 429 with Retry-After when the account or the
 * address saves faster than the limit allows (nothing stored). Once the bucket is empty,
 * lib/auth/save-gate.ts answers that 429 before this runs.
 */
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Db } from "../../../db/client";
import { clientAddress, type HeaderSource, headerValue } from "../../net/trusted-proxy";
import { type Actor, requireSignedIn } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { assertSameOrigin, errorAnswer, type HttpAnswer, jsonAnswer, readNodeBodyLimited } from "../kernel/http";
import { limitSave, tooManySavesParts } from "../kernel/rate-limit";
import { type ResponseInput, saveResponseAsync } from "./responses";

/** A save's body is a few hundred bytes; this leaves room for fields to come. */
const MAX_SAVE_BYTES = 64 * 1024;

/** What the save needs of its request, whichever server received it. */
export interface SaveRequest {
  headers: HeaderSource;
  /** The path's two ids as written (the route's params). */
  projectId: string;
  instanceRef: string;
  /** The signed-in user of the request's session cookie (lib/auth/session.ts), asked after the origin check. */
  actor: () => Promise<Actor>;
  /** The body, read within `maxBytes` (TooLargeError past it). */
  readBody: (maxBytes: number, message: string) => Promise<Uint8Array>;
}

/** The save request's answer: its status, headers and JSON body. Never throws. */
export async function handleSaveRequest(db: () => Db, req: SaveRequest): Promise<HttpAnswer> {
  try {
    assertSameOrigin(req);
    const session = await req.actor();
    // The account from the session token, the address from the socket (or a trusted proxy).
    const verdict = limitSave({ userId: session?.kind === "user" ? session.userId : null, address: clientAddress(req.headers) });
    if (!verdict.ok) return tooManySavesParts(verdict);
    // Nobody signed in: 401 before anything of the request is read.
    const actor = requireSignedIn(session);
    if (!/^application\/json\b/i.test(headerValue(req.headers, "content-type") ?? "")) {
      throw new InputError("Not saved: the request must be JSON (Content-Type: application/json).");
    }
    const bytes = await req.readBody(MAX_SAVE_BYTES, `Not saved: the request is over ${MAX_SAVE_BYTES / 1024} KiB.`);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new InputError("Not saved: the request is not valid JSON.");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new InputError("Not saved: the request must be a JSON object.");
    const { response, expectedRevision, activeMs } = body as Record<string, unknown>;
    // The write lock is waited for without stopping this process (lib/server/kernel/write-lock.ts).
    const r = await saveResponseAsync(db(), actor, Number(req.projectId), Number(req.instanceRef), response as ResponseInput, {
      expectedRevision: expectedRevision as number,
      activeMs: activeMs as number | null | undefined,
    });
    return jsonAnswer({ ok: true, ...r }, 200, { "Cache-Control": "no-store" });
  } catch (e) {
    return errorAnswer(e);
  }
}

/**
 * The save path served before Next: exactly /api/projects/<digits>/responses/<digits>, a query
 * allowed (ignored, as the route ignores it). Anything else — a trailing slash Next redirects,
 * another method — is left to Next.
 */
const SAVE_PATH_BEFORE_NEXT = /^\/api\/projects\/(\d+)\/responses\/(\d+)(?:\?.*)?$/;

/**
 * Serve a save from node's HTTP server (see the header): `headers` are the response headers Next
 * would add to every answer (next.config.ts), `actor` the session's user as lib/auth decodes it.
 * The request must be a POST to SAVE_PATH_BEFORE_NEXT whose peer address was stamped
 * (lib/net/trusted-proxy.ts stampRequest).
 */
export async function serveSave(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { db: () => Db; actor: () => Promise<Actor>; headers: Record<string, string> },
): Promise<void> {
  const ids = SAVE_PATH_BEFORE_NEXT.exec(req.url ?? "");
  let answer: HttpAnswer;
  if (!ids || req.method !== "POST") answer = jsonAnswer({ ok: false, message: "Not found." }, 404);
  else {
    answer = await handleSaveRequest(deps.db, {
      headers: req.headers,
      projectId: ids[1],
      instanceRef: ids[2],
      actor: deps.actor,
      readBody: (max, message) => readNodeBodyLimited(req, max, message),
    });
  }
  if (res.destroyed || res.headersSent) return;
  const body = Buffer.from(answer.body);
  const headers: Record<string, string | number> = { ...deps.headers, ...answer.headers, "Content-Length": body.byteLength };
  // A body refused for its size is not read to its end: the connection closes after the answer.
  // (Any other answer sent before the body was read — 401, 429 — leaves node to read and drop it.)
  if (answer.status === 413 && !req.complete) headers.Connection = "close";
  res.writeHead(answer.status, headers);
  res.end(body);
}
