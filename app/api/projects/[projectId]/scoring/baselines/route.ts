import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { storeWordNetBaselineRuns } from "@/lib/server/scoring";
import { derive } from "@/lib/server/jobs";
import { assertSameOrigin, errorResponse, pathId } from "@/lib/server/kernel";
import { type Ctx, idOf } from "../request";
import { answerForm, projectPage } from "@/app/_ui/native-answer";

export const dynamic = "force-dynamic";

/**
 * Store the WordNet best, oot and mw baselines over the project's instances as
 * runs, scored with the gold of `?gold=ID` (else the project's own).
 * A form posted without JavaScript is answered with the Scoring page (app/_ui/native-answer.ts).
 */
export async function POST(req: Request, ctx: Ctx) {
  const page = projectPage((await ctx.params).projectId, "/scoring");
  // The gold the runs are scored with, as the page names it (a stored gold's id; else the project's own).
  const gold = pathId(new URL(req.url).searchParams.get("gold") ?? "");
  return answerForm(req, await addBaselines(req, ctx), `${page}${gold ? `?gold=${gold}` : ""}`, "baselines");
}

async function addBaselines(req: Request, ctx: Ctx): Promise<Response> {
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
