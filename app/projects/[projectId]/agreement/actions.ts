"use server";
/**
 * The Agreement tab's action: compute Krippendorff's α and the bootstrap intervals again over
 * the figures kept now (lib/server/jobs/derive-pool.ts refreshAgreementAlpha, in the derivation
 * process), then back to the page, with or without JavaScript (the outcome in its URL).
 */
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { refreshAgreementAlpha } from "@/lib/server/jobs";

export async function recomputeAlphaAction(projectId: number, _form: FormData) {
  const to = await withActor(
    async (actor) => {
      await refreshAgreementAlpha(getDb(), actor, projectId);
      revalidatePath(`/projects/${projectId}/agreement`);
      return "?alpha=recomputed#headline-heading";
    },
    (err) => `?error=${encodeURIComponent(err.message)}`,
  );
  redirect(`/projects/${projectId}/agreement${to}`);
}
