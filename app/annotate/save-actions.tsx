"use client";
/** Under the answer: the form's error, Save & next, and the save's status (with a sign-in link when the session ended). */
import type { RefObject } from "react";
import { SIGN_IN_FIRST, SignInAgain } from "../sign-in-again";
import type { Status } from "./use-save";
import s from "./workspace.module.css";

export function SaveActions({ formError, saveRef, saving, scripted, status, navigating }: { formError: string | undefined; saveRef: RefObject<HTMLButtonElement | null>; saving: boolean; scripted: boolean; status: Status; navigating: boolean }) {
  return (
    <>
      {formError && (
        <p className="notice error" id="form-error" role="alert">
          {formError}
        </p>
      )}

      <div className={s.actions}>
        <button type="submit" ref={saveRef} disabled={saving || !scripted} aria-keyshortcuts="Enter">
          Save &amp; next
        </button>
        <p role="status" aria-live="polite" className={`${s.status} ${status ? s[status.tone] : ""}`}>
          {status?.text ?? ""}
          {status?.text === SIGN_IN_FIRST && (
            <>
              {" "}
              <SignInAgain />
              {" "}(your answer is kept here as a draft).
            </>
          )}
          {navigating && !saving ? " Loading…" : ""}
        </p>
      </div>
    </>
  );
}
