/**
 * Save the signed-in user's response to one instance: what the workspace's
 * "Save & next" sends (app/annotate/save-request.ts). A route handler rather than
 * a server action, so a save costs the checks and the transaction, not a pass
 * through the page runtime (issue #14). Everything the browser sends is
 * untrusted: the origin is checked, lib/server checks the session user, the
 * project, the assignment and the input, and refuses a stale revision with the
 * stored answer.
 *
 * Body (JSON, at most 64 KiB): { response: { kind, substitutes, multiword, phrase },
 * expectedRevision, activeMs }. Answer: { ok: true, revision, response, next,
 * progress, lexelt, upcoming } (lib/server/annotate/responses.ts SaveResult), or
 * { ok: false, message, errors?, conflict? } with 400 / 401 / 403 / 404 / 409 / 413,
 * or 503 with Retry-After when the database's write lock stayed taken for seconds (nothing
 * stored; the workspace sends the save again after the wait),
 * or 429 with Retry-After when the account or the address saves faster than
 * lib/server/kernel/rate-limit.ts allows (decided before the body is read; nothing is
 * stored, and the workspace sends the save again after the wait). Once the bucket
 * is empty, lib/auth/save-gate.ts answers that 429 before this handler runs.
 */
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { clientAddress } from "@/lib/net/trusted-proxy";
import { requireSignedIn, InputError, assertSameOrigin, errorResponse, readBodyLimited, limitSave, tooManySaves } from "@/lib/server/kernel";
import { saveResponseAsync } from "@/lib/server/annotate";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string; instanceRef: string }> };

/** A save's body is a few hundred bytes; this leaves room for fields to come. */
export const MAX_SAVE_BYTES = 64 * 1024;

export async function POST(req: Request, ctx: Ctx) {
  try {
    assertSameOrigin(req);
    const session = await getActor();
    // The account from the session token, the address from the socket (or a trusted proxy).
    const verdict = limitSave({ userId: session?.kind === "user" ? session.userId : null, address: clientAddress(req.headers) });
    if (!verdict.ok) return tooManySaves(verdict);
    // Nobody signed in: 401 before anything of the request is read.
    const actor = requireSignedIn(session);
    const { projectId, instanceRef } = await ctx.params;
    if (!/^application\/json\b/i.test(req.headers.get("content-type") ?? "")) {
      throw new InputError("Not saved: the request must be JSON (Content-Type: application/json).");
    }
    const bytes = await readBodyLimited(req, MAX_SAVE_BYTES, `Not saved: the request is over ${MAX_SAVE_BYTES / 1024} KiB.`);
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new InputError("Not saved: the request is not valid JSON.");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new InputError("Not saved: the request must be a JSON object.");
    const { response, expectedRevision, activeMs } = body as Record<string, unknown>;
    // The write lock is waited for without stopping this process (lib/server/kernel/write-lock.ts).
    const r = await saveResponseAsync(
      getDb(),
      actor,
      Number(projectId),
      Number(instanceRef),
      response as Parameters<typeof saveResponseAsync>[4],
      { expectedRevision: expectedRevision as number, activeMs: activeMs as number | null | undefined },
    );
    return Response.json({ ok: true, ...r }, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    return errorResponse(e);
  }
}
