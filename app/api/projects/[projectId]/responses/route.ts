import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { requireProject } from "@/lib/server/actor";
import { InputError } from "@/lib/server/errors";
import { assertSameOrigin, errorResponse, FORM_OVERHEAD_BYTES, readFormLimited } from "@/lib/server/http";
import { deriveDownload } from "@/lib/server/derive-pool";
import { exportResponses, importResponses, MAX_RESPONSES_BYTES, previewResponses } from "@/lib/server/response-import";
import { streamedResponse, stringSlices } from "@/lib/server/stream";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string }> };

/**
 * Download every current response of the project as TSV (coordinators only): with the
 * adjudication columns when anything is adjudicated; ?flags=1 instead adds the
 * annotators' flags and notes (two more columns the import ignores).
 */
export async function GET(req: Request, ctx: Ctx) {
  try {
    const actor = await getActor();
    const projectId = Number((await ctx.params).projectId);
    const db = getDb();
    const project = requireProject(db, actor, projectId, { coordinator: true });
    const flags = new URL(req.url).searchParams.get("flags") === "1";
    // The plain export is built in the derivation process (cached until the data change); with flags, here.
    const body = flags
      ? stringSlices(exportResponses(db, actor, projectId, { flags: true }))
      : (await deriveDownload(db, { op: "responsesFile", actor, projectId }, "text")).body;
    const fileName = `${project.name.replace(/[^A-Za-z0-9._-]+/g, "-")}-responses.tsv`;
    return streamedResponse(body, {
      "Content-Type": "text/tab-separated-values; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
    });
  } catch (e) {
    return errorResponse(e);
  }
}

/**
 * Upload a responses TSV (multipart field "file"). With `mode=preview` (the
 * default) nothing is written: the answer says what the import would add,
 * update and refuse, with a token. With `mode=confirm` and that `token` the
 * import applies exactly what was previewed (refused if anything changed
 * since). `acceptUnassigned=on` accepts answers for lexelts the annotator is
 * not assigned.
 */
export async function POST(req: Request, ctx: Ctx) {
  try {
    assertSameOrigin(req);
    const actor = await getActor();
    const projectId = Number((await ctx.params).projectId);
    const db = getDb();
    requireProject(db, actor, projectId, { coordinator: true });
    const declared = Number(req.headers.get("content-length") ?? 0);
    const tooBig = () =>
      Response.json(
        { ok: false, message: `The upload is over the import limit of ${MAX_RESPONSES_BYTES / 1048576} MB; nothing was imported.` },
        { status: 413 },
      );
    if (declared > MAX_RESPONSES_BYTES + 64 * 1024) return tooBig();
    const form = await readFormLimited(
      req,
      MAX_RESPONSES_BYTES + FORM_OVERHEAD_BYTES,
      `The upload is over the import limit of ${MAX_RESPONSES_BYTES / 1048576} MB; nothing was imported.`,
    );
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) throw new InputError("Choose a responses TSV file to import.", { file: "Choose a file." });
    if (file.size > MAX_RESPONSES_BYTES) return tooBig();
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
    } catch {
      throw new InputError(`${file.name}: not UTF-8 text; nothing was imported.`, { file: "Not a text file." });
    }
    const acceptUnassigned = form.get("acceptUnassigned") === "on";
    const input = { fileName: file.name, text };
    if (form.get("mode") !== "confirm") return Response.json({ ok: true, preview: previewResponses(db, actor, projectId, input, { acceptUnassigned }) });
    const token = form.get("token");
    if (typeof token !== "string" || token === "") throw new InputError("Preview the file first; nothing was imported.", { file: "Preview first." });
    const report = importResponses(db, actor, projectId, input, { acceptUnassigned, expectedToken: token });
    return Response.json({ ok: true, report });
  } catch (e) {
    return errorResponse(e);
  }
}
