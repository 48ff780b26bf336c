import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { answerWithJob } from "@/lib/server/jobs";
import { InputError, errorResponse } from "@/lib/server/kernel";
import { listRuns } from "@/lib/server/scoring";
import { type Ctx, coordinatorUpload, idOf, savedUpload } from "../request";
import { answerForm, projectPage } from "@/app/_ui/native-answer";

export const dynamic = "force-dynamic";

/** The project's stored runs (coordinators only). */
export async function GET(_req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    return Response.json({ ok: true, runs: listRuns(getDb(), await getActor(), projectId) });
  } catch (e) {
    return errorResponse(e);
  }
}

/**
 * Store a system file as a run: multipart "file" (text, or gzip), optional "type" (best|oot|mw|auto), "name",
 * "gold" (a stored gold id; absent for the project's own) and "confirm" ("1": store it even though lines of it
 * have errors; else such a run is refused with the errors and the field "confirm"). Decoded, read as the scorer
 * reads it and written by the jobs worker (kind "scoring-run"): a file of tens of MB never holds this thread.
 * Answers when it is stored.
 * A form posted without JavaScript is answered with the Scoring page of the run's gold (app/_ui/native-answer.ts).
 */
export async function POST(req: Request, ctx: Ctx) {
  const page = projectPage((await ctx.params).projectId, "/scoring");
  return answerForm(req, await storeRun(req, ctx), (a) => {
    const gold = (a as { run?: { goldId?: number | null } }).run?.goldId;
    return `${page}${gold ? `?gold=${gold}` : ""}`;
  }, "run");
}

async function storeRun(req: Request, ctx: Ctx): Promise<Response> {
  try {
    const up = await coordinatorUpload(req, ctx, 1);
    if (up instanceof Response) return up;
    const { db, actor, projectId, form } = up;
    const file = form.get("file");
    if (!(file instanceof File) || file.name === "") throw new InputError("Choose a system file to upload.", { file: "Choose a file." });
    const saved = (await savedUpload(form, "file"))!;
    const input = { ...saved, type: String(form.get("type") ?? ""), name: String(form.get("name") ?? ""), gold: String(form.get("gold") ?? ""), confirm: form.get("confirm") === "1" };
    // Scored at once: the answer waits for the job that stores and scores the run, and carries its report.
    const files = [saved.path];
    return await answerWithJob(db, actor, projectId, { kind: "scoring-run", input: { ...input, paths: files }, files, wait: true, done: (report) => Response.json({ ok: true, ...(report as object) }) });
  } catch (e) {
    return errorResponse(e);
  }
}
