"use server";
/**
 * The training page's actions: the session's user, checked by lib/server/quality/training.ts
 * (member of the project, their own attempt); these only shape the result.
 */
import { getDb } from "@/lib/db";
import { messageOnly, withActor } from "@/app/_ui/action";
import { answerTraining, retryTraining, type TrainingFeedback } from "@/lib/server/quality";

export type TrainingAnswerResult = ({ ok: true } & TrainingFeedback & { score: number | null; passed: boolean; multiword: string | null }) | { ok: false; message: string };

/** The answer as the workspace's fields give it: substitutes, or NAME / NIL, and the multiword phrase (or null). */
export interface TrainingAnswer {
  kind: "substitutes" | "NAME" | "NIL";
  substitutes: string[];
  multiword: string | null;
}

export async function answerTrainingAction(projectId: number, instanceRef: number, answer: TrainingAnswer): Promise<TrainingAnswerResult> {
  return withActor((actor) => ({ ok: true as const, ...answerTraining(getDb(), actor, Number(projectId), Number(instanceRef), answer) }), messageOnly);
}

export async function retryTrainingAction(projectId: number, order: "same" | "fresh"): Promise<{ ok: boolean; message?: string }> {
  return withActor((actor) => {
    retryTraining(getDb(), actor, Number(projectId), order);
    return { ok: true };
  }, messageOnly);
}
