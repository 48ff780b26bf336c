import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/http";
import { derive } from "@/lib/server/derive-pool";
import { listGolds, storeGold } from "@/lib/server/scoring";
import { type Ctx, coordinatorUpload, formFile, idOf } from "../request";

export const dynamic = "force-dynamic";

/** The project's golds for scoring (its own first, then the stored ones), each with its number of runs. */
export async function GET(_req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    return Response.json({ ok: true, golds: listGolds(getDb(), await getActor(), projectId) });
  } catch (e) {
    return errorResponse(e);
  }
}

/** Store uploaded gold / mwgold files with the project: multipart "gold", "mwgold" (at least one) and optional "name". */
export async function POST(req: Request, ctx: Ctx) {
  try {
    const up = await coordinatorUpload(req, ctx, 2);
    if (up instanceof Response) return up;
    const { db, actor, projectId, form } = up;
    const input = { name: String(form.get("name") ?? ""), gold: await formFile(form, "gold"), mwgold: await formFile(form, "mwgold") };
    // Read in the derivation process (it grows with the files); here the write.
    await derive(db, { op: "readGold", actor, projectId, gold: input.gold, mwgold: input.mwgold });
    const gold = storeGold(db, actor, projectId, input, true);
    return Response.json({ ok: true, gold });
  } catch (e) {
    return errorResponse(e);
  }
}
