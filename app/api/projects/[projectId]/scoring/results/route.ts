import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/kernel";
import { scoringBoardView } from "@/lib/server/jobs";
import { checkedMode } from "../mode";
import { type Ctx, idOf, requestGold } from "../request";

export const dynamic = "force-dynamic";

/**
 * The runs scored with one gold, ranked among themselves (the page's results
 * table): `?gold=ID` for a stored gold (else the project's own), `?figures=repaired`
 * for the repaired figures. score.pl's figures in the project's reading are added up from the
 * outcomes kept per id (#39); another mode is scored whole in the derivation process (seconds for a
 * run of a million items).
 */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    const db = getDb();
    const actor = await getActor();
    const mode = checkedMode(db, actor, projectId, req);
    const source = requestGold(db, actor, projectId, req);
    const board = await scoringBoardView(db, actor, projectId, source, mode);
    return Response.json({ ok: true, board });
  } catch (e) {
    return errorResponse(e);
  }
}
