import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { rm } from "node:fs/promises";
import { assertSameOrigin, errorResponse, saveUpload } from "@/lib/server/kernel";
import { derive, uploadPath } from "@/lib/server/jobs";
import { MAX_RANKED_RUNS, listRuns } from "@/lib/server/scoring";
import { type Ctx, idOf, limitedForm, tooBig } from "../request";
import { answerForm, projectPage } from "@/app/_ui/native-answer";
import { checkDeclaredUpload } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

/**
 * Score ranked outputs with a benchmark's measures (nothing is stored):
 * multipart "benchmark", "gold" (optional for gap: the project's gold),
 * "runs" (one or more files), "format", "variant", "noMwe", "mlsp", "repaired".
 * A form posted without JavaScript is answered with the Ranking page, which shows the scores (app/_ui/native-answer.ts).
 */
export async function POST(req: Request, ctx: Ctx) {
  return answerForm(req, await scoreRanking(req, ctx), projectPage((await ctx.params).projectId, "/scoring/ranking"), "ranking");
}

async function scoreRanking(req: Request, ctx: Ctx): Promise<Response> {
  try {
    assertSameOrigin(req);
    const actor = await getActor();
    const projectId = idOf((await ctx.params).projectId, "project");
    const db = getDb();
    listRuns(db, actor, projectId);
    checkDeclaredUpload(db, actor, req);
    const big = tooBig(req, MAX_RANKED_RUNS + 1);
    if (big) return big;
    const form = await limitedForm(req, MAX_RANKED_RUNS + 1);
    // Each file to a temporary file of its own: the derivation process reads one run at a time (#38 finding 8),
    // and no file crosses to it as bytes.
    const paths: string[] = [];
    const file = async (v: FormDataEntryValue | null) => {
      if (!(v instanceof File) || (v.size === 0 && v.name === "")) return null;
      const path = uploadPath();
      paths.push(path);
      await saveUpload(v, path);
      return { name: v.name, path };
    };
    try {
      const runs = [];
      for (const v of form.getAll("runs")) {
        const f = await file(v);
        if (f) runs.push(f);
      }
      const result = await derive(db, { op: "ranking", actor, projectId, input: {
        benchmark: String(form.get("benchmark") ?? ""),
        gold: await file(form.get("gold")),
        runs,
        format: String(form.get("format") ?? ""),
        variant: String(form.get("variant") ?? ""),
        noMwe: form.get("noMwe") === "on",
        mlsp: form.get("mlsp") === "on",
        repaired: form.get("repaired") === "on",
      } });
      return Response.json({ ok: true, result });
    } finally {
      for (const p of paths) await rm(p, { force: true });
    }
  } catch (e) {
    return errorResponse(e);
  }
}
