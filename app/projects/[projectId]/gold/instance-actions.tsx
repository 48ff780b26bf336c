"use client";
import { useEffect, useRef } from "react";
import { SIGN_IN_FIRST, SignInAgain } from "@/app/sign-in-again";
import styles from "./gold.module.css";
import { useGoldForm } from "./use-gold-form";

const POS_NAMES: Record<string, string> = { n: "noun", v: "verb", a: "adjective", r: "adverb" };

/** After a change swaps the form's controls, keep the keyboard where it was: on the control that replaced the one pressed. */
function useFocusOnChange<T extends HTMLElement>(value: unknown) {
  const ref = useRef<T>(null);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) ref.current?.focus();
  }, [value]);
  return ref;
}

function Outcome({ state, field }: { state: ReturnType<typeof useGoldForm>["state"]; field?: string }) {
  if (!state) return null;
  if (state.ok) return <span className={styles.saved}>{state.message}</span>;
  if (field && state.errors?.[field]) return null;
  return (
    <span className={styles.error} role="alert">
      {state.message}
      {state.message === SIGN_IN_FIRST && (
        <>
          {" "}
          <SignInAgain />
        </>
      )}
    </span>
  );
}

/** Exclude the instance from the gold with a reason, or put it back. */
export function ExclusionForm({ instanceId, excluded }: { instanceId: string; excluded: string | null }) {
  const { state, pending, onSubmit, action } = useGoldForm("exclusion");
  const id = `exclude-${instanceId}`;
  const err = state && !state.ok ? state.errors?.reason : undefined;
  const focusRef = useFocusOnChange<HTMLElement>(excluded);
  return (
    <form action={action} onSubmit={onSubmit} className={styles.instanceForm} aria-label={`Exclusion of ${instanceId}`}>
      <input type="hidden" name="instanceId" value={instanceId} />
      {excluded === null ? (
        <>
          <label htmlFor={id} className={styles.inlineLabel}>Exclude, because</label>
          <div className={styles.fieldRow}>
            <input
              id={id}
              ref={focusRef as React.RefObject<HTMLInputElement>}
              name="reason"
              placeholder="the reason"
              autoComplete="off"
              maxLength={300}
              aria-invalid={err ? true : undefined}
              aria-describedby={err ? `${id}-error` : undefined}
            />
            <button type="submit" name="op" value="exclude" className={`secondary ${styles.mini}`} disabled={pending}>
              Exclude
            </button>
          </div>
          {err && (
            <div id={`${id}-error`} className="field-error" role="alert">
              {err}
            </div>
          )}
        </>
      ) : (
        <>
          <div className={`${styles.inlineLabel} ${styles.labelLine}`}>Excluded from the gold</div>
          <div className={styles.fieldRow}>
            <button ref={focusRef as React.RefObject<HTMLButtonElement>} type="submit" name="op" value="restore" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`Put ${instanceId} back`}>
              Put back
            </button>
          </div>
        </>
      )}
      <div aria-live="polite" className="small">
        {pending ? <span className="muted">Saving…</span> : <Outcome state={state} field="reason" />}
      </div>
    </form>
  );
}

/** Correct the instance's PoS (written lemma.ori_pos.pos), or undo the correction. */
export function PosForm({ instanceId, originalPos, correctedPos }: { instanceId: string; originalPos: string; correctedPos: string | null }) {
  const { state, pending, onSubmit, action } = useGoldForm("correctPos");
  const id = `pos-${instanceId}`;
  const err = state && !state.ok ? state.errors?.pos : undefined;
  const focusRef = useFocusOnChange<HTMLElement>(correctedPos);
  return (
    <form action={action} onSubmit={onSubmit} className={styles.instanceForm} aria-label={`PoS of ${instanceId}`}>
      <input type="hidden" name="instanceId" value={instanceId} />
      {correctedPos === null ? (
        <>
          <label htmlFor={id} className={styles.inlineLabel}>Correct the PoS to</label>
          <div className={styles.fieldRow}>
            <select ref={focusRef as React.RefObject<HTMLSelectElement>} id={id} name="pos" defaultValue="" aria-invalid={err ? true : undefined} aria-describedby={err ? `${id}-error` : undefined}>
              <option value="" disabled>
                choose…
              </option>
              {Object.entries(POS_NAMES)
                .filter(([p]) => p !== originalPos)
                .map(([p, name]) => (
                  <option key={p} value={p}>
                    {p} ({name})
                  </option>
                ))}
            </select>
            <button type="submit" name="op" value="correct" className={`secondary ${styles.mini}`} disabled={pending}>
              Correct
            </button>
          </div>
          {err && (
            <div id={`${id}-error`} className="field-error" role="alert">
              {err}
            </div>
          )}
        </>
      ) : (
        <>
          <div className={`${styles.inlineLabel} ${styles.labelLine}`}>
            PoS corrected from {originalPos} to {correctedPos}
          </div>
          <div className={styles.fieldRow}>
            <button ref={focusRef as React.RefObject<HTMLButtonElement>} type="submit" name="op" value="undo" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`Undo the PoS correction of ${instanceId}`}>
              Undo PoS correction
            </button>
          </div>
        </>
      )}
      <div aria-live="polite" className="small">
        {pending ? <span className="muted">Saving…</span> : <Outcome state={state} field="pos" />}
      </div>
    </form>
  );
}

/**
 * Mark the instance reviewed, or un-mark it.
 */
export function ReviewedForm({ instanceId, reviewed }: { instanceId: string; reviewed: { by: string; when: string; title: string } | null }) {
  const { state, pending, onSubmit, action } = useGoldForm("reviewed");
  const focusRef = useFocusOnChange<HTMLButtonElement>(reviewed === null);
  return (
    <form action={action} onSubmit={onSubmit} className={styles.instanceForm} aria-label={`Review mark of ${instanceId}`}>
      <input type="hidden" name="instanceId" value={instanceId} />
      <div className={`${styles.inlineLabel} ${styles.labelLine}`}>
        {reviewed === null ? (
          "Not reviewed yet"
        ) : (
          <span title={reviewed.title}>
            Reviewed by {reviewed.by} · {reviewed.when}
          </span>
        )}
      </div>
      <div className={styles.fieldRow}>
        {reviewed === null ? (
          <button ref={focusRef} type="submit" name="op" value="mark" className={styles.mini} disabled={pending} aria-label={`Mark ${instanceId} reviewed`}>
            Mark reviewed
          </button>
        ) : (
          <button ref={focusRef} type="submit" name="op" value="unmark" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`Un-mark ${instanceId} reviewed`}>
            Un-mark reviewed
          </button>
        )}
      </div>
      <div aria-live="polite" className="small">
        {pending ? <span className="muted">Saving…</span> : <Outcome state={state} />}
      </div>
    </form>
  );
}

/** Return one annotator's response to them with a comment: it comes first in their workspace until they save it again. */
export function ReturnForm({ instanceId, annotators }: { instanceId: string; annotators: string[] }) {
  const { state, pending, onSubmit, action } = useGoldForm("returnInstance");
  const id = `return-${instanceId}`;
  const err = state && !state.ok ? (state.errors?.comment ?? state.errors?.annotator) : undefined;
  return (
    <details className={styles.returnBox}>
      <summary>Return to an annotator…</summary>
      <form action={action} onSubmit={onSubmit} className={styles.instanceForm} aria-label={`Return ${instanceId} to an annotator`}>
        <input type="hidden" name="instanceId" value={instanceId} />
        <label htmlFor={`${id}-who`} className={styles.inlineLabel}>
          Annotator
        </label>
        <select id={`${id}-who`} name="annotator" defaultValue={annotators[0]}>
          {annotators.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-comment`} className={styles.inlineLabel}>
          Comment for them
        </label>
        <textarea
          id={`${id}-comment`}
          name="comment"
          rows={2}
          maxLength={1000}
          placeholder="What should they look at again?"
          aria-invalid={err ? true : undefined}
          aria-describedby={err ? `${id}-error` : undefined}
        />
        {err && (
          <div id={`${id}-error`} className="field-error" role="alert">
            {err}
          </div>
        )}
        <div className={styles.fieldRow}>
          <button type="submit" className={`secondary ${styles.mini}`} disabled={pending}>
            Return with comment
          </button>
        </div>
        <div aria-live="polite" className="small">
          {pending ? <span className="muted">Saving…</span> : <Outcome state={state} field={err ? (state?.errors?.comment ? "comment" : "annotator") : undefined} />}
        </div>
      </form>
    </details>
  );
}

/** Withdraw an open return (the coordinator's undo of it): the annotator's answer stays as it is. */
export function WithdrawReturnForm({ instanceId, annotator }: { instanceId: string; annotator: string }) {
  const { state, pending, onSubmit, action } = useGoldForm("withdrawReturn");
  return (
    <form action={action} onSubmit={onSubmit} className={styles.inlineForm} aria-label={`Withdraw the return of ${instanceId} to ${annotator}`}>
      <input type="hidden" name="instanceId" value={instanceId} />
      <input type="hidden" name="annotator" value={annotator} />
      <button type="submit" className={`quiet ${styles.mini}`} disabled={pending}>
        Withdraw
      </button>
      <span aria-live="polite" className="small">
        {pending ? <span className="muted">Saving…</span> : state && !state.ok ? <Outcome state={state} /> : null}
      </span>
    </form>
  );
}
