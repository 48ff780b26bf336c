"use server";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { toActionError } from "@/lib/server/errors";
import { type FlagNote, saveFlag } from "@/lib/server/flags";

export type SaveFlagResult = { ok: true; flag: FlagNote } | { ok: false; message: string; errors?: Record<string, string> };

/**
 * Save the signed-in annotator's flag and note on one instance, with or without an
 * answer. lib/server checks the session user, the project and the assignment.
 */
export async function saveFlagAction(projectId: number, instanceRef: number, input: { flag: string | null; note: string }): Promise<SaveFlagResult> {
  try {
    return { ok: true, flag: saveFlag(getDb(), await getActor(), Number(projectId), Number(instanceRef), input) };
  } catch (e) {
    const err = toActionError(e);
    return { ok: false, message: err.message, errors: err.errors };
  }
}
