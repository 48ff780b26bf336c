import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { assertSameOrigin, errorResponse } from "@/lib/server/http";
import { type GoldSource, listRuns, runReport } from "@/lib/server/scoring";
import { requestMode } from "../../../mode";
import { type Ctx, attachment, fileNameOf, idOf, limitedForm, tooBig, uploadedGold } from "../../../request";

export const dynamic = "force-dynamic";

type RunCtx = Ctx<{ runId: string }>;

/**
 * The official text report of a run, as `lexgold score` prints it (`?verbose=1`:
 * with the `-v` lines first; `?figures=repaired`: as `lexgold score --repaired`
 * prints it), as a download. GET scores against the project's
 * gold; POST against uploaded "gold" / "mwgold" files.
 */
async function report(req: Request, ctx: RunCtx, source: (req: Request) => Promise<GoldSource>) {
  const p = await ctx.params;
  const projectId = idOf(p.projectId, "project");
  const runId = idOf(p.runId, "run");
  const actor = await getActor();
  const db = getDb();
  listRuns(db, actor, projectId);
  const verbose = new URL(req.url).searchParams.get("verbose") === "1";
  const mode = requestMode(req);
  const r = runReport(db, actor, projectId, runId, await source(req), verbose, mode);
  return attachment(r.text, `${fileNameOf(r.run.name)}.${r.run.type}${mode.repaired ? ".repaired" : ""}${verbose ? ".verbose" : ""}.txt`, "text/plain");
}

export async function GET(req: Request, ctx: RunCtx) {
  try {
    return await report(req, ctx, async () => ({ kind: "project" }));
  } catch (e) {
    return errorResponse(e);
  }
}

export async function POST(req: Request, ctx: RunCtx) {
  try {
    assertSameOrigin(req);
    return tooBig(req, 2) ?? (await report(req, ctx, async (r) => uploadedGold(await limitedForm(r, 2))));
  } catch (e) {
    return errorResponse(e);
  }
}
