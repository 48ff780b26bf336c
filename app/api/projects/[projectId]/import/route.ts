import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { requireProject } from "@/lib/server/actor";
import { importLexeltXml, maxImportBytes } from "@/lib/server/corpus";
import { InputError } from "@/lib/server/errors";
import { assertSameOrigin, errorResponse, FORM_OVERHEAD_BYTES, readFormLimited } from "@/lib/server/http";

export const dynamic = "force-dynamic";

/** Upload a lexelt XML file (multipart field "file") into a project. */
export async function POST(req: Request, ctx: { params: Promise<{ projectId: string }> }) {
  try {
    assertSameOrigin(req);
    const actor = await getActor();
    const projectId = Number((await ctx.params).projectId);
    const db = getDb();
    requireProject(db, actor, projectId, { coordinator: true });
    const limit = maxImportBytes();
    // Refuse oversize uploads before reading (let alone parsing) the body.
    const declared = Number(req.headers.get("content-length") ?? 0);
    if (declared > limit + 64 * 1024) {
      return Response.json(
        { ok: false, message: `The upload is ${(declared / 1048576).toFixed(1)} MB, over the import limit of ${(limit / 1048576).toFixed(1)} MB; nothing was imported.` },
        { status: 413 },
      );
    }
    const form = await readFormLimited(
      req,
      limit + FORM_OVERHEAD_BYTES,
      `The upload is over the import limit of ${(limit / 1048576).toFixed(1)} MB; nothing was imported.`,
    );
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new InputError("Choose a lexelt XML file to import.", { file: "Choose a file." });
    if (file.size > limit) {
      return Response.json(
        { ok: false, message: `${file.name}: ${(file.size / 1048576).toFixed(1)} MB is over the import limit of ${(limit / 1048576).toFixed(1)} MB; nothing was imported.` },
        { status: 413 },
      );
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const report = importLexeltXml(db, actor, projectId, { fileName: file.name, bytes });
    return Response.json({ ok: true, report });
  } catch (e) {
    return errorResponse(e);
  }
}
