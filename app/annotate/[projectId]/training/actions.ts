"use server";
/**
 * The training page's actions: the session's user, checked by lib/server/quality/training.ts
 * (member of the project, their own attempt); these only shape the result.
 */
import { getDb } from "@/lib/db";
import { messageOnly, withActor } from "@/app/_ui/action";
import { answerTraining, retryTraining, type TrainingFeedback } from "@/lib/server/quality";

export type TrainingAnswerResult = ({ ok: true } & TrainingFeedback & { score: number | null; passed: boolean }) | { ok: false; message: string };

export async function answerTrainingAction(projectId: number, instanceRef: number, substitutes: string[]): Promise<TrainingAnswerResult> {
  return withActor((actor) => ({ ok: true as const, ...answerTraining(getDb(), actor, Number(projectId), Number(instanceRef), substitutes) }), messageOnly);
}

export async function retryTrainingAction(projectId: number, order: "same" | "fresh"): Promise<{ ok: boolean; message?: string }> {
  return withActor((actor) => {
    retryTraining(getDb(), actor, Number(projectId), order);
    return { ok: true };
  }, messageOnly);
}
