import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/http";
import { scoreBoard } from "@/lib/server/scoring";
import { checkedMode, requestMode } from "../mode";
import { type Ctx, idOf, withUploadedGold } from "../request";

export const dynamic = "force-dynamic";

/** Every stored run scored against the project's gold (the page's results table); `?figures=repaired` for the repaired figures. */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    const db = getDb();
    const actor = await getActor();
    const mode = checkedMode(db, actor, projectId, req);
    return Response.json({ ok: true, board: scoreBoard(db, actor, projectId, { kind: "project" }, mode) });
  } catch (e) {
    return errorResponse(e);
  }
}

/** The same against uploaded "gold" / "mwgold" files. */
export async function POST(req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    return await withUploadedGold(req, projectId, (db, actor, source) => Response.json({ ok: true, board: scoreBoard(db, actor, projectId, source, requestMode(req)) }));
  } catch (e) {
    return errorResponse(e);
  }
}
