/**
 * The save's route, written once (#43 item 1): POST /api/projects/<digits>/responses/<digits>,
 * a query allowed (ignored). What the workspace's "Save & next" sends; scripts/serve.mjs serves
 * it itself (lib/server/annotate/save-request.ts serveSave), Next's route handler serves it under
 * `next dev` and in tests, and proxy.ts leaves it to its own request limit. A trailing slash or
 * another method is not the save (Next redirects or refuses it).
 */
export const SAVE_ROUTE = /^\/api\/projects\/(\d+)\/responses\/(\d+)(?:\?.*)?$/;

/** Is this request (method, path and query as sent) a save? */
export function isSaveRequest(req: { method?: string; url?: string }): boolean {
  return req.method === "POST" && SAVE_ROUTE.test(req.url ?? "");
}
