import { attachmentDisposition, projectIdOf } from "@/lib/server/kernel";
import { modelSystemFile } from "@/lib/server/models";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

/** A model's answers as a system file: ?model=NAME&type=best|oot[&sample=I] (coordinators of the project only; issue #41). */
export const GET = routeHandler<{ projectId: string }>(
  ({ req, params, actor, db }) => {
    const projectId = projectIdOf(params.projectId);
    const q = new URL(req.url).searchParams;
    const file = modelSystemFile(db, actor, projectId, q.get("model") ?? "", q.get("type") ?? "", q.get("sample") ?? 1);
    return new Response(file.text, {
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Disposition": attachmentDisposition(file.fileName),
        "Cache-Control": "no-store",
      },
    });
  },
);
