import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { assertSameOrigin, errorResponse, streamedResponse } from "@/lib/server/kernel";
import { deriveDownload } from "@/lib/server/jobs";
import { deleteRunInSlices } from "@/lib/server/scoring";
import { checkedMode } from "../../mode";
import { type Ctx, idOf } from "../../request";

export const dynamic = "force-dynamic";

type RunCtx = Ctx<{ runId: string }>;

async function ids(ctx: RunCtx) {
  const p = await ctx.params;
  return { projectId: idOf(p.projectId, "project"), runId: idOf(p.runId, "run") };
}

/** One run scored against the gold it was uploaded with: report, breakdowns, items, diagnostics; `?figures=repaired` for the repaired figures. */
export async function GET(req: Request, ctx: RunCtx) {
  try {
    const { projectId, runId } = await ids(ctx);
    const db = getDb();
    const actor = await getActor();
    const mode = checkedMode(db, actor, projectId, req);
    // Scored in the derivation process, which answers the JSON text; streamed in slices (a large run's detail is tens of MB).
    const { body } = await deriveDownload(db, { op: "runDetail", actor, projectId, runId, mode }, "text");
    return streamedResponse(body, { "Content-Type": "application/json" });
  } catch (e) {
    return errorResponse(e);
  }
}

/** Delete a stored run. */
export async function DELETE(req: Request, ctx: RunCtx) {
  try {
    assertSameOrigin(req);
    const { projectId, runId } = await ids(ctx);
    const name = await deleteRunInSlices(getDb(), await getActor(), projectId, runId);
    return Response.json({ ok: true, message: `Deleted ${name}.` });
  } catch (e) {
    return errorResponse(e);
  }
}
