"use server";
/**
 * The coordinator's review of a crowd study's participants: approve, reject with a
 * reason, a bonus, and leaving rejected participants' answers out of the gold (and
 * its undo). lib/server/crowd checks the actor (coordinator of this project) and the
 * input, each decision in one transaction with its log line.
 */
import { revalidatePath } from "next/cache";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { excludeRejected, reviewParticipant, setBonus, undoExclusion } from "@/lib/server/crowd";

export type ReviewFormState = { ok?: boolean; message?: string; errors?: Record<string, string> } | null;

const WORDS = { approved: "Approved", rejected: "Rejected", pending: "Set back to pending:" } as const;

/** Approve, reject (with `reason`) or reset the participant `participantId` (form field `review`). */
export async function reviewParticipantAction(projectId: number, _prev: ReviewFormState, form: FormData): Promise<ReviewFormState> {
  return withActor((actor) => {
    const r = reviewParticipant(getDb(), actor, Number(projectId), { participantId: form.get("participantId"), review: form.get("review"), reason: form.get("reason") ?? "" });
    revalidatePath(`/projects/${projectId}/crowd`);
    return { ok: true, message: `${WORDS[r.review]} ${r.platformId}.` };
  });
}

/** Set or clear (empty) the participant's bonus (form field `bonus`, e.g. 1.50). */
export async function setBonusAction(projectId: number, _prev: ReviewFormState, form: FormData): Promise<ReviewFormState> {
  return withActor((actor) => {
    const r = setBonus(getDb(), actor, Number(projectId), { participantId: form.get("participantId"), bonus: form.get("bonus") });
    revalidatePath(`/projects/${projectId}/crowd`);
    return { ok: true, message: r.bonusCents === null ? `No bonus for ${r.platformId}.` : `Bonus ${(r.bonusCents / 100).toFixed(2)} for ${r.platformId}.` };
  });
}

/** Leave the study's rejected participants' answers out of the gold (form field `studyId`). */
export async function excludeRejectedAction(projectId: number, _prev: ReviewFormState, form: FormData): Promise<ReviewFormState> {
  return withActor((actor) => {
    const r = excludeRejected(getDb(), actor, Number(projectId), form.get("studyId"));
    revalidatePath(`/projects/${projectId}/crowd`);
    revalidatePath(`/projects/${projectId}/gold`);
    const n = r.platformIds.length;
    return { ok: true, message: `Left ${n} rejected participant${n === 1 ? "'s" : "s'"} answers out of the gold.` };
  });
}

/** Undo: put the study's left-out participants' answers back into the gold. */
export async function undoExclusionAction(projectId: number, _prev: ReviewFormState, form: FormData): Promise<ReviewFormState> {
  return withActor((actor) => {
    const r = undoExclusion(getDb(), actor, Number(projectId), form.get("studyId"));
    revalidatePath(`/projects/${projectId}/crowd`);
    revalidatePath(`/projects/${projectId}/gold`);
    const n = r.platformIds.length;
    return { ok: true, message: `Put ${n} participant${n === 1 ? "'s" : "s'"} answers back into the gold.` };
  });
}
