/**
 * A release's .tar.gz as it was made (coordinators of the project), sent in 64 KB slices with its
 * SHA-256 in a header, so a script can check what it received.
 */
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { attachmentDisposition, errorResponse, NotFoundError, pathId, streamedResponse } from "@/lib/server/kernel";
import { releaseArchive } from "@/lib/server/releases";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string; releaseId: string }> };

const SLICE = 64 * 1024;

export async function GET(_req: Request, ctx: Ctx) {
  try {
    const p = await ctx.params;
    const projectId = pathId(p.projectId);
    const releaseId = pathId(p.releaseId);
    if (projectId === null || releaseId === null) throw new NotFoundError("No such release.");
    const a = releaseArchive(getDb(), await getActor(), projectId, releaseId);
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
  } catch (e) {
    return errorResponse(e);
  }
}
