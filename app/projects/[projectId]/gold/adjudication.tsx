"use client";
/**
 * Per-response adjudication on the Gold review (issue #15): each substitute an
 * annotator typed can be struck or corrected, a whole response struck, and a
 * multiword phrase corrected, declared not a multiword, or used for every
 * response that gave another phrase (the mwgold is derived from these); a
 * decision shows the original struck through, the correction beside it, who
 * decided and when, and an Undo button. The server re-checks everything
 * (lib/server/gold/adjudication.ts).
 */
import { usePathname, useSearchParams } from "next/navigation";
import { type ReactNode, useState } from "react";
import { useScripted } from "@/app/_ui/scripted";
import styles from "./gold.module.css";
import { useGoldForm } from "./use-gold-form";

/** An active decision as the card shows it (times formatted on the server). */
export interface DecisionView {
  id: number;
  action: "strike" | "correct" | "strike-response" | "multiword";
  substitute: string | null;
  value: string | null;
  reason: string;
  /** "coord · 5 min ago" */
  decided: string;
  /** The absolute time, for the tooltip. */
  decidedTitle: string;
  /** The annotator changed the substitute since: not applied. */
  stale: boolean;
}

function Outcome({ state }: { state: ReturnType<typeof useGoldForm>["state"] }) {
  if (!state) return null;
  if (state.ok) return <span className={styles.saved}>{state.message}</span>;
  return (
    <span className={styles.error} role="alert">
      {state.message}
    </span>
  );
}

/** The query parameter that opens one cell's form on a page without JavaScript. */
const ASK = "adjudicate";

/**
 * A cell's adjudication controls, in a box opened on demand: a page of twenty instances holds a
 * few hundred substitutes, so the form (`children`) is rendered once the box is opened — by the
 * page's script, or, without JavaScript, by a link in the opened box to this page with the cell
 * named in the URL (`?adjudicate=<cell>`), which comes back with that box open and its form.
 */
function OnDemand({ cell, summary, label, children }: { cell: string; summary: string; label: string; children: ReactNode }) {
  const [opened, setOpened] = useState(false);
  const scripted = useScripted();
  const params = useSearchParams();
  const pathname = usePathname();
  const asked = params.get(ASK) === cell;
  const query = new URLSearchParams(params);
  query.set(ASK, cell);
  return (
    <details id={cell} className={styles.adjudicate} open={asked || undefined} onToggle={(e) => setOpened(e.currentTarget.open)}>
      <summary aria-label={label}>{summary}</summary>
      {opened || asked ? (
        children
      ) : scripted ? null : (
        <a className="small" href={`${pathname}?${query}#${cell}`}>
          Open the form
        </a>
      )}
    </details>
  );
}

function UndoButton({ decision, label }: { decision: DecisionView; label: string }) {
  const { state, pending, onSubmit, action } = useGoldForm("undoAdjudication");
  return (
    <form action={action} onSubmit={onSubmit} className={styles.inlineForm}>
      <input type="hidden" name="id" value={decision.id} />
      <button type="submit" className={`secondary ${styles.mini}`} disabled={pending} aria-label={label}>
        Undo
      </button>
      {state && !state.ok && <Outcome state={state} />}
    </form>
  );
}

function DecisionMeta({ d }: { d: DecisionView }) {
  return (
    <span className={`muted small ${styles.decidedBy}`} title={d.decidedTitle}>
      by {d.decided}
      {d.reason && <> · “{d.reason}”</>}
      {d.stale && <> · not applied: the annotator has changed this answer since</>}
    </span>
  );
}

/** One typed substitute: its decision (struck or corrected, undoable), or the controls to make one. */
export function SubstituteCell({
  instanceId,
  annotator,
  substitute,
  decision,
  responseStruck,
}: {
  instanceId: string;
  annotator: string;
  substitute: string;
  decision: DecisionView | null;
  responseStruck: boolean;
}) {
  const { state, pending, onSubmit, action } = useGoldForm("adjudicate");
  if (decision) {
    return (
      <li className={styles.sub1}>
        <del className={styles.struck} aria-label={`${substitute}, ${decision.action === "strike" ? "struck" : "corrected"}`}>
          {substitute}
        </del>
        {decision.action === "correct" && (
          <>
            {" → "}
            <ins className={styles.correction}>{decision.value}</ins>
          </>
        )}{" "}
        <DecisionMeta d={decision} />{" "}
        <UndoButton decision={decision} label={`Undo the ${decision.action === "strike" ? "strike" : "correction"} of ${substitute} (${annotator})`} />
      </li>
    );
  }
  const base = `adj-${instanceId}-${annotator}-${substitute}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const err = state && !state.ok ? state.errors : undefined;
  return (
    <li className={styles.sub1}>
      <span className={responseStruck ? styles.struck : undefined}>{substitute}</span>
      {!responseStruck && (
        <OnDemand cell={base} summary="Adjudicate" label={`Adjudicate ${substitute} (${annotator})`}>
          <form action={action} onSubmit={onSubmit} className={styles.adjForm} aria-label={`Adjudicate ${substitute} of ${annotator}`}>
            <input type="hidden" name="instanceId" value={instanceId} />
            <input type="hidden" name="annotator" value={annotator} />
            <input type="hidden" name="substitute" value={substitute} />
            <label htmlFor={`${base}-reason`}>Reason (optional)</label>
            <input id={`${base}-reason`} name="reason" maxLength={300} autoComplete="off" />
            <div className={styles.fieldRow}>
              <button type="submit" name="action" value="strike" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`Strike ${substitute} (${annotator})`}>
                Strike
              </button>
            </div>
            <label htmlFor={`${base}-value`}>Or correct it to</label>
            <div className={styles.fieldRow}>
              <input
                id={`${base}-value`}
                name="value"
                maxLength={60}
                autoComplete="off"
                spellCheck={false}
                aria-invalid={err?.value ? true : undefined}
                aria-describedby={err?.value ? `${base}-value-error` : undefined}
              />
              <button type="submit" name="action" value="correct" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`Correct ${substitute} (${annotator})`}>
                Correct
              </button>
            </div>
            {err?.value && (
              <div id={`${base}-value-error`} className="field-error" role="alert">
                {err.value}
              </div>
            )}
            <div aria-live="polite" className="small">
              {pending ? <span className="muted">Saving…</span> : !err?.value && <Outcome state={state} />}
            </div>
          </form>
        </OnDemand>
      )}
    </li>
  );
}

/** Strike the whole response (NAME, NIL or substitutes), or show the strike with Undo. */
export function ResponseStrike({ instanceId, annotator, decision }: { instanceId: string; annotator: string; decision: DecisionView | null }) {
  const { state, pending, onSubmit, action } = useGoldForm("adjudicate");
  if (decision) {
    return (
      <div className={styles.responseStruck}>
        <span className={`tag ${styles.badBadge}`}>response struck</span> <DecisionMeta d={decision} />{" "}
        <UndoButton decision={decision} label={`Undo the strike of ${annotator}'s response`} />
      </div>
    );
  }
  const id = `strike-${instanceId}-${annotator}`.replace(/[^A-Za-z0-9_-]/g, "_");
  return (
    <OnDemand cell={id} summary="Strike response" label={`Strike ${annotator}'s whole response`}>
      <form action={action} onSubmit={onSubmit} className={styles.adjForm} aria-label={`Strike ${annotator}'s response`}>
        <input type="hidden" name="instanceId" value={instanceId} />
        <input type="hidden" name="annotator" value={annotator} />
        <label htmlFor={`${id}-reason`}>Reason (optional)</label>
        <div className={styles.fieldRow}>
          <input id={`${id}-reason`} name="reason" maxLength={300} autoComplete="off" />
          <button type="submit" name="action" value="strike-response" className={`secondary ${styles.mini}`} disabled={pending}>
            Strike
          </button>
        </div>
        <div aria-live="polite" className="small">
          {pending ? <span className="muted">Saving…</span> : <Outcome state={state} />}
        </div>
      </form>
    </OnDemand>
  );
}

/**
 * One annotator's multiword phrase: its decision (corrected, or not a multiword; undoable), or the
 * controls to make one: correct it to the phrase in the field, use that phrase for every response
 * that gave another, or say the target is not part of a multiword. `inMwgold`: the phrase as the
 * mwgold counts it (lemmatised), shown when it differs from the one typed.
 */
export function MultiwordCell({
  instanceId,
  annotator,
  phrase,
  inMwgold,
  decision,
  responseStruck,
}: {
  instanceId: string;
  annotator: string;
  phrase: string | null;
  inMwgold: string | null;
  decision: DecisionView | null;
  responseStruck: boolean;
}) {
  const { state, pending, onSubmit, action } = useGoldForm("adjudicate");
  if (decision) {
    // The phrase decided on (a stale decision's differs from the one typed now; it can still be undone).
    const decided = decision.substitute ?? phrase ?? "";
    return (
      <div className={styles.sub1}>
        {decision.stale && phrase !== null && <span>{phrase}</span>}
        <del className={styles.struck} aria-label={`${decided}, ${decision.value === null ? "not a multiword" : "corrected"}`}>
          {decided}
        </del>
        {decision.value === null ? (
          <span className={`tag ${styles.plainBadge}`}>not a multiword</span>
        ) : (
          <>
            {" → "}
            <ins className={styles.correction}>{decision.value}</ins>
          </>
        )}{" "}
        <DecisionMeta d={decision} />{" "}
        <UndoButton decision={decision} label={`Undo the multiword decision on ${decided} (${annotator})`} />
      </div>
    );
  }
  if (phrase === null) return <span className="muted">—</span>;
  const base = `mw-${instanceId}-${annotator}`.replace(/[^A-Za-z0-9_-]/g, "_");
  const err = state && !state.ok ? state.errors : undefined;
  const fieldError = err?.value ?? err?.phrase;
  return (
    <div>
      <span className={responseStruck ? styles.struck : undefined}>{phrase}</span>
      {!responseStruck && inMwgold !== null && inMwgold !== phrase && <div className={`muted small ${styles.inGold}`}>in the mwgold: {inMwgold}</div>}
      {!responseStruck && (
        <OnDemand cell={base} summary="Adjudicate" label={`Adjudicate the multiword ${phrase} (${annotator})`}>
          <form action={action} onSubmit={onSubmit} className={`${styles.adjForm} ${styles.adjFormWide}`} aria-label={`Adjudicate the multiword of ${annotator}`}>
            <input type="hidden" name="instanceId" value={instanceId} />
            <input type="hidden" name="annotator" value={annotator} />
            <input type="hidden" name="substitute" value={phrase} />
            <label htmlFor={`${base}-reason`}>Reason (optional)</label>
            <input id={`${base}-reason`} name="reason" maxLength={300} autoComplete="off" />
            <label htmlFor={`${base}-value`}>The phrase</label>
            <input
              id={`${base}-value`}
              name="value"
              defaultValue={phrase}
              maxLength={80}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={fieldError ? true : undefined}
              aria-describedby={fieldError ? `${base}-value-error` : undefined}
            />
            <div className={styles.buttonRow}>
              <button type="submit" name="action" value="multiword" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`Correct the multiword of ${annotator}`}>
                Correct
              </button>
              <button type="submit" name="action" value="adopt-multiword" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`Use this phrase for every annotator's multiword on ${instanceId}`}>
                Use for all
              </button>
              <button type="submit" name="action" value="not-multiword" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`${annotator}: not a multiword`}>
                Not a multiword
              </button>
            </div>
            {fieldError && (
              <div id={`${base}-value-error`} className="field-error" role="alert">
                {fieldError}
              </div>
            )}
            <div aria-live="polite" className="small">
              {pending ? <span className="muted">Saving…</span> : !fieldError && <Outcome state={state} />}
            </div>
          </form>
        </OnDemand>
      )}
    </div>
  );
}
