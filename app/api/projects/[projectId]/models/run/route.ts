import { InputError, projectIdOf, readBodyLimited } from "@/lib/server/kernel";
import { answerWithJob } from "@/lib/server/jobs";
import { modelRunInput } from "@/lib/server/models";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

/**
 * Start a model's run over the project, for scripts (the Models tab's forms do the same; issue #41):
 * a JSON body { model, purpose?: "annotate" | "candidates", samples?, temperature?, instances?: "all" | N }.
 * Answers 202 with the job at once (follow it at /api/projects/P/jobs/ID, cancel it at …/cancel); with
 * `?wait=1` when it ends. Coordinators of the project only.
 */
export const POST = routeHandler<{ projectId: string }>(
  async ({ req, params, actor, db }) => {
    const projectId = projectIdOf(params.projectId);
    const bytes = await readBodyLimited(req, 16 * 1024, "The request is over 16 KiB.");
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new InputError("The request is not valid JSON.");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) throw new InputError("The request must be a JSON object.");
    const input = modelRunInput(db, actor, projectId, body as Record<string, unknown>);
    return await answerWithJob(db, actor, projectId, { kind: "model-run", input: input as unknown as Record<string, unknown>, wait: new URL(req.url).searchParams.get("wait") === "1" });
  },
  { sameOrigin: true },
);
