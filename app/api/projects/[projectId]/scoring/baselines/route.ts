import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { storeWordNetBaselineRuns } from "@/lib/server/scoring";
import { derive } from "@/lib/server/jobs";
import { assertSameOrigin, errorResponse } from "@/lib/server/kernel";
import { type Ctx, idOf } from "../request";

export const dynamic = "force-dynamic";

/**
 * Store the WordNet best, oot and mw baselines over the project's instances as
 * runs, scored with the gold of `?gold=ID` (else the project's own).
 */
export async function POST(req: Request, ctx: Ctx) {
  try {
    assertSameOrigin(req);
    const projectId = idOf((await ctx.params).projectId, "project");
    const gold = new URL(req.url).searchParams.get("gold");
    const db = getDb();
    const actor = await getActor();
    // The files are made and read in the derivation process (they grow with the project); here the write.
    const files = await derive(db, { op: "baselineFiles", actor, projectId });
    const r = storeWordNetBaselineRuns(db, actor, projectId, files, gold);
    return Response.json({ ok: true, ...r });
  } catch (e) {
    return errorResponse(e);
  }
}
