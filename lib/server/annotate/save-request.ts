/**
 * The save request (POST /api/projects/P/responses/I, what the workspace's "Save & next" sends),
 * from its headers and body to its answer, in one place for the two ways it is served:
 *
 * - Next's route handler (app/api/projects/[projectId]/responses/[instanceRef]/route.ts), which
 *   `next dev` and the route's tests use;
 * - the production server itself, before Next parses, routes and runs the request: scripts/serve.mjs
 *   creates the HTTP server and routes the save explicitly, `if (isSaveRequest(req)) return
 *   serveSave(req, res)` (lib/serve composes `serveSave` below with the session and the database;
 *   lib/server/annotate/save-route.ts is the route). A save is the one request that comes by the
 *   hundred a second; Next's own handling of a request cost about as much CPU as the save's checks
 *   and transaction together (bench/RESULTS.md, issue #28 item 7). LEXGOLD_SAVE_BEFORE_NEXT=0 sends
 *   saves through Next like every other request.
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
 * address saves faster than the limit allows (nothing stored). The limit is checked once per save,
 * in handleSaveRequest; while the wait its last refusal gave is not over, `serveSave` answers the
 * same 429 at once, before anything else (a flood's refusals then cost microseconds), and a client
 * that sends again without waiting gets its next refusal HOLD_MS late.
 */
import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Db } from "../../../db/client";
import { clientAddress, type HeaderSource, headerValue } from "../../net/trusted-proxy";
import { SAVE_ROUTE } from "./save-route";
import { type Actor, requireSignedIn } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { assertSameOrigin, errorAnswer, type HttpAnswer, jsonAnswer, readNodeBodyLimited } from "../kernel/http";
import { addressKey, limitSave, refusedSave, tooManySavesParts, type Verdict } from "../kernel/rate-limit";
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

/** The session of a save served before Next, as lib/auth reads it from the request's cookie. */
export interface SaveSession {
  /** The user id of the session's token if this process decoded it before (never believed otherwise); null else. */
  userId: number | null;
  /** The signed-in user, checked as on every request; asked after the origin check. */
  actor: () => Promise<Actor>;
}

/**
 * Serve a save from node's HTTP server (see the header): `headers` are the response headers Next
 * would add to every answer (next.config.ts), `session` the request's session as lib/auth reads it.
 * The request's peer address must be stamped (lib/net/trusted-proxy.ts stampRequest). Answers every
 * request it is given: one that is not a save (isSaveRequest) is answered 404.
 */
export async function serveSave(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { db: () => Db; session: (req: IncomingMessage) => SaveSession; headers: Record<string, string> },
): Promise<void> {
  const ids = SAVE_ROUTE.exec(req.url ?? "");
  let answer: HttpAnswer;
  if (!ids || req.method !== "POST") answer = jsonAnswer({ ok: false, message: "Not found." }, 404);
  else {
    const session = deps.session(req);
    const who = { userId: session.userId, address: clientAddress(req.headers) };
    const refused = refusedSave(who);
    if (refused) return refuseAtOnce(res, refused, who.userId !== null ? `u${who.userId}` : `a${who.address ? addressKey(who.address) : ""}`, deps.headers);
    answer = await handleSaveRequest(deps.db, {
      headers: req.headers,
      projectId: ids[1],
      instanceRef: ids[2],
      actor: session.actor,
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

/**
 * A client that ignores Retry-After and sends again at once (a flood: each of its
 * connections sends the moment the last answer came) gets its next refusals after
 * HOLD_MS instead of at once: 16 connections then cost 32 refusals a second, not
 * thousands. A client that waits as asked (the workspace) is never held. At most
 * MAX_HELD refusals wait at a time (beyond that they go at once): each is an open
 * connection and a timer, no work.
 */
const HOLD_MS = 500;
const MAX_HELD = 1000;
const MAX_KEYS = 10_000;
let heldBack = 0;
/** When each account (or, signed out, address) was last refused here. */
const lastRefused = new Map<string, number>();
let hold: (send: () => void) => void = (send) => void setTimeout(send, HOLD_MS);

/** How a held refusal waits (tests hold it until they let it go); who was refused when is forgotten. */
export function setRefusalHold(fn: ((send: () => void) => void) | null): void {
  hold = fn ?? ((send) => void setTimeout(send, HOLD_MS));
  lastRefused.clear();
}

/** The 429 of a save whose bucket's last refusal still holds, sent now or, to a client that did not wait, HOLD_MS late. */
function refuseAtOnce(res: ServerResponse, verdict: Extract<Verdict, { ok: false }>, key: string, answerHeaders: Record<string, string>): void {
  const { status, headers, body } = tooManySavesParts(verdict);
  const send = () => {
    if (res.destroyed) return;
    res.writeHead(status, { ...answerHeaders, ...headers, "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  };
  const now = performance.now();
  const last = lastRefused.get(key);
  lastRefused.delete(key);
  lastRefused.set(key, now);
  if (lastRefused.size > MAX_KEYS) lastRefused.delete(lastRefused.keys().next().value!);
  if (last !== undefined && now - last < 1000 && heldBack < MAX_HELD) {
    heldBack++;
    hold(() => {
      heldBack--;
      send();
    });
  } else send();
}
