"use server";
/** The judge workspace's server action: lib/server checks that the actor judges this round. */
import { getDb } from "@/lib/db";
import { withActor } from "@/app/_ui/action";
import { saveLabel } from "@/lib/server/judgement";

export async function saveLabelAction(roundId: number, candidateId: number, label: string): Promise<{ ok: true; label: string } | { ok: false; message: string }> {
  return withActor((actor) => ({ ok: true as const, label: saveLabel(getDb(), actor, Number(roundId), Number(candidateId), label) }));
}
