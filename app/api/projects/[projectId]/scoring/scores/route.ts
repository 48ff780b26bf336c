import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/http";
import { scoresJson } from "@/lib/server/scoring";
import { type Ctx, attachment, fileNameOf, idOf, withUploadedGold } from "../request";

export const dynamic = "force-dynamic";

function download(json: ReturnType<typeof scoresJson>): Response {
  return attachment(JSON.stringify(json, null, 2) + "\n", `${fileNameOf(json.project)}-scores.json`, "application/json");
}

/** Every run's figures as JSON (`lexgold score --json` per run, with per-PoS groups), against the project's gold. */
export async function GET(_req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    return download(scoresJson(getDb(), await getActor(), projectId, { kind: "project" }));
  } catch (e) {
    return errorResponse(e);
  }
}

/** The same against uploaded "gold" / "mwgold" files. */
export async function POST(req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    return await withUploadedGold(req, projectId, (db, actor, source) => download(scoresJson(db, actor, projectId, source)));
  } catch (e) {
    return errorResponse(e);
  }
}
