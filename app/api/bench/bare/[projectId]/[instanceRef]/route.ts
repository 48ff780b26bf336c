/**
 * The bare route again, at a path shaped like the save's (two dynamic segments) and with the save's
 * session check (the same cookie, decoded and looked up as getActor does): what those two add to a
 * request, measured beside the bare route by bench/load.ts. 404 unless LEXGOLD_BENCH_BARE=1
 * (lib/server/ops/bench-bare.ts).
 */
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { benchBareEnabled, benchBareTransaction } from "@/lib/server/ops";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string; instanceRef: string }> };

export async function POST(req: Request, ctx: Ctx) {
  if (!benchBareEnabled()) return new Response("Not found", { status: 404 });
  const actor = await getActor();
  if (!actor) return Response.json({ ok: false }, { status: 401 });
  const { projectId, instanceRef } = await ctx.params;
  const body = JSON.stringify(await req.json());
  const id = benchBareTransaction(getDb(), `${projectId}/${instanceRef} ${body}`);
  return Response.json({ ok: true, id }, { headers: { "Cache-Control": "no-store" } });
}
