"use server";
/** The judge workspace's server action: lib/server checks that the actor judges this round. */
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { toActionError } from "@/lib/server/kernel";
import { saveLabel } from "@/lib/server/judgement";

export async function saveLabelAction(roundId: number, candidateId: number, label: string): Promise<{ ok: true; label: string } | { ok: false; message: string }> {
  try {
    return { ok: true, label: saveLabel(getDb(), await getActor(), Number(roundId), Number(candidateId), label) };
  } catch (e) {
    return toActionError(e);
  }
}
