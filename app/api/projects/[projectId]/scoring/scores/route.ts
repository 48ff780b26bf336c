import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/kernel";
import { deriveDownload } from "@/lib/server/jobs";
import { checkedMode } from "../mode";
import { type Ctx, attachment, idOf, requestGold } from "../request";

export const dynamic = "force-dynamic";

/**
 * The figures of every run scored with one gold as JSON (`lexgold score --json`
 * per run, with per-PoS groups): `?gold=ID` for a stored gold (else the
 * project's own), `?figures=repaired` for the repaired figures. Scored in the
 * derivation process (a run of a million items takes seconds), streamed from there.
 */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    const db = getDb();
    const actor = await getActor();
    const mode = checkedMode(db, actor, projectId, req);
    const source = requestGold(db, actor, projectId, req);
    const { value, body } = await deriveDownload(db, { op: "scoresFile", actor, projectId, source, mode }, "text");
    return attachment(body, value.fileName, "application/json");
  } catch (e) {
    return errorResponse(e);
  }
}
