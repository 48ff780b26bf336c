import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError, errorResponse } from "@/lib/server/kernel";
import { getJob } from "@/lib/server/jobs";

export const dynamic = "force-dynamic";

/** One job's state, progress and report. */
export async function GET(_req: Request, ctx: { params: Promise<{ projectId: string; jobId: string }> }) {
  try {
    const actor = await getActor();
    const { projectId, jobId } = await ctx.params;
    const job = getJob(getDb(), actor, Number(jobId));
    if (job.projectId !== Number(projectId)) throw new NotFoundError("No such job.");
    return Response.json({ ok: true, job }, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    return errorResponse(e);
  }
}
