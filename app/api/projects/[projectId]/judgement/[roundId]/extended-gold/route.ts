import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/kernel";
import { extendedGold } from "@/lib/server/judgement";
import { type Ctx, attachment, idOf } from "../../../scoring/request";

export const dynamic = "force-dynamic";

/** The project's gold plus the round's candidates judged good (coordinator of the round's project). */
export async function GET(_req: Request, ctx: Ctx<{ roundId: string }>) {
  try {
    const p = await ctx.params;
    const roundId = idOf(p.roundId, "round");
    return attachment(extendedGold(getDb(), await getActor(), roundId, idOf(p.projectId, "project")), `judgement-${roundId}.extended.gold`, "text/plain");
  } catch (e) {
    return errorResponse(e);
  }
}
