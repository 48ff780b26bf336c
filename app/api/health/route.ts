/**
 * The health check: 200 `{"ok":true}` when the server answers and its database reads, 503
 * otherwise. Cheap (one `select 1`, no session, outside the page limit) and public: it says
 * nothing but that. The container image's HEALTHCHECK (scripts/container/healthcheck.mjs) and a
 * reverse proxy's or orchestrator's probe ask it.
 */
import { getDb } from "@/lib/db";
import { databaseAnswers } from "@/lib/server/ops";

export const dynamic = "force-dynamic";

const HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

export function GET() {
  let ok = false;
  try {
    ok = databaseAnswers(getDb());
  } catch {
    ok = false;
  }
  return Response.json({ ok }, { status: ok ? 200 : 503, headers: HEADERS });
}
