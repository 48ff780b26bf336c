import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { requireProject, errorResponse, attachmentDisposition, projectIdOf } from "@/lib/server/kernel";
import { flagsTsv } from "@/lib/server/annotate";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string }> };

/** Download every annotator flag and note of the project as TSV (coordinators of the project only). */
export async function GET(_req: Request, ctx: Ctx) {
  try {
    const actor = await getActor();
    const projectId = projectIdOf((await ctx.params).projectId);
    const db = getDb();
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
  } catch (e) {
    return errorResponse(e);
  }
}
