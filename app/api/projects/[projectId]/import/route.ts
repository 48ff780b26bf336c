import { rm } from "node:fs/promises";
import { requireProject, InputError, FORM_OVERHEAD_BYTES, readFormLimited, saveBodyToFile, saveUpload } from "@/lib/server/kernel";
import { maxImportBytes } from "@/lib/server/corpus";
import { answerWithJob, uploadPath } from "@/lib/server/jobs";
import { checkDeclaredUpload } from "@/lib/server/runtime";
import { answerForm, projectPage } from "@/app/_ui/native-answer";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

const mb = (n: number) => (n / 1048576).toFixed(1);

/**
 * Upload a lexelt XML file into a project: the file is streamed to a temp file
 * and imported by a job in a worker thread (lib/server/jobs/jobs.ts). The body is
 * either the file itself (the page sends it so, its name in `X-File-Name`) or a
 * multipart form with the field "file". Answers 202 with the job at once; with
 * `?wait=1` (scripts, the crash test) answers when the job ends: 200 with the
 * report, or the refusal. A form posted without JavaScript is answered with the project's page
 * (app/_ui/native-answer.ts), which follows the job.
 */
export async function POST(req: Request, ctx: { params: Promise<{ projectId: string }> }) {
  return answerForm(req, await importFile(req, ctx), projectPage((await ctx.params).projectId));
}

const importFile = routeHandler<{ projectId: string }>(
  async ({ req, params, actor, db }) => {
    let file: string | null = null;
    try {
      const projectId = Number(params.projectId);
      requireProject(db, actor, projectId, { coordinator: true });
      checkDeclaredUpload(db, actor, req);
      const limit = maxImportBytes();
      const tooLarge = `The upload is over the import limit of ${mb(limit)} MB; nothing was imported.`;
      // Refuse oversize uploads before reading (let alone parsing) the body.
      const declared = Number(req.headers.get("content-length") ?? 0);
      if (declared > limit + 64 * 1024) {
        return Response.json({ ok: false, message: `The upload is ${mb(declared)} MB, over the import limit of ${mb(limit)} MB; nothing was imported.` }, { status: 413 });
      }
      let fileName: string;
      const type = req.headers.get("content-type") ?? "";
      if (type.startsWith("multipart/form-data")) {
        const form = await readFormLimited(req, limit + FORM_OVERHEAD_BYTES, tooLarge);
        const f = form.get("file");
        if (!(f instanceof File) || f.size === 0) throw new InputError("Choose a lexelt XML file to import.", { file: "Choose a file." });
        if (f.size > limit) {
          return Response.json({ ok: false, message: `${f.name}: ${mb(f.size)} MB is over the import limit of ${mb(limit)} MB; nothing was imported.` }, { status: 413 });
        }
        fileName = f.name;
        file = uploadPath();
        await saveUpload(f, file);
      } else {
        let name = "";
        try {
          name = decodeURIComponent(req.headers.get("x-file-name") ?? "");
        } catch {
          name = "";
        }
        fileName = name.replace(/[\u0000-\u001f/\\]/g, "").slice(0, 200) || "upload.xml";
        file = uploadPath();
        const size = await saveBodyToFile(req, file, limit, tooLarge);
        if (size === 0) throw new InputError("Choose a lexelt XML file to import.", { file: "Choose a file." });
      }
      const files = [file];
      const input = { path: file, fileName, maxBytes: limit };
      file = null; // the job owns it now
      return await answerWithJob(db, actor, projectId, { kind: "lexelt-xml", input, files, wait: new URL(req.url).searchParams.get("wait") === "1" });
    } catch (e) {
      if (file) await rm(file, { force: true });
      throw e;
    }
  },
  { sameOrigin: true },
);
