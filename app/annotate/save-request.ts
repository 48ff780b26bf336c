/**
 * The workspace's save: a POST of JSON to the save route
 * (app/api/projects/[projectId]/responses/[instanceRef]/route.ts), answered with
 * the acknowledgement and the next instances as JSON. `response` is the answer as
 * the fields hold it; it is an object so that it can carry more fields.
 */
import type { OwnResponse, ResponseInput, SaveResult } from "@/lib/server/responses";

export type SaveResponseResult =
  | ({ ok: true } & SaveResult)
  | { ok: false; message: string; errors?: Record<string, string>; conflict?: OwnResponse };

export interface SaveRequest {
  response: ResponseInput;
  /** The revision the annotator started from (0 for none). */
  expectedRevision: number;
  /** Milliseconds the annotator spent on the instance. */
  activeMs?: number | null;
}

export function savePath(projectId: number, instanceRef: number): string {
  return `/api/projects/${projectId}/responses/${instanceRef}`;
}

/**
 * Send one save. Resolves with the server's answer (ok or a refusal it explains);
 * rejects when the server could not be reached or answered something other than
 * the save's JSON (the answer is then unknown, and the draft is kept).
 */
export async function postSave(projectId: number, instanceRef: number, req: SaveRequest): Promise<SaveResponseResult> {
  const res = await fetch(savePath(projectId, instanceRef), {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(req),
    credentials: "same-origin",
    cache: "no-store",
  });
  const type = res.headers.get("content-type") ?? "";
  if (!type.includes("application/json")) throw new Error(`The server answered ${res.status} without a save result.`);
  const body = (await res.json()) as SaveResponseResult;
  if (typeof body !== "object" || body === null || typeof body.ok !== "boolean") throw new Error("The server's answer is not a save result.");
  return body;
}
