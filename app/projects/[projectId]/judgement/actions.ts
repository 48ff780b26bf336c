"use server";
/**
 * The Judgement tab's server actions: lib/server checks the actor (coordinator of this
 * project) and validates the form; this only reads it.
 */
import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { toActionError } from "@/lib/server/kernel";
import { createRound, setJudges, setRoundState } from "@/lib/server/judgement";

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

export type RoundChangeState = { ok?: boolean; message?: string } | null;

/** Close a round or open it again (form field `state`: open | closed). */
export async function setRoundStateAction(projectId: number, roundId: number, _prev: RoundChangeState, form: FormData): Promise<RoundChangeState> {
  try {
    const r = setRoundState(getDb(), await getActor(), roundId, form.get("state"), projectId);
    revalidatePath(`/projects/${projectId}/judgement`);
    return { ok: true, message: r.state === "closed" ? `"${r.name}" is closed: judges can no longer label.` : `"${r.name}" is open again.` };
  } catch (e) {
    return toActionError(e);
  }
}

/** Replace the round's judges with the members ticked (form fields `judge`: user ids). */
export async function setJudgesAction(projectId: number, roundId: number, _prev: RoundChangeState, form: FormData): Promise<RoundChangeState> {
  try {
    const ids = form.getAll("judge").map((v) => Number(v));
    const r = setJudges(getDb(), await getActor(), roundId, ids, projectId);
    revalidatePath(`/projects/${projectId}/judgement`);
    return { ok: true, message: `Judges of "${r.name}": ${r.judges.length === 0 ? "none" : r.judges.map((j) => j.name).join(", ")}.` };
  } catch (e) {
    return toActionError(e);
  }
}
