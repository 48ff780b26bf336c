import { NotFoundError } from "@/lib/server/kernel";
import { getJob } from "@/lib/server/jobs";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

/** One job's state, progress and report. */
export const GET = routeHandler<{ projectId: string; jobId: string }>(({ params, actor, db }) => {
  const job = getJob(db, actor, Number(params.jobId));
  if (job.projectId !== Number(params.projectId)) throw new NotFoundError("No such job.");
  return Response.json({ ok: true, job }, { headers: { "Cache-Control": "no-store" } });
});
