"use server";
/**
 * The Scoring tab's action: score the stored runs of a gold whole again for their repaired and UTF-8
 * figures (lib/server/jobs/derive-pool.ts refreshScoringOthers, in the derivation process), then back
 * to the page, with or without JavaScript.
 */
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { refreshScoringOthers } from "@/lib/server/jobs";

export async function recomputeOthersAction(projectId: number, gold: string, _form: FormData) {
  const id = Number(gold);
  const source = gold !== "" && Number.isSafeInteger(id) && id > 0 ? ({ kind: "stored", id } as const) : ({ kind: "project" } as const);
  const to = await withActor(
    async (actor) => {
      await refreshScoringOthers(getDb(), actor, projectId, source);
      revalidatePath(`/projects/${projectId}/scoring`);
      return source.kind === "stored" ? `?gold=${source.id}` : "";
    },
    (err) => `?error=${encodeURIComponent(err.message)}`,
  );
  redirect(`/projects/${projectId}/scoring${to}`);
}
