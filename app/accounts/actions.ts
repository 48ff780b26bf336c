"use server";
/**
 * Account actions: reset a password, disable or re-enable an account (the
 * Accounts page), change one's own password (the Your account page). Each takes
 * the actor from the session; lib/server/people/accounts.ts checks it and audits.
 */
import { revalidatePath } from "next/cache";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { changeOwnPassword, resetPassword, setAccountDisabled, liftSignInLock } from "@/lib/server/people";

export type AccountFormState = {
  ok?: boolean;
  message?: string;
  errors?: Record<string, string>;
  /** Only from resetPasswordAction, only once. */
  reset?: { name: string; password: string };
} | null;

export async function resetPasswordAction(_prev: AccountFormState, form: FormData): Promise<AccountFormState> {
  return withActor(async (actor) => {
    const r = await resetPassword(getDb(), actor, String(form.get("userId") ?? ""));
    revalidatePath("/accounts");
    return { ok: true, message: `New password for ${r.name}; their sessions have ended.`, reset: r };
  });
}

export async function setDisabledAction(_prev: AccountFormState, form: FormData): Promise<AccountFormState> {
  return withActor((actor) => {
    const disabled = form.get("disabled") === "true";
    const r = setAccountDisabled(getDb(), actor, String(form.get("userId") ?? ""), disabled);
    revalidatePath("/accounts");
    return { ok: true, message: r.disabled ? `${r.name} is disabled and signed out.` : `${r.name} can sign in again.` };
  });
}

/** Lift an account's sign-in lock (lib/server/people/signin.ts decides who may). */
export async function liftSignInLockAction(_prev: AccountFormState, form: FormData): Promise<AccountFormState> {
  return withActor((actor) => {
    const r = liftSignInLock(getDb(), actor, String(form.get("userId") ?? ""));
    revalidatePath("/accounts");
    return { ok: true, message: `${r.name} can sign in again at once: earlier failures no longer count.` };
  });
}

export async function changePasswordAction(_prev: AccountFormState, form: FormData): Promise<AccountFormState> {
  return withActor(async (actor) => {
    await changeOwnPassword(getDb(), actor, {
      current: String(form.get("current") ?? ""),
      next: String(form.get("next") ?? ""),
      confirm: String(form.get("confirm") ?? ""),
    });
    return { ok: true, message: "Password changed. Every session of yours has ended: sign in again with the new password." };
  });
}
