import { requireProject, attachmentDisposition, projectIdOf } from "@/lib/server/kernel";
import { flagsTsv } from "@/lib/server/annotate";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

/** Download every annotator flag and note of the project as TSV (coordinators of the project only). */
export const GET = routeHandler<{ projectId: string }>(({ params, actor, db }) => {
  const projectId = projectIdOf(params.projectId);
  const project = requireProject(db, actor, projectId, { coordinator: true });
  const text = flagsTsv(db, actor, projectId);
  const fileName = `${project.name.replace(/[^A-Za-z0-9._-]+/g, "-")}-flags.tsv`;
  return new Response(text, {
    headers: {
      "Content-Type": "text/tab-separated-values; charset=utf-8",
      "Content-Disposition": attachmentDisposition(fileName),
      "Cache-Control": "no-store",
    },
  });
});
