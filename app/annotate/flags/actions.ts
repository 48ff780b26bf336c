"use server";
import { getDb } from "@/lib/db";
import { withActor } from "@/app/_ui/action";
import { limitSaveShared, retryAfterSeconds } from "@/lib/server/kernel";
import { type FlagNote, saveFlag } from "@/lib/server/annotate";

export type SaveFlagResult =
  | { ok: true; flag: FlagNote }
  | { ok: false; message: string; errors?: Record<string, string>; retryAfterMs?: number };

/**
 * Save the signed-in annotator's flag and note on one instance, with or without an
 * answer. lib/server checks the session user, the project and the assignment. A
 * save like the save route's: it takes a token from the account's save bucket
 * (lib/server/kernel/rate-limit.ts; proxy.ts has already counted the request against
 * its address), and a refusal says how long to wait.
 */
export async function saveFlagAction(projectId: number, instanceRef: number, input: { flag: string | null; note: string }): Promise<SaveFlagResult> {
  return withActor<SaveFlagResult, SaveFlagResult>(
    async (actor) => {
      const verdict = await limitSaveShared({ userId: actor?.kind === "user" ? actor.userId : null, address: null });
      if (!verdict.ok) {
        const seconds = retryAfterSeconds(verdict.retryAfterMs);
        return { ok: false, message: `Not saved yet: too many saves at once. It goes again in ${seconds} s.`, retryAfterMs: seconds * 1000 };
      }
      return { ok: true, flag: saveFlag(getDb(), actor, Number(projectId), Number(instanceRef), input) };
    },
    (err) => ({ ok: false, message: err.message, errors: err.errors }),
  );
}
