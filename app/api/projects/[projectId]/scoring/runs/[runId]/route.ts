import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { assertSameOrigin, errorResponse, streamedResponse } from "@/lib/server/kernel";
import { deriveDownload, keptRunDetailText } from "@/lib/server/jobs";
import { deleteRunInSlices } from "@/lib/server/scoring";
import { checkedMode } from "../../mode";
import { type Ctx, idOf } from "../../request";

export const dynamic = "force-dynamic";

type RunCtx = Ctx<{ runId: string }>;

async function ids(ctx: RunCtx) {
  const p = await ctx.params;
  return { projectId: idOf(p.projectId, "project"), runId: idOf(p.runId, "run") };
}

/**
 * One run scored against the gold it was uploaded with: report, breakdowns, items, diagnostics;
 * `?figures=repaired` for the repaired figures. score.pl's figures come from the outcomes kept per
 * id with one page of items (`page`, `q` a text of the line, `item` an id, `missed=1`); `whole=1`,
 * the repaired figures or the other reading score the run whole (every item, the breakdown per lexelt).
 */
export async function GET(req: Request, ctx: RunCtx) {
  try {
    const { projectId, runId } = await ids(ctx);
    const db = getDb();
    const actor = await getActor();
    const mode = checkedMode(db, actor, projectId, req);
    const sp = new URL(req.url).searchParams;
    if (sp.get("whole") !== "1") {
      const query = { page: Number(sp.get("page") ?? 1) || 1, q: sp.get("q") ?? "", item: sp.get("item") ?? "", missed: sp.get("missed") === "1" };
      const kept = await keptRunDetailText(db, actor, projectId, runId, mode, query);
      if (kept !== null) return new Response(kept, { headers: { "Content-Type": "application/json" } });
    }
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
