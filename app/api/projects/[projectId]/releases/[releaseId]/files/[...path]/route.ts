/**
 * One file of a release as it was made (coordinators of the project): the Release page's plots and
 * the files its list opens. Only the paths the release's manifest lists (lib/server/releases);
 * `?download=1` sends it as an attachment. Sandboxed: a file is shown, never run.
 */
import { attachmentDisposition, NotFoundError, pathId } from "@/lib/server/kernel";
import { releaseFile } from "@/lib/server/releases";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

export const GET = routeHandler<{ projectId: string; releaseId: string; path: string[] }>(async ({ req, params, actor, db }) => {
  const projectId = pathId(params.projectId);
  const releaseId = pathId(params.releaseId);
  if (projectId === null || releaseId === null) throw new NotFoundError("No such release.");
  const f = await releaseFile(db, actor, projectId, releaseId, params.path.join("/"));
  const download = new URL(req.url).searchParams.get("download") === "1";
  return new Response(new Uint8Array(f.bytes), {
    headers: {
      "Content-Type": f.contentType,
      "Content-Length": String(f.bytes.length),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      ...(download ? { "Content-Disposition": attachmentDisposition(f.path.split("/").pop() ?? f.path) } : {}),
    },
  });
});
