import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/kernel";
import { runFile } from "@/lib/server/scoring";
import { type Ctx, attachment, fileNameOf, idOf } from "../../../request";

export const dynamic = "force-dynamic";

/** The stored system file, as uploaded. */
export async function GET(_req: Request, ctx: Ctx<{ runId: string }>) {
  try {
    const p = await ctx.params;
    const r = runFile(getDb(), await getActor(), idOf(p.projectId, "project"), idOf(p.runId, "run"));
    return attachment(r.content, fileNameOf(r.fileName), "text/plain");
  } catch (e) {
    return errorResponse(e);
  }
}
