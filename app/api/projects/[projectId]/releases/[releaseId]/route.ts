/**
 * A release's .tar.gz as it was made (coordinators of the project), sent in 64 KB slices with its
 * SHA-256 in a header, so a script can check what it received.
 */
import { attachmentDisposition, NotFoundError, pathId, streamedResponse } from "@/lib/server/kernel";
import { releaseArchive } from "@/lib/server/releases";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

const SLICE = 64 * 1024;

export const GET = routeHandler<{ projectId: string; releaseId: string }>(
  ({ params, actor, db }) => {
    const projectId = pathId(params.projectId);
    const releaseId = pathId(params.releaseId);
    if (projectId === null || releaseId === null) throw new NotFoundError("No such release.");
    const a = releaseArchive(db, actor, projectId, releaseId);
    const bytes = a.bytes;
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(new Uint8Array(bytes.subarray(at, at + SLICE)));
        at += SLICE;
      },
    });
    return streamedResponse(body, {
      "Content-Type": "application/gzip",
      "Content-Length": String(bytes.length),
      "Content-Disposition": attachmentDisposition(a.fileName),
      "X-Checksum-Sha256": a.sha256,
    });
  },
);
