import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { assertSameOrigin, errorResponse } from "@/lib/server/kernel";
import { derive } from "@/lib/server/jobs";
import { listRuns } from "@/lib/server/scoring";
import { type Ctx, formFile, idOf, limitedForm, tooBig } from "../request";
import { answerForm, projectPage } from "@/app/_ui/native-answer";
import { checkDeclaredUpload } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/**
 * Score SENSEVAL answers on submit (nothing is stored): multipart "answers",
 * "key", optional "sensemap", and "granularity", "treatment", "stingy".
 * A form posted without JavaScript is answered with the Scoring page, which shows the scores (app/_ui/native-answer.ts).
 */
export async function POST(req: Request, ctx: Ctx) {
  const page = projectPage((await ctx.params).projectId, "/scoring");
  return answerForm(req, await scoreSenseval(req, ctx), `${page}#senseval-heading`, "senseval");
}

async function scoreSenseval(req: Request, ctx: Ctx): Promise<Response> {
  try {
    assertSameOrigin(req);
    const actor = await getActor();
    const projectId = idOf((await ctx.params).projectId, "project");
    const db = getDb();
    listRuns(db, actor, projectId);
    checkDeclaredUpload(db, actor, req);
    const big = tooBig(req, 3);
    if (big) return big;
    const form = await limitedForm(req, 3);
    const result = await derive(db, { op: "senseval", actor, projectId, input: {
      answers: (await formFile(form, "answers", true))!,
      key: (await formFile(form, "key", true))!,
      sensemap: await formFile(form, "sensemap"),
      granularity: String(form.get("granularity") ?? ""),
      treatment: String(form.get("treatment") ?? ""),
      stingy: String(form.get("stingy") ?? ""),
    } });
    return Response.json({ ok: true, result });
  } catch (e) {
    return errorResponse(e);
  }
}
