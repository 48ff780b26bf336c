/**
 * Reading the Scoring routes' requests: the project and run ids, the gold to
 * rank against (`?gold=ID` for a stored gold, absent or "project" for the
 * project's own), and uploaded files checked for size and UTF-8.
 */
import "server-only";
import { type Actor, InputError, assertSameOrigin, FORM_OVERHEAD_BYTES, readFormLimited, saveUpload, streamedResponse, stringSlices, attachmentDisposition, pathId } from "@/lib/server/kernel";
import { getActor } from "@/lib/auth/session";
import { getDb, type Db } from "@/lib/db";
import { rm } from "node:fs/promises";
import { uploadPath } from "@/lib/server/jobs";
import { type GoldSource, listRuns, MAX_RUN_BYTES, type NamedText, readUpload } from "@/lib/server/scoring";
import { checkDeclaredUpload } from "@/lib/server/runtime";

export type Ctx<T = object> = { params: Promise<{ projectId: string } & T> };

export function idOf(value: string, what: string): number {
  const n = pathId(value);
  // The value is not echoed: it may hold anything the URL could carry.
  if (n === null) throw new InputError(`Not a ${what} id.`);
  return n;
}

/** Refuse a body larger than `files` uploads at the limit (before reading it). */
export function tooBig(req: Request, files: number): Response | null {
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > files * MAX_RUN_BYTES + 64 * 1024) {
    return Response.json(
      { ok: false, message: `The upload is over the limit of ${MAX_RUN_BYTES / 1048576} MB a file; nothing was read.` },
      { status: 413 },
    );
  }
  return null;
}

/** The POST's form, read from the stream and refused past `files` uploads at the limit. */
export function limitedForm(req: Request, files: number): Promise<FormData> {
  return readFormLimited(req, files * MAX_RUN_BYTES + FORM_OVERHEAD_BYTES, `The upload is over the limit of ${MAX_RUN_BYTES / 1048576} MB a file; nothing was read.`);
}

/** A file field of the form, read in pieces (gzip unzipped within the limit); null when absent or empty and not `required`. */
export async function formFile(form: FormData, field: string, required = false): Promise<NamedText | null> {
  const f = form.get(field);
  if (!(f instanceof File) || (f.size === 0 && f.name === "")) {
    if (required) throw new InputError(`Choose the ${field} file.`, { [field]: "Choose a file." });
    return null;
  }
  return readUpload(f.name, f, field);
}

/**
 * The gold a GET asks for (`?gold=`): absent or "project" for the project's own,
 * else a stored gold's id (checked to be the project's by the scoring functions).
 * Read after the actor is checked, so a stranger learns nothing from the message.
 */
export function requestGold(db: Db, actor: Actor, projectId: number, req: Request): GoldSource {
  listRuns(db, actor, projectId);
  const v = (new URL(req.url).searchParams.get("gold") ?? "").trim();
  if (v === "" || v === "project") return { kind: "project" };
  return { kind: "stored", id: idOf(v, "gold") };
}

/** A safe file name for Content-Disposition. */
export function fileNameOf(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "run";
}

/** A download, sent in slices (a verbose report of a large run is tens of MB). */
export function attachment(body: string | ReadableStream<Uint8Array>, fileName: string, type: string): Response {
  return streamedResponse(typeof body === "string" ? stringSlices(body) : body, { "Content-Type": `${type}; charset=utf-8`, "Content-Disposition": attachmentDisposition(fileName) });
}

/**
 * A multipart POST of up to `files` uploads to a Scoring route: refused cross-site,
 * the actor checked as the project's coordinator before the body is sized or read,
 * then the form. A Response when the body is too big.
 */
export async function coordinatorUpload(req: Request, ctx: Ctx, files: number): Promise<{ db: Db; actor: Actor; projectId: number; form: FormData } | Response> {
  assertSameOrigin(req);
  const actor = await getActor();
  const projectId = idOf((await ctx.params).projectId, "project");
  const db = getDb();
  listRuns(db, actor, projectId);
  checkDeclaredUpload(db, actor, req);
  const big = tooBig(req, files);
  if (big) return big;
  return { db, actor, projectId, form: await limitedForm(req, files) };
}

/** An uploaded file written to a new temporary file, for a job; null when the field is absent or empty (no file chosen). */
export async function savedUpload(form: FormData, field: string): Promise<{ path: string; fileName: string } | null> {
  const f = form.get(field);
  if (!(f instanceof File) || (f.size === 0 && f.name === "")) return null;
  const path = uploadPath();
  try {
    await saveUpload(f, path);
  } catch (e) {
    await rm(path, { force: true });
    throw e;
  }
  return { path, fileName: f.name };
}
