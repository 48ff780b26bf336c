import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { InputError } from "@/lib/server/errors";
import { errorResponse, uploadBytes } from "@/lib/server/http";
import { derive } from "@/lib/server/derive-pool";
import { listRuns, uploadRun } from "@/lib/server/scoring";
import { type Ctx, coordinatorUpload, idOf } from "../request";

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

/** Store a system file as a run: multipart "file", optional "type" (best|oot|mw|auto), "name" and "gold" (a stored gold id; absent for the project's own). */
export async function POST(req: Request, ctx: Ctx) {
  try {
    const up = await coordinatorUpload(req, ctx, 1);
    if (up instanceof Response) return up;
    const { db, actor, projectId, form } = up;
    const file = form.get("file");
    if (!(file instanceof File) || file.name === "") throw new InputError("Choose a system file to upload.", { file: "Choose a file." });
    const bytes = await uploadBytes(file);
    const type = String(form.get("type") ?? "");
    // Read in the derivation process (it grows with the file); here only the small checks and the write.
    const reading = await derive(db, { op: "readRun", actor, projectId, fileName: file.name.trim(), bytes, type });
    const r = uploadRun(db, actor, projectId, { fileName: file.name, bytes, type, name: String(form.get("name") ?? ""), gold: String(form.get("gold") ?? "") }, reading);
    return Response.json({ ok: true, ...r });
  } catch (e) {
    return errorResponse(e);
  }
}
