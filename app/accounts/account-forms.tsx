"use client";
import { startTransition, useActionState } from "react";
import { useScripted } from "@/app/_ui/scripted";
import { type AccountFormState, changePasswordAction, liftSignInLockAction, resetPasswordAction, setDisabledAction } from "./actions";

type Action = (prev: AccountFormState, form: FormData) => Promise<AccountFormState>;

/**
 * A form of an account action. The form's action is the action itself, so the form works before the
 * page's script runs and without it (a native post; the page comes back with the outcome). With the
 * script it asks first (`confirm`) and is submitted through a transition, keeping what was typed.
 */
function useAccountForm(action: Action, confirm?: string) {
  const [state, dispatch, pending] = useActionState<AccountFormState, FormData>(action, null);
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (confirm && !window.confirm(confirm)) return;
    const form = new FormData(e.currentTarget);
    startTransition(() => dispatch(form));
  };
  return { state, pending, onSubmit, action: dispatch };
}

/** Reset and disable / re-enable for one account row. */
export function AccountActions({ userId, name, disabled }: { userId: number; name: string; disabled: boolean }) {
  const reset = useAccountForm(resetPasswordAction, `Reset the password of ${name}? Their sessions end and the old password stops working.`);
  const toggle = useAccountForm(setDisabledAction, disabled ? undefined : `Disable ${name}? They are signed out and cannot sign in until re-enabled.`);
  const state = reset.state ?? toggle.state;
  const scripted = useScripted();
  return (
    <div className="account-actions">
      <form action={reset.action} onSubmit={reset.onSubmit}>
        <input type="hidden" name="userId" value={userId} />
        <button type="submit" className="secondary" disabled={reset.pending} aria-label={`Reset password of ${name}`}>
          Reset password
        </button>
        {/* Without JavaScript nothing asks first: a box to tick instead (the old password stops working). */}
        {!scripted && (
          <label className="small" style={{ fontWeight: 400, display: "inline", marginLeft: "0.4rem" }}>
            <input type="checkbox" required aria-label={`Yes, reset the password of ${name}`} /> sure
          </label>
        )}
      </form>
      <form action={toggle.action} onSubmit={toggle.onSubmit}>
        <input type="hidden" name="userId" value={userId} />
        <input type="hidden" name="disabled" value={disabled ? "false" : "true"} />
        <button type="submit" className="secondary" disabled={toggle.pending} aria-label={`${disabled ? "Enable" : "Disable"} ${name}`}>
          {disabled ? "Enable" : "Disable"}
        </button>
      </form>
      <div aria-live="polite">
        {reset.state?.ok && reset.state.reset ? (
          <p className="notice ok" role="status">
            New password for <strong>{reset.state.reset.name}</strong>: <code>{reset.state.reset.password}</code>
            <br />
            <span className="small">Pass it on now: it is not shown again.</span>
          </p>
        ) : state && !state.ok ? (
          <p className="notice error" role="alert">{state.message}</p>
        ) : toggle.state?.ok ? (
          <p className="notice ok" role="status">{toggle.state.message}</p>
        ) : null}
      </div>
    </div>
  );
}

/** Lift the sign-in lock of one account: its failures so far stop counting. */
export function LiftLockButton({ userId, name }: { userId: number; name: string }) {
  const lift = useAccountForm(liftSignInLockAction);
  return (
    <div className="account-actions">
      <form action={lift.action} onSubmit={lift.onSubmit}>
        <input type="hidden" name="userId" value={userId} />
        <button type="submit" className="secondary" disabled={lift.pending} aria-label={`Lift the sign-in lock of ${name}`}>
          Lift lock
        </button>
      </form>
      <div aria-live="polite">
        {lift.state && (
          <p className={`notice ${lift.state.ok ? "ok" : "error"}`} role={lift.state.ok ? "status" : "alert"}>
            {lift.state.message}
          </p>
        )}
      </div>
    </div>
  );
}

export function ChangePasswordForm() {
  const { state, pending, onSubmit, action } = useAccountForm(changePasswordAction);
  const err = (f: string) => state?.errors?.[f];
  const field = (id: string, label: string, autoComplete: string, hint?: string) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={id}
        type="password"
        autoComplete={autoComplete}
        required
        aria-invalid={err(id) ? true : undefined}
        aria-describedby={err(id) ? `${id}-error` : hint ? `${id}-hint` : undefined}
      />
      {hint && <div id={`${id}-hint`} className="muted small">{hint}</div>}
      {err(id) && <div id={`${id}-error`} className="field-error">{err(id)}</div>}
    </div>
  );
  return (
    // A server action's form is posted (React sets method="POST"): sent before the page runs its script,
    // the passwords go into no URL or log (#38).
    <form action={action} onSubmit={onSubmit} aria-labelledby="password-heading">
      <h2 id="password-heading">Change your password</h2>
      {field("current", "Current password", "current-password")}
      {field("next", "New password", "new-password", "At least 10 characters, not one repeated character, at most 72 bytes.")}
      {field("confirm", "New password again", "new-password")}
      <button type="submit" disabled={pending}>{pending ? "Changing…" : "Change password"}</button>
      <div aria-live="polite">
        {state?.ok ? (
          <p className="notice ok" role="status">
            {state.message} <a href="/signin">Sign in</a>
          </p>
        ) : state && !Object.keys(state.errors ?? {}).length ? (
          <p className="notice error" role="alert">{state.message}</p>
        ) : null}
      </div>
    </form>
  );
}
