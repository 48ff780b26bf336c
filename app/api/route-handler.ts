/**
 * The one shape of lexgold's route handlers (#43): the route's params, who asks (the session's
 * actor, lib/auth/session.ts: identity from the auth library, checked by the feature it is handed
 * to) and the database, and every error answered as JSON by `errorResponse`
 * (lib/server/kernel/http.ts) with its status. `sameOrigin` refuses a cross-site request before
 * anything else (every route that changes state). The save's route (responses/[instanceRef]) and
 * next-auth's keep their own shape: they are served before Next as well.
 */
import "server-only";
import { getActor } from "@/lib/auth/session";
import { type Db, getDb } from "@/lib/db";
import { type Actor, assertSameOrigin, errorResponse } from "@/lib/server/kernel";

export interface RouteRequest<P> {
  req: Request;
  params: P;
  actor: Actor;
  db: Db;
}

/** A route handler (GET, POST, …) from what it does with the request, its params, the actor and the database. */
export function routeHandler<P extends object>(
  handle: (r: RouteRequest<P>) => Response | Promise<Response>,
  options: { sameOrigin?: boolean } = {},
): (req: Request, ctx: { params: Promise<P> }) => Promise<Response> {
  return async (req, ctx) => {
    try {
      if (options.sameOrigin) assertSameOrigin(req);
      const actor = await getActor();
      return await handle({ req, params: await ctx.params, actor, db: getDb() });
    } catch (e) {
      return errorResponse(e);
    }
  };
}
