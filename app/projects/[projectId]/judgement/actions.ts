"use server";
/**
 * The Judgement tab's server action: lib/server checks the actor (coordinator of this
 * project) and validates the form; this only reads it.
 */
import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { toActionError } from "@/lib/server/errors";
import { createRound } from "@/lib/server/judgement";

export type RoundFormState = { ok?: boolean; message?: string; errors?: Record<string, string> } | null;

export async function createRoundAction(projectId: number, _prev: RoundFormState, form: FormData): Promise<RoundFormState> {
  try {
    const r = createRound(getDb(), await getActor(), projectId, {
      name: form.get("name"),
      selection: form.get("selection"),
      sampleSize: form.get("sampleSize"),
      seed: form.get("seed"),
      sources: form.getAll("source").map(String),
      controls: form.get("controls"),
      scheme: form.get("scheme"),
      judgesPerCandidate: form.get("judgesPerCandidate"),
      escalationCap: form.get("escalationCap"),
      allowOwnItems: form.get("allowOwnItems"),
      judges: form.getAll("judge").map(String),
    });
    revalidatePath(`/projects/${projectId}/judgement`);
    return { ok: true, message: `Created "${r.name}": ${r.items} items, ${r.candidates} candidates, ${r.judges.length} judges.` };
  } catch (e) {
    return toActionError(e);
  }
}
