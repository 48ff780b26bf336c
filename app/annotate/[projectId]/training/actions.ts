"use server";
/**
 * The training page's actions: the session's user, checked by lib/server/quality/training.ts
 * (member of the project, their own attempt); these only shape the result.
 */
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { toActionError } from "@/lib/server/kernel";
import { answerTraining, retryTraining, type TrainingFeedback } from "@/lib/server/quality";

export type TrainingAnswerResult = ({ ok: true } & TrainingFeedback & { score: number | null; passed: boolean }) | { ok: false; message: string };

export async function answerTrainingAction(projectId: number, instanceRef: number, substitutes: string[]): Promise<TrainingAnswerResult> {
  try {
    return { ok: true, ...answerTraining(getDb(), await getActor(), Number(projectId), Number(instanceRef), substitutes) };
  } catch (e) {
    return { ok: false, message: toActionError(e).message };
  }
}

export async function retryTrainingAction(projectId: number, order: "same" | "fresh"): Promise<{ ok: boolean; message?: string }> {
  try {
    retryTraining(getDb(), await getActor(), Number(projectId), order);
    return { ok: true };
  } catch (e) {
    return { ok: false, message: toActionError(e).message };
  }
}
