import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/kernel";
import { swordsExport } from "@/lib/server/judgement";
import { type Ctx, attachment, idOf } from "../../../scoring/request";

export const dynamic = "force-dynamic";

/** The round's labels in the SWORDS v1.1 JSON layout (coordinator of the round's project). */
export async function GET(_req: Request, ctx: Ctx<{ roundId: string }>) {
  try {
    const p = await ctx.params;
    const roundId = idOf(p.roundId, "round");
    const json = swordsExport(getDb(), await getActor(), roundId, idOf(p.projectId, "project"));
    return attachment(JSON.stringify(json, null, 2) + "\n", `judgement-${roundId}.swords.json`, "application/json");
  } catch (e) {
    return errorResponse(e);
  }
}
