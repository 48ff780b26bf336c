import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { agreementDownload } from "@/lib/server/agreement";
import { errorResponse } from "@/lib/server/http";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string }> };

/**
 * Download the project's agreement report: ?format=json (the whole report, keys
 * as in lib/lexsub/agreement.ts) or ?format=csv&table=items|annotators|lexelts.
 * Coordinators of the project only (checked by the data access layer).
 */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const actor = await getActor();
    const projectId = Number((await ctx.params).projectId);
    const q = new URL(req.url).searchParams;
    const file = agreementDownload(getDb(), actor, projectId, { format: q.get("format") ?? undefined, table: q.get("table") ?? undefined });
    return new Response(file.body, {
      headers: {
        "Content-Type": file.contentType,
        "Content-Disposition": `attachment; filename="${file.fileName}"`,
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (e) {
    return errorResponse(e);
  }
}
