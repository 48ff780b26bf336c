import { rm } from "node:fs/promises";
import { requireProject, InputError, FORM_OVERHEAD_BYTES, readFormLimited, saveUpload, attachmentDisposition, projectIdOf, streamedResponse } from "@/lib/server/kernel";
import { maxImportBytes } from "@/lib/server/corpus";
import { datasetFileInfo, isDatasetFormat } from "@/lib/server/datasets";
import { answerWithJob, derive, deriveDownload, uploadPath } from "@/lib/server/jobs";
import { checkDeclaredUpload } from "@/lib/server/runtime";
import { answerForm, projectPage } from "@/app/_ui/native-answer";
import { routeHandler } from "@/app/api/route-handler";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ projectId: string }> };

function formatOf(v: unknown): "coinco" | "swords" | "tsar" {
  if (!isDatasetFormat(v)) throw new InputError(`Unknown dataset format "${String(v ?? "")}": choose CoInCo, SWORDS or TSAR.`, { format: "Choose a format." });
  return v;
}

/** TSAR's `cells`: raw (the default, as the published files) or spreadsheet-safe; other formats take none. */
function tsarCellsOf(format: string, v: string | null): "raw" | "spreadsheet-safe" | undefined {
  if (v === null || v === "") return format === "tsar" ? "raw" : undefined;
  if (format !== "tsar") throw new InputError(`cells=${v} applies to the TSAR export only.`, { cells: "TSAR only." });
  if (v !== "raw" && v !== "spreadsheet-safe") throw new InputError(`Unknown cells "${v}": raw or spreadsheet-safe.`, { cells: "raw or spreadsheet-safe." });
  return v;
}

/** SWORDS's `ids`: recipe (the default, eval.py's) or as-imported; other formats take none. */
function swordsIdsOf(format: string, v: string | null): "recipe" | "as-imported" | undefined {
  if (v === null || v === "") return undefined;
  if (format !== "swords") throw new InputError(`ids=${v} applies to the SWORDS export only.`, { ids: "SWORDS only." });
  if (v !== "recipe" && v !== "as-imported") throw new InputError(`Unknown ids "${v}": recipe or as-imported.`, { ids: "recipe or as-imported." });
  return v;
}

/**
 * Import a dataset file (multipart: format, file, idPrefix, strict=1 to refuse a file with entries it cannot carry, onlyLanguage for one language of an MLSP combined file) into the project, as a job in
 * a worker thread (lib/server/corpus/dataset-import.ts through lib/server/jobs/jobs.ts): answers 202
 * with the job at once; with `?wait=1` (scripts) when it ends — 200 with the report, or
 * the refusal. Coordinators of the project only. A form posted without JavaScript is answered with
 * the Datasets page (app/_ui/native-answer.ts), which follows the job.
 */
export async function POST(req: Request, ctx: Ctx) {
  return answerForm(req, await importDatasetFile(req, ctx), projectPage((await ctx.params).projectId, "/datasets"));
}

const importDatasetFile = routeHandler<{ projectId: string }>(
  async ({ req, params, actor, db }) => {
    let file: string | null = null;
    try {
      const projectId = projectIdOf(params.projectId);
      requireProject(db, actor, projectId, { coordinator: true });
      checkDeclaredUpload(db, actor, req);
      const limit = maxImportBytes();
      const mb = (n: number) => (n / 1048576).toFixed(1);
      const declared = Number(req.headers.get("content-length") ?? 0);
      if (declared > limit + FORM_OVERHEAD_BYTES) {
        return Response.json({ ok: false, message: `The upload is ${mb(declared)} MB, over the import limit of ${mb(limit)} MB; nothing was imported.` }, { status: 413 });
      }
      const form = await readFormLimited(req, limit + FORM_OVERHEAD_BYTES, `The upload is over the import limit of ${mb(limit)} MB; nothing was imported.`);
      const format = formatOf(form.get("format"));
      const upload = form.get("file");
      if (!(upload instanceof File) || upload.name === "") throw new InputError("Choose a dataset file to import.", { file: "Choose a file." });
      if (upload.size === 0) throw new InputError(`${upload.name}: the file is empty; nothing was imported.`, { file: "The file is empty." });
      const prefix = form.get("idPrefix");
      const idPrefix = typeof prefix === "string" && prefix.trim() !== "" ? prefix.trim() : undefined;
      file = uploadPath();
      await saveUpload(upload, file);
      const strict = form.get("strict") === "1";
      const only = form.get("onlyLanguage");
      const onlyLanguage = typeof only === "string" && only.trim() !== "" ? only.trim() : undefined;
      const input = { path: file, fileName: upload.name, format, idPrefix, strict, onlyLanguage, maxBytes: limit };
      const files = [file];
      file = null; // the job owns it now
      return await answerWithJob(db, actor, projectId, { kind: "dataset", input, files, wait: new URL(req.url).searchParams.get("wait") === "1" });
    } catch (e) {
      if (file) await rm(file, { force: true });
      throw e;
    }
  },
  { sameOrigin: true },
);

/**
 * Download the project's gold in a dataset format (?format=coinco|swords|tsar), or
 * with &report=1 only what that format could not carry (JSON). TSAR: &goldOnly=1,
 * &cells=spreadsheet-safe (default raw: every cell exactly as the gold has it); SWORDS:
 * &ids=as-imported (default: eval.py's recipe ids). Derived in the
 * derivation process, as the gold download is (cached until the project's data
 * change), and sent in slices: the request thread only waits. Coordinators of the
 * project only.
 */
export const GET = routeHandler<{ projectId: string }>(
  async ({ req, params, actor, db }) => {
    const projectId = projectIdOf(params.projectId);
    const project = requireProject(db, actor, projectId, { coordinator: true });
    const query = new URL(req.url).searchParams;
    const format = formatOf(query.get("format"));
    const goldOnly = query.get("goldOnly") === "1";
    const cells = tsarCellsOf(format, query.get("cells"));
    const ids = swordsIdsOf(format, query.get("ids"));
    if (query.get("report") === "1") {
      const r = await derive(db, { op: "datasetReport", actor, projectId, format, goldOnly, cells, ids });
      return Response.json({ ok: true, format, written: r.written, lost: r.lost }, { headers: { "Cache-Control": "no-store" } });
    }
    const { body } = await deriveDownload(db, { op: "datasetFile", actor, projectId, format, goldOnly, cells, ids }, "text");
    const info = datasetFileInfo(project.name, format);
    return streamedResponse(body, { "Content-Type": info.contentType, "Content-Disposition": attachmentDisposition(info.fileName) });
  },
);
