import { listJobs } from "@/lib/server/jobs";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

/** The project's recent jobs with their progress (the pages poll this); `?kind=` narrows to kinds. */
export const GET = routeHandler<{ projectId: string }>(({ req, params, actor, db }) => {
  const kinds = new URL(req.url).searchParams.getAll("kind");
  return Response.json({ ok: true, jobs: listJobs(db, actor, Number(params.projectId), { kinds }) }, { headers: { "Cache-Control": "no-store" } });
});
