/**
 * Reading the Scoring routes' requests: the project and run ids, the gold to
 * score against (the project's own on GET; uploaded gold / mwgold files in a
 * multipart POST), and uploaded files checked for size and UTF-8.
 */
import "server-only";
import { getActor } from "@/lib/auth/session";
import type { Db } from "@/db/client";
import { getDb } from "@/lib/db";
import type { Actor } from "@/lib/server/actor";
import { InputError } from "@/lib/server/errors";
import { assertSameOrigin, FORM_OVERHEAD_BYTES, readFormLimited } from "@/lib/server/http";
import { decodeUpload, type GoldSource, listRuns, MAX_RUN_BYTES, type NamedText } from "@/lib/server/scoring";
import { streamedResponse, stringSlices } from "@/lib/server/stream";

export type Ctx<T = object> = { params: Promise<{ projectId: string } & T> };

export function idOf(value: string, what: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InputError(`Not a ${what} id: "${value}".`);
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

/** A file field of the form, decoded; null when absent or empty and not `required`. */
export async function formFile(form: FormData, field: string, required = false): Promise<NamedText | null> {
  const f = form.get(field);
  if (!(f instanceof File) || (f.size === 0 && f.name === "")) {
    if (required) throw new InputError(`Choose the ${field} file.`, { [field]: "Choose a file." });
    return null;
  }
  return decodeUpload(f.name, new Uint8Array(await f.arrayBuffer()), field);
}

/** Gold from a POST's form: fields "gold" and "mwgold" (at least one). */
export async function uploadedGold(form: FormData): Promise<GoldSource> {
  return { kind: "uploaded", gold: await formFile(form, "gold"), mwgold: await formFile(form, "mwgold") };
}

/** A safe file name for Content-Disposition. */
export function fileNameOf(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "run";
}

/** A download, sent in slices (a verbose report of a large run is tens of MB). */
export function attachment(body: string, fileName: string, type: string): Response {
  return streamedResponse(stringSlices(body), { "Content-Type": `${type}; charset=utf-8`, "Content-Disposition": `attachment; filename="${fileName}"` });
}

/**
 * A POST that scores against uploaded gold / mwgold: refused cross-site, and the
 * actor checked as the project's coordinator before the body is read or sized.
 */
export async function withUploadedGold(
  req: Request,
  projectId: number,
  respond: (db: Db, actor: Actor, source: GoldSource) => Response,
): Promise<Response> {
  assertSameOrigin(req);
  const actor = await getActor();
  const db = getDb();
  listRuns(db, actor, projectId);
  const big = tooBig(req, 2);
  if (big) return big;
  return respond(db, actor, await uploadedGold(await limitedForm(req, 2)));
}
