"use server";
/**
 * The coordinator's actions on annotators' work item by item: return one
 * annotator's response with a comment. lib/server/annotate/flags.ts checks the actor
 * (coordinator of this project) and the input, in one transaction.
 */
import { revalidatePath } from "next/cache";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { returnInstance, withdrawReturn } from "@/lib/server/annotate";

export type ReturnFormState = { ok?: boolean; message?: string; errors?: Record<string, string> } | null;

/** Return `instanceId` to `annotator` with `comment`. */
export async function returnInstanceAction(projectId: number, _prev: ReturnFormState, form: FormData): Promise<ReturnFormState> {
  return withActor((actor) => {
    const r = returnInstance(getDb(), actor, Number(projectId), {
      instanceId: String(form.get("instanceId") ?? ""),
      annotator: String(form.get("annotator") ?? ""),
      comment: String(form.get("comment") ?? ""),
    });
    revalidatePath(`/projects/${projectId}/gold`);
    revalidatePath(`/projects/${projectId}/flags`);
    return { ok: true, message: `Returned ${r.instanceId} to ${r.annotator}.` };
  });
}

/** Withdraw the open return of `instanceId` to `annotator` (the answer stays as it is). */
export async function withdrawReturnAction(projectId: number, _prev: ReturnFormState, form: FormData): Promise<ReturnFormState> {
  return withActor((actor) => {
    const r = withdrawReturn(getDb(), actor, Number(projectId), { instanceId: form.get("instanceId"), annotator: form.get("annotator") });
    revalidatePath(`/projects/${projectId}/gold`);
    revalidatePath(`/projects/${projectId}/flags`);
    return { ok: true, message: `Withdrew the return of ${r.instanceId} to ${r.annotator}.` };
  });
}
