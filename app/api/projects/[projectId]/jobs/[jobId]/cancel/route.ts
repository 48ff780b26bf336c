import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError, assertSameOrigin, errorResponse } from "@/lib/server/kernel";
import { cancelJob, getJob } from "@/lib/server/jobs";

export const dynamic = "force-dynamic";

/** Cancel a job: at once if it has not started, at its next slice if it runs (its rows are discarded). */
export async function POST(req: Request, ctx: { params: Promise<{ projectId: string; jobId: string }> }) {
  try {
    assertSameOrigin(req);
    const actor = await getActor();
    const { projectId, jobId } = await ctx.params;
    const db = getDb();
    if (getJob(db, actor, Number(jobId)).projectId !== Number(projectId)) throw new NotFoundError("No such job.");
    return Response.json({ ok: true, job: cancelJob(db, actor, Number(jobId)) });
  } catch (e) {
    return errorResponse(e);
  }
}
