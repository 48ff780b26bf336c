import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/kernel";
import { listJobs } from "@/lib/server/jobs";

export const dynamic = "force-dynamic";

/** The project's recent jobs with their progress (the pages poll this); `?kind=` narrows to kinds. */
export async function GET(req: Request, ctx: { params: Promise<{ projectId: string }> }) {
  try {
    const actor = await getActor();
    const projectId = Number((await ctx.params).projectId);
    const kinds = new URL(req.url).searchParams.getAll("kind");
    return Response.json({ ok: true, jobs: listJobs(getDb(), actor, projectId, { kinds }) }, { headers: { "Cache-Control": "no-store" } });
  } catch (e) {
    return errorResponse(e);
  }
}
