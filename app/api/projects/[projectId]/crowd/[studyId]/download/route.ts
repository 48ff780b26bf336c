import { attachmentDisposition, pathId, projectIdOf } from "@/lib/server/kernel";
import { paymentFile } from "@/lib/server/crowd";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

/**
 * A study's payment files and participants table (coordinators of the project only):
 * ?file=prolific-approve | prolific-bonus | mturk | tsv (lib/server/crowd/payments.ts).
 */
export const GET = routeHandler<{ projectId: string; studyId: string }>(({ req, params, actor, db }) => {
  const projectId = projectIdOf(params.projectId);
  // Not an id: 0, which no study has ("No such study", once the actor is checked).
  const studyId = pathId(params.studyId) ?? 0;
  const file = new URL(req.url).searchParams.get("file") ?? "tsv";
  const d = paymentFile(db, actor, projectId, studyId, file);
  return new Response(d.text, {
    headers: {
      "Content-Type": d.contentType,
      "Content-Disposition": attachmentDisposition(d.fileName),
      "Cache-Control": "no-store",
    },
  });
});
