import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { errorResponse } from "@/lib/server/kernel";
import { deriveDownload } from "@/lib/server/jobs";
import { checkedMode } from "../../../mode";
import { type Ctx, attachment, fileNameOf, idOf } from "../../../request";

export const dynamic = "force-dynamic";

type RunCtx = Ctx<{ runId: string }>;

/**
 * The official text report of a run against the gold it was uploaded with, as
 * `lexgold score` prints it (`?verbose=1`: with the `-v` lines first;
 * `?figures=repaired`: as `lexgold score --repaired` prints it), as a download.
 */
export async function GET(req: Request, ctx: RunCtx) {
  try {
    const p = await ctx.params;
    const projectId = idOf(p.projectId, "project");
    const runId = idOf(p.runId, "run");
    const actor = await getActor();
    const db = getDb();
    const mode = checkedMode(db, actor, projectId, req);
    const verbose = new URL(req.url).searchParams.get("verbose") === "1";
    const { value: r, body } = await deriveDownload(db, { op: "runReport", actor, projectId, runId, verbose, mode }, "text");
    return attachment(body, `${fileNameOf(r.run.name)}.${r.run.type}${mode.repaired ? ".repaired" : ""}${verbose ? ".verbose" : ""}.txt`, "text/plain");
  } catch (e) {
    return errorResponse(e);
  }
}
