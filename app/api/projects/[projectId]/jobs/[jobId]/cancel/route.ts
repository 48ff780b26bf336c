import { NotFoundError } from "@/lib/server/kernel";
import { cancelJob, getJob } from "@/lib/server/jobs";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

/** Cancel a job: at once if it has not started, at its next slice if it runs (its rows are discarded). */
export const POST = routeHandler<{ projectId: string; jobId: string }>(
  ({ params, actor, db }) => {
    if (getJob(db, actor, Number(params.jobId)).projectId !== Number(params.projectId)) throw new NotFoundError("No such job.");
    return Response.json({ ok: true, job: cancelJob(db, actor, Number(params.jobId)) });
  },
  { sameOrigin: true },
);
