import { rm } from "node:fs/promises";
import { requireProject, InputError, FORM_OVERHEAD_BYTES, readFormLimited, saveUpload, streamedResponse, stringSlices, attachmentDisposition, projectIdOf } from "@/lib/server/kernel";
import { answerWithJob, deriveDownload, uploadPath } from "@/lib/server/jobs";
import { exportResponses, MAX_RESPONSES_BYTES } from "@/lib/server/annotate";
import { checkDeclaredUpload } from "@/lib/server/runtime";
import { answerForm, projectPage } from "@/app/_ui/native-answer";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string }> };

/**
 * Download every current response of the project as TSV (coordinators only): with the
 * adjudication columns when anything is adjudicated; ?flags=1 instead adds the
 * annotators' flags and notes (two more columns the import ignores).
 */
export const GET = routeHandler<{ projectId: string }>(
  async ({ req, params, actor, db }) => {
    const projectId = projectIdOf(params.projectId);
    const project = requireProject(db, actor, projectId, { coordinator: true });
    const flags = new URL(req.url).searchParams.get("flags") === "1";
    // The plain export is built in the derivation process (cached until the data change); with flags, here.
    const body = flags
      ? stringSlices(exportResponses(db, actor, projectId, { flags: true }))
      : (await deriveDownload(db, { op: "responsesFile", actor, projectId }, "text")).body;
    const fileName = `${project.name.replace(/[^A-Za-z0-9._-]+/g, "-")}-responses.tsv`;
    return streamedResponse(body, {
      "Content-Type": "text/tab-separated-values; charset=utf-8",
      "Content-Disposition": attachmentDisposition(fileName),
    });
  },
);

/**
 * Upload a responses TSV (multipart field "file"), checked and imported in the
 * jobs worker, never on the request thread. With `mode=preview` (the default)
 * nothing is written: the answer, when the check ends, says what the import
 * would add, update and refuse, with a token (`{ ok, preview }`). With
 * `mode=confirm` and that `token` the import is started as a job (kind
 * "responses-import"): 202 with the job, which the page follows; with `?wait=1`
 * the answer when it ends (`{ ok, report }`). It applies exactly what was
 * previewed, refused if the file, the options or the stored responses changed
 * since. `acceptUnassigned=on` accepts answers for lexelts the annotator is not
 * assigned. Answers that break the workspace's rules are kept as written and
 * counted by rule, and a few odd lines are left out and listed
 * (lib/server/annotate/response-import.ts); `strict=on` refuses the file instead. A form posted
 * without JavaScript is answered with the Team page, which shows the preview or follows the job
 * (app/_ui/native-answer.ts).
 */
export async function POST(req: Request, ctx: Ctx) {
  return answerForm(req, await importResponses(req, ctx), projectPage((await ctx.params).projectId, "/members#responses"));
}

const importResponses = routeHandler<{ projectId: string }>(
  async ({ req, params, actor, db }) => {
    let file: string | null = null;
    try {
      const projectId = projectIdOf(params.projectId);
      requireProject(db, actor, projectId, { coordinator: true });
      checkDeclaredUpload(db, actor, req);
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
      const upload = form.get("file");
      if (!(upload instanceof File) || upload.name === "") throw new InputError("Choose a responses TSV file to import.", { file: "Choose a file." });
      if (upload.size === 0) throw new InputError(`${upload.name}: the file is empty; nothing was imported.`, { file: "The file is empty." });
      if (upload.size > MAX_RESPONSES_BYTES) return tooBig();
      const acceptUnassigned = form.get("acceptUnassigned") === "on";
      const strict = form.get("strict") === "on";
      const confirm = form.get("mode") === "confirm";
      const token = form.get("token");
      if (confirm && (typeof token !== "string" || token === "")) throw new InputError("Preview the file first; nothing was imported.", { file: "Preview first." });
      file = uploadPath();
      await saveUpload(upload, file);
      const input = { path: file, fileName: upload.name, acceptUnassigned, strict, ...(confirm ? { token } : {}) };
      const files = [file];
      file = null; // the job owns it now
      if (confirm) return await answerWithJob(db, actor, projectId, { kind: "responses-import", input, files, wait: new URL(req.url).searchParams.get("wait") === "1" });
      // A preview is always waited for: the page shows it.
      return await answerWithJob(db, actor, projectId, { kind: "responses-preview", input, files, wait: true, done: (preview) => Response.json({ ok: true, preview }) });
    } catch (e) {
      if (file) await rm(file, { force: true });
      throw e;
    }
  },
  { sameOrigin: true },
);
