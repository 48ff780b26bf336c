import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/http";
import { scoresJson } from "@/lib/server/scoring";
import { checkedMode, requestMode } from "../mode";
import { type Ctx, attachment, fileNameOf, idOf, withUploadedGold } from "../request";

export const dynamic = "force-dynamic";

function download(json: ReturnType<typeof scoresJson>): Response {
  const suffix = json.figures === "repaired" ? "-repaired" : "";
  return attachment(JSON.stringify(json, null, 2) + "\n", `${fileNameOf(json.project)}-scores${suffix}.json`, "application/json");
}

/** Every run's figures as JSON (`lexgold score --json` per run, with per-PoS groups), against the project's gold; `?figures=repaired` for the repaired figures. */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    const db = getDb();
    const actor = await getActor();
    return download(scoresJson(db, actor, projectId, { kind: "project" }, checkedMode(db, actor, projectId, req)));
  } catch (e) {
    return errorResponse(e);
  }
}

/** The same against uploaded "gold" / "mwgold" files. */
export async function POST(req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    return await withUploadedGold(req, projectId, (db, actor, source) => download(scoresJson(db, actor, projectId, source, requestMode(req))));
  } catch (e) {
    return errorResponse(e);
  }
}
