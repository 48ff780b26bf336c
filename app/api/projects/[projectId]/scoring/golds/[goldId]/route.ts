import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { assertSameOrigin, errorResponse } from "@/lib/server/kernel";
import { deleteGold } from "@/lib/server/scoring";
import { type Ctx, idOf } from "../../request";

export const dynamic = "force-dynamic";

/** Delete a stored gold (refused while runs are scored with it). */
export async function DELETE(req: Request, ctx: Ctx<{ goldId: string }>) {
  try {
    assertSameOrigin(req);
    const p = await ctx.params;
    const name = deleteGold(getDb(), await getActor(), idOf(p.projectId, "project"), idOf(p.goldId, "gold"));
    return Response.json({ ok: true, message: `Deleted the gold ${name}.` });
  } catch (e) {
    return errorResponse(e);
  }
}
