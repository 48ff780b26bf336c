import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { assertSameOrigin, errorResponse } from "@/lib/server/http";
import { listRuns, scoreBoard } from "@/lib/server/scoring";
import { type Ctx, idOf, tooBig, uploadedGold } from "../request";

export const dynamic = "force-dynamic";

/** Every stored run scored against the project's gold (the page's results table). */
export async function GET(_req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    return Response.json({ ok: true, board: scoreBoard(getDb(), await getActor(), projectId, { kind: "project" }) });
  } catch (e) {
    return errorResponse(e);
  }
}

/** The same against uploaded "gold" / "mwgold" files. */
export async function POST(req: Request, ctx: Ctx) {
  try {
    assertSameOrigin(req);
    const actor = await getActor();
    const projectId = idOf((await ctx.params).projectId, "project");
    const db = getDb();
    listRuns(db, actor, projectId);
    const big = tooBig(req, 2);
    if (big) return big;
    return Response.json({ ok: true, board: scoreBoard(db, actor, projectId, await uploadedGold(await req.formData())) });
  } catch (e) {
    return errorResponse(e);
  }
}
