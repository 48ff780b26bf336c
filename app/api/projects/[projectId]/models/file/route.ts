import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { attachmentDisposition, errorResponse, projectIdOf } from "@/lib/server/kernel";
import { modelSystemFile } from "@/lib/server/models";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string }> };

/** A model's answers as a system file: ?model=NAME&type=best|oot[&sample=I] (coordinators of the project only; issue #41). */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const actor = await getActor();
    const projectId = projectIdOf((await ctx.params).projectId);
    const q = new URL(req.url).searchParams;
    const file = modelSystemFile(getDb(), actor, projectId, q.get("model") ?? "", q.get("type") ?? "", q.get("sample") ?? 1);
    return new Response(file.text, {
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Disposition": attachmentDisposition(file.fileName),
        "Cache-Control": "no-store",
      },
    });
  } catch (e) {
    return errorResponse(e);
  }
}
