import { rm } from "node:fs/promises";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { answerWithJob } from "@/lib/server/jobs";
import { errorResponse } from "@/lib/server/kernel";
import { listGolds } from "@/lib/server/scoring";
import { type Ctx, coordinatorUpload, idOf, savedUpload } from "../request";
import { answerForm, projectPage } from "@/app/_ui/native-answer";

export const dynamic = "force-dynamic";

/** The project's golds for scoring (its own first, then the stored ones), each with its number of runs. */
export async function GET(_req: Request, ctx: Ctx) {
  try {
    const projectId = idOf((await ctx.params).projectId, "project");
    return Response.json({ ok: true, golds: listGolds(getDb(), await getActor(), projectId) });
  } catch (e) {
    return errorResponse(e);
  }
}

/**
 * Store uploaded gold / mwgold files with the project: multipart "gold", "mwgold" (at least one) and optional
 * "name". Checked and written by the jobs worker (kind "scoring-gold"), not on this thread; answers when stored.
 * A form posted without JavaScript is answered with the Scoring page of the gold stored (app/_ui/native-answer.ts).
 */
export async function POST(req: Request, ctx: Ctx) {
  const page = projectPage((await ctx.params).projectId, "/scoring");
  return answerForm(req, await storeGoldFiles(req, ctx), (a) => {
    const gold = (a as { gold?: { id?: number | null } }).gold?.id;
    return `${page}${gold ? `?gold=${gold}` : ""}`;
  }, "gold");
}

async function storeGoldFiles(req: Request, ctx: Ctx): Promise<Response> {
  try {
    const up = await coordinatorUpload(req, ctx, 2);
    if (up instanceof Response) return up;
    const { db, actor, projectId, form } = up;
    const gold = await savedUpload(form, "gold");
    const mwgold = await savedUpload(form, "mwgold").catch(async (e) => {
      if (gold) await rm(gold.path, { force: true });
      throw e;
    });
    const paths = [gold, mwgold].flatMap((f) => (f ? [f.path] : []));
    const input = { name: String(form.get("name") ?? ""), gold, mwgold, paths };
    return await answerWithJob(db, actor, projectId, {
      kind: "scoring-gold",
      input,
      files: paths,
      wait: true,
      done: (report) => Response.json({ ok: true, gold: listGolds(db, actor, projectId).find((g) => g.id === (report as { id: number }).id) }),
    });
  } catch (e) {
    return errorResponse(e);
  }
}
