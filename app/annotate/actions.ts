"use server";
import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { toActionError } from "@/lib/server/errors";
import { type OwnResponse, type ResponseInput, saveResponse } from "@/lib/server/responses";

export type SaveResponseResult =
  | { ok: true; revision: number; next: number | null }
  | { ok: false; message: string; errors?: Record<string, string>; conflict?: OwnResponse };

/**
 * Save the signed-in user's response to one instance. Everything the browser
 * sends is untrusted: lib/server checks the session user, the project, the
 * assignment and the input, and refuses a stale revision with the stored answer.
 */
export async function saveResponseAction(
  projectId: number,
  instanceRef: number,
  input: ResponseInput,
  options: { expectedRevision: number; activeMs?: number | null },
): Promise<SaveResponseResult> {
  try {
    const r = saveResponse(getDb(), await getActor(), Number(projectId), Number(instanceRef), input, options);
    // Pages the browser holds for back/forward must show the new answer and revision.
    revalidatePath("/annotate", "layout");
    return { ok: true, revision: r.revision, next: r.next };
  } catch (e) {
    const err = toActionError(e);
    return { ...err, conflict: err.conflict as OwnResponse | undefined };
  }
}
