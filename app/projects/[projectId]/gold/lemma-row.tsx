"use client";
import { useEffect, useRef, useState } from "react";
import { useScripted } from "@/app/_ui/scripted";
import styles from "./gold.module.css";
import { acceptAllLabel } from "./_views/summary-notes";
import { useGoldForm } from "./use-gold-form";

export interface LemmaRowData {
  form: string;
  count: number;
  pos: string[];
  proposed: string;
  proposals?: { pos: string; proposed: string; count: number }[];
  /** A verb target's participle WordNet also lists as an adjective: the verb's lemma, a choice to decide here. */
  choice?: { asTyped: string; proposed: string; pos: string };
  /** Spellings imported as written with other spacing (kept apart in the gold until decided). */
  spacing?: string[];
  changed: boolean;
  decision: "accepted" | "overridden" | "kept" | null;
  lemma: string;
  /** "coordinator · 5 min ago", null while open. */
  decided: string | null;
  decidedTitle: string | null;
}

const DECISION_LABEL = { accepted: "accepted", overridden: "overridden", kept: "kept as typed" } as const;

/** One typed form of the lemma review, with its decision buttons and an inline override field. */
export function LemmaRow({ row, index }: { row: LemmaRowData; index: number }) {
  const { state, pending, onSubmit, action } = useGoldForm("decideLemma");
  const formRef = useRef<HTMLFormElement>(null);
  const saveRef = useRef<HTMLButtonElement>(null);
  const fid = `lemma-${index}`;
  // The field shows the lemma the gold records once decided, the proposal while open (the gold writes the form as typed
  // until then; the proposal is the likelier start of an override); a decision saved elsewhere in the row updates it in place.
  const shown = row.decision === null ? row.proposed : row.lemma;
  const [value, setValue] = useState(shown);
  useEffect(() => setValue(shown), [shown]);
  const lemmaErr = state?.ok ? undefined : state?.errors?.lemma;
  const otherErr = state && !state.ok && !lemmaErr ? state.message : undefined;
  return (
    <tr className={row.changed ? styles.changedRow : undefined}>
      <th scope="row" className={styles.form} data-label="Form">
        {row.form}
      </th>
      <td className={`num ${styles.countCell}`} data-label="Count">{row.count}</td>
      <td className={styles.posCell} data-label="PoS">{row.pos.join(", ") || "—"}</td>
      <td data-label="Proposed">
        {row.proposals ? (
          <ul className={`plain ${styles.proposals}`} aria-label={`Proposals for ${row.form} by PoS`}>
            {row.proposals.map((p) => (
              <li key={p.pos}>
                <span className={styles.proposal}>{p.proposed}</span>{" "}
                <span className="muted small">
                  {p.pos} · {p.count}
                </span>{" "}
                <button
                  type="submit"
                  form={fid}
                  name="decision"
                  value={`accepted:${p.pos}`}
                  className={`secondary ${styles.mini}`}
                  disabled={pending}
                  aria-label={`Accept ${p.proposed} (${p.pos}) for ${row.form}`}
                >
                  Accept
                </button>
              </li>
            ))}
          </ul>
        ) : row.changed ? (
          <>
            <span className={styles.proposal}>{row.proposed}</span>
            {row.choice && (
              <div className="muted small">
                a choice: the verb {row.choice.proposed}, or {row.choice.asTyped} as WordNet&rsquo;s adjective (keep as typed); accept all leaves it open
              </div>
            )}
            {row.spacing && (
              <div className="muted small">
                also typed with other spacing: {row.spacing.map((s) => JSON.stringify(s)).join(", ")} (apart in the gold until decided)
              </div>
            )}
          </>
        ) : (
          <span className="muted" title="The lemmatiser leaves this form as it is">
            {row.proposed} <span className="small">(same)</span>
          </span>
        )}
      </td>
      <td data-label="In the gold" className={styles.goldCell}>
        <form id={fid} ref={formRef} action={action} onSubmit={onSubmit} className={styles.override}>
          <input type="hidden" name="form" value={row.form} />
          <input
            name="lemma"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-label={`Lemma for ${row.form}`}
            aria-invalid={lemmaErr ? true : undefined}
            aria-describedby={lemmaErr ? `${fid}-error` : undefined}
            autoComplete="off"
            spellCheck={false}
            onKeyDown={(e) => {
              // Enter saves what was typed as an override (not the first button of the row).
              if (e.key === "Enter" && !e.nativeEvent.isComposing) {
                e.preventDefault();
                formRef.current?.requestSubmit(saveRef.current);
              }
            }}
          />
          <button ref={saveRef} type="submit" name="decision" value="overridden" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`Override the lemma for ${row.form}`}>
            Override
          </button>
        </form>
        {lemmaErr && (
          <div id={`${fid}-error`} className="field-error" role="alert">
            {lemmaErr}
          </div>
        )}
      </td>
      <td data-label="Decision" className={styles.decision}>
        {row.decision ? (
          <>
            <span className={`tag ${styles[row.decision]}`}>{DECISION_LABEL[row.decision]}</span>
            <div className="muted small" title={row.decidedTitle ?? undefined}>{row.decided}</div>
          </>
        ) : (
          <span className={`tag ${styles.open}`}>open</span>
        )}
      </td>
      <td data-label="Decide" className={styles.actions}>
        <div className={styles.buttons}>
          <button type="submit" form={fid} name="decision" value="accepted" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`Accept ${row.proposed} for ${row.form}`}>
            Accept
          </button>
          <button type="submit" form={fid} name="decision" value="kept" className={`secondary ${styles.mini}`} disabled={pending} aria-label={`Keep ${row.form} as typed`}>
            Keep as typed
          </button>
          <button type="submit" form={fid} name="decision" value="reset" className={`quiet ${styles.mini}`} disabled={pending || row.decision === null} aria-label={`Reset ${row.form} to open`}>
            Reset
          </button>
        </div>
        <div aria-live="polite" className="small">
          {pending ? <span className="muted">Saving…</span> : otherErr ? <span className={styles.error} role="alert">{otherErr}</span> : state?.ok ? <span className={styles.saved}>{state.message}</span> : null}
        </div>
      </td>
    </tr>
  );
}

/**
 * "Yes" to a change of every open form, asked as a box to tick when the page's script cannot ask
 * (without JavaScript, or before it runs): nothing undoes such a change in one go.
 */
function ConfirmWithoutScript({ label }: { label: string }) {
  const scripted = useScripted();
  if (scripted) return null;
  return (
    <label className="small" style={{ fontWeight: 400 }}>
      <input type="checkbox" required /> {label}
    </label>
  );
}

/** Accept the proposal for every form not reviewed yet. */
export function AcceptAllForm({ open, openChanged }: { open: number; openChanged: number }) {
  const { state, pending, onSubmit, action } = useGoldForm("acceptAll");
  const confirmFirst = (e: React.FormEvent<HTMLFormElement>) => {
    // Many forms at once: ask, as nothing undoes them in one go (each form can be reset on its own).
    if (!window.confirm(`Accept the lemmatiser's proposal for all ${open} open form${open === 1 ? "" : "s"}?`)) {
      e.preventDefault();
      return;
    }
    onSubmit(e);
  };
  return (
    <form action={action} onSubmit={confirmFirst} className={styles.acceptAll}>
      <button type="submit" className="secondary" disabled={pending || open === 0}>
        {pending ? "Accepting…" : acceptAllLabel(open, openChanged)}
      </button>
      {open > 0 && <ConfirmWithoutScript label={`Yes, all ${open} open`} />}
      <div aria-live="polite" className="small">
        {state && (state.ok ? <span className={styles.saved}>{state.message}</span> : <span className={styles.error} role="alert">{state.message}</span>)}
      </div>
    </form>
  );
}

/** Keep every form not reviewed yet as typed, as a decision: no download rewrites them then, not even the one with the open proposals applied. */
export function KeepAllForm({ open }: { open: number }) {
  const { state, pending, onSubmit, action } = useGoldForm("keepAll");
  const confirmFirst = (e: React.FormEvent<HTMLFormElement>) => {
    if (!window.confirm(`Keep all ${open} open form${open === 1 ? "" : "s"} as typed?`)) {
      e.preventDefault();
      return;
    }
    onSubmit(e);
  };
  return (
    <form action={action} onSubmit={confirmFirst} className={styles.acceptAll}>
      <button type="submit" className="secondary" disabled={pending || open === 0}>
        {pending ? "Keeping…" : open === 0 ? "No open forms" : `Keep all ${open} open as typed`}
      </button>
      {open > 0 && <ConfirmWithoutScript label={`Yes, all ${open} open`} />}
      <div aria-live="polite" className="small">
        {state && (state.ok ? <span className={styles.saved}>{state.message}</span> : <span className={styles.error} role="alert">{state.message}</span>)}
      </div>
    </form>
  );
}
