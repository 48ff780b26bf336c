import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/kernel";
import { scoresJson } from "@/lib/server/scoring";
import { checkedMode } from "../mode";
import { type Ctx, attachment, fileNameOf, idOf, requestGold } from "../request";

export const dynamic = "force-dynamic";

/**
 * The figures of every run scored with one gold as JSON (`lexgold score --json`
 * per run, with per-PoS groups): `?gold=ID` for a stored gold (else the
 * project's own), `?figures=repaired` for the repaired figures.
 */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    const db = getDb();
    const actor = await getActor();
    const mode = checkedMode(db, actor, projectId, req);
    const json = scoresJson(db, actor, projectId, requestGold(db, actor, projectId, req), mode);
    const suffix = json.figures === "repaired" ? "-repaired" : "";
    const gold = json.gold.id === null ? "" : `-${fileNameOf(json.gold.label)}`;
    return attachment(JSON.stringify(json, null, 2) + "\n", `${fileNameOf(json.project)}${gold}-scores${suffix}.json`, "application/json");
  } catch (e) {
    return errorResponse(e);
  }
}
