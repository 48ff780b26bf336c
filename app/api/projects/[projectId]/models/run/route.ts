import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { assertSameOrigin, errorResponse, InputError, projectIdOf, readBodyLimited } from "@/lib/server/kernel";
import { jobResponse, startJob } from "@/lib/server/jobs";
import { modelRunInput } from "@/lib/server/models";

export const dynamic = "force-dynamic";

/**
 * Start a model's run over the project, for scripts (the Models tab's forms do the same; issue #41):
 * a JSON body { model, purpose?: "annotate" | "candidates", samples?, temperature?, instances?: "all" | N }.
 * Answers 202 with the job at once (follow it at /api/projects/P/jobs/ID, cancel it at …/cancel); with
 * `?wait=1` when it ends. Coordinators of the project only.
 */
export async function POST(req: Request, ctx: { params: Promise<{ projectId: string }> }) {
  try {
    assertSameOrigin(req);
    const actor = await getActor();
    const projectId = projectIdOf((await ctx.params).projectId);
    const bytes = await readBodyLimited(req, 16 * 1024, "The request is over 16 KiB.");
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new InputError("The request is not valid JSON.");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new InputError("The request must be a JSON object.");
    const db = getDb();
    const input = modelRunInput(db, actor, projectId, body as Record<string, unknown>);
    const job = startJob(db, actor, projectId, "model-run", input as unknown as Record<string, unknown>);
    return await jobResponse(db, actor, job, new URL(req.url).searchParams.get("wait") === "1");
  } catch (e) {
    return errorResponse(e);
  }
}
