"use server";
/**
 * The Judgement tab's server actions: lib/server checks the actor (coordinator of this
 * project) and validates the form; this only reads it.
 */
import { revalidatePath } from "next/cache";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { createRound, setJudges, setRoundState } from "@/lib/server/judgement";
import { startJob } from "@/lib/server/jobs";
import { roundRunInputs } from "@/lib/server/models";

export type RoundFormState = { ok?: boolean; message?: string; errors?: Record<string, string> } | null;

export async function createRoundAction(projectId: number, _prev: RoundFormState, form: FormData): Promise<RoundFormState> {
  return withActor((actor) => {
    const r = createRound(getDb(), actor, projectId, {
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
    // A model source: its candidates runs add what its cache did not hold (lib/server/models/round-candidates.ts).
    const modelRuns = roundRunInputs(getDb(), actor, projectId, r.id);
    for (const input of modelRuns) startJob(getDb(), actor, projectId, "model-run", input as unknown as Record<string, unknown>);
    revalidatePath(`/projects/${projectId}/judgement`);
    const asking = modelRuns.length > 0 ? ` The ${modelRuns.length === 1 ? "model is" : "models are"} asked for candidates now; they join the round as they come.` : "";
    return { ok: true, message: `Created "${r.name}": ${r.items} items, ${r.candidates} candidates, ${r.judges.length} ${r.judges.length === 1 ? "judge" : "judges"}.${asking}` };
  });
}

export type RoundChangeState = { ok?: boolean; message?: string } | null;

/** Close a round or open it again (form field `state`: open | closed). */
export async function setRoundStateAction(projectId: number, roundId: number, _prev: RoundChangeState, form: FormData): Promise<RoundChangeState> {
  return withActor((actor) => {
    const r = setRoundState(getDb(), actor, roundId, form.get("state"), projectId);
    revalidatePath(`/projects/${projectId}/judgement`);
    return { ok: true, message: r.state === "closed" ? `"${r.name}" is closed: judges can no longer label.` : `"${r.name}" is open again.` };
  });
}

/** Replace the round's judges with the members ticked (form fields `judge`: user ids). */
export async function setJudgesAction(projectId: number, roundId: number, _prev: RoundChangeState, form: FormData): Promise<RoundChangeState> {
  return withActor((actor) => {
    const ids = form.getAll("judge").map((v) => Number(v));
    const r = setJudges(getDb(), actor, roundId, ids, projectId);
    revalidatePath(`/projects/${projectId}/judgement`);
    return { ok: true, message: `Judges of "${r.name}": ${r.judges.length === 0 ? "none" : r.judges.map((j) => j.name).join(", ")}.` };
  });
}
