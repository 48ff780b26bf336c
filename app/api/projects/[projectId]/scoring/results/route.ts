import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/kernel";
import { scoreBoard } from "@/lib/server/scoring";
import { checkedMode } from "../mode";
import { type Ctx, idOf, requestGold } from "../request";

export const dynamic = "force-dynamic";

/**
 * The runs scored with one gold, ranked among themselves (the page's results
 * table): `?gold=ID` for a stored gold (else the project's own), `?figures=repaired`
 * for the repaired figures.
 */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    const db = getDb();
    const actor = await getActor();
    const mode = checkedMode(db, actor, projectId, req);
    return Response.json({ ok: true, board: scoreBoard(db, actor, projectId, requestGold(db, actor, projectId, req), mode) });
  } catch (e) {
    return errorResponse(e);
  }
}
