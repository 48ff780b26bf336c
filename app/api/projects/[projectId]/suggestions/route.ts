import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { clientAddress } from "@/lib/net/trusted-proxy";
import { errorResponse, limitPage, projectIdOf, retryAfterSeconds } from "@/lib/server/kernel";
import { workspaceSuggestions } from "@/lib/server/models";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string }> };

/**
 * A model's suggestions for the workspace (issue #41): ?refs=the instance on screen,then the next ones.
 * Each request takes a token of the page limit (lib/server/kernel/rate-limit.ts), as a page does: past it,
 * 429 with Retry-After before anything is read.
 */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const actor = await getActor();
    const verdict = limitPage({ userId: actor?.kind === "user" ? actor.userId : null, address: clientAddress(req.headers) });
    if (!verdict.ok) {
      const s = retryAfterSeconds(verdict.retryAfterMs);
      return Response.json({ ok: false, message: `Too many requests: try again in ${s} s.` }, { status: 429, headers: { "Retry-After": String(s), "Cache-Control": "no-store" } });
    }
    const projectId = projectIdOf((await ctx.params).projectId);
    const refs = (new URL(req.url).searchParams.get("refs") ?? "").split(",");
    const r = workspaceSuggestions(getDb(), actor, projectId, refs);
    return Response.json({ ok: true, ...r }, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    return errorResponse(e);
  }
}
