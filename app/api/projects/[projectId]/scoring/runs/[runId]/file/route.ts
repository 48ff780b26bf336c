import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse, streamedResponse, attachmentDisposition } from "@/lib/server/kernel";
import { runFileDownload } from "@/lib/server/scoring";
import { type Ctx, fileNameOf, idOf } from "../../../request";

export const dynamic = "force-dynamic";

/** The stored system file, as uploaded. */
export async function GET(_req: Request, ctx: Ctx<{ runId: string }>) {
  try {
    const p = await ctx.params;
    const r = runFileDownload(getDb(), await getActor(), idOf(p.projectId, "project"), idOf(p.runId, "run"));
    // Its pieces, read one at a time as the response is sent.
    return streamedResponse(r.pieces, { "Content-Type": "text/plain; charset=utf-8", "Content-Disposition": attachmentDisposition(fileNameOf(r.run.fileName)) });
  } catch (e) {
    return errorResponse(e);
  }
}
