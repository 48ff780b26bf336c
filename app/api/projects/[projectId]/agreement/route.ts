import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { deriveDownload } from "@/lib/server/jobs";
import { errorResponse, streamedResponse, attachmentDisposition, projectIdOf } from "@/lib/server/kernel";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string }> };

/**
 * Download the project's agreement report: ?format=json (the whole report, keys
 * as in lib/lexsub/agreement/types.ts) or ?format=csv&table=items|annotators|lexelts.
 * Coordinators of the project only (checked by the data access layer).
 */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const actor = await getActor();
    const projectId = projectIdOf((await ctx.params).projectId);
    const q = new URL(req.url).searchParams;
    // Derived on the worker thread (cached until the next change), sent in slices.
    const { value: file, body } = await deriveDownload(
      getDb(),
      { op: "agreementDownload", actor, projectId, query: { format: q.get("format") ?? undefined, table: q.get("table") ?? undefined } },
      "body",
    );
    return streamedResponse(body, { "Content-Type": file.contentType, "Content-Disposition": attachmentDisposition(file.fileName) });
  } catch (e) {
    return errorResponse(e);
  }
}
