import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { attachmentDisposition, errorResponse, pathId, projectIdOf } from "@/lib/server/kernel";
import { paymentFile } from "@/lib/server/crowd";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string; studyId: string }> };

/**
 * A study's payment files and participants table (coordinators of the project only):
 * ?file=prolific-approve | prolific-bonus | mturk | tsv (lib/server/crowd/payments.ts).
 */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const actor = await getActor();
    const params = await ctx.params;
    const projectId = projectIdOf(params.projectId);
    // Not an id: 0, which no study has ("No such study", once the actor is checked).
    const studyId = pathId(params.studyId) ?? 0;
    const file = new URL(req.url).searchParams.get("file") ?? "tsv";
    const d = paymentFile(getDb(), actor, projectId, studyId, file);
    return new Response(d.text, {
      headers: {
        "Content-Type": d.contentType,
        "Content-Disposition": attachmentDisposition(d.fileName),
        "Cache-Control": "no-store",
      },
    });
  } catch (e) {
    return errorResponse(e);
  }
}
