/**
 * Save the signed-in user's response to one instance: what the workspace's
 * "Save & next" sends (app/annotate/save-request.ts). A route handler rather than
 * a server action, so a save costs the checks and the transaction, not a pass
 * through the page runtime (issue #14). Everything the browser sends is
 * untrusted: the checks, their order and the answers are in
 * lib/server/annotate/save-request.ts, which the production server also runs
 * before Next (scripts/serve.mjs routes the save there itself, lib/serve): this route
 * serves the saves that reach Next (`next dev`, LEXGOLD_SAVE_BEFORE_NEXT=0, tests).
 */
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { readBodyLimited, toResponse } from "@/lib/server/kernel";
import { handleSaveRequest } from "@/lib/server/annotate";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string; instanceRef: string }> };

export async function POST(req: Request, ctx: Ctx) {
  const { projectId, instanceRef } = await ctx.params;
  const answer = await handleSaveRequest(getDb, {
    headers: req.headers,
    projectId,
    instanceRef,
    actor: getActor,
    readBody: (max, message) => readBodyLimited(req, max, message),
  });
  return toResponse(answer);
}
