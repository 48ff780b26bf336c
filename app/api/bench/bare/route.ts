/**
 * The load benchmark's bare route (lib/server/ops/bench-bare.ts): 404 unless the server was started
 * with LEXGOLD_BENCH_BARE=1, as only bench/load.ts starts it.
 */
import { getDb } from "@/lib/db";
import { benchBareEnabled, benchBareTransaction } from "@/lib/server/ops";

export const dynamic = "force-dynamic";

export async function POST(req: Request) {
  if (!benchBareEnabled()) return new Response("Not found", { status: 404 });
  const body = JSON.stringify(await req.json());
  const id = benchBareTransaction(getDb(), body);
  return Response.json({ ok: true, id }, { headers: { "Cache-Control": "no-store" } });
}
