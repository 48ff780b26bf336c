"use client";
import { useActionState, useState } from "react";
import { useScripted } from "@/app/_ui/scripted";
import type { StudyChangeState, StudyFormState } from "./study-actions";

/* The actions come bound from StudyControls (a server component): a server action bound in the
 * browser's code would make the server render that answers a form posted without JavaScript
 * suspend for ever (#38, test/bounds/client-binds.test.ts). */
type CreateStudy = (prev: StudyFormState, form: FormData) => Promise<StudyFormState>;
type ChangeStudy = (prev: StudyChangeState, form: FormData) => Promise<StudyChangeState>;
import styles from "./study-controls.module.css";

function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: React.ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="small muted" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

type Limits = { batch: number; overlap: number; minutes: number };

/**
 * The "New study" form behind a button (open from the start only while the project has no
 * study). Closing hides the form without clearing it; it stays open after a study is opened,
 * so its outcome stays in view. Without JavaScript the button cannot open it: then it is open.
 */
export function NewStudy({ create, limits, initiallyOpen }: { create: CreateStudy; limits: Limits; initiallyOpen: boolean }) {
  const [opened, setOpen] = useState(initiallyOpen);
  const scripted = useScripted();
  const open = opened || !scripted;
  return (
    <div className={styles.newStudy}>
      <h2>
        <button type="button" className={open ? "secondary" : undefined} aria-expanded={open} aria-controls="new-study" onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? "▾" : "▸"}</span> New study
        </button>
      </h2>
      <div id="new-study" hidden={!open}>
        <CreateStudyForm create={create} limits={limits} />
      </div>
    </div>
  );
}

/** The form that opens a study on the project. */
function CreateStudyForm({ create, limits }: { create: CreateStudy; limits: Limits }) {
  const [state, action, pending] = useActionState<StudyFormState, FormData>(create, null);
  const [platform, setPlatform] = useState("prolific");
  // Without JavaScript nothing follows the platform chosen: the code's hint names both cases, and the server asks for it.
  const scripted = useScripted();
  const e = state?.errors ?? {};
  // What was typed, after a refusal (React resets the form after its action); the defaults otherwise.
  const v = state?.ok ? {} : (state?.values ?? {});
  const described = (id: string, hint: boolean) => [hint ? `${id}-hint` : "", e[id.replace(/^st-/, "")] ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <form action={action} className="panel" aria-label="New study">
      <div className={styles.row}>
        <Field id="st-name" label="Name" hint="For you and the participants (the project's name when empty)." error={e.name}>
          <input id="st-name" name="name" maxLength={100} defaultValue={v.name ?? ""} aria-describedby={described("st-name", true)} />
        </Field>
        <Field id="st-platform" label="Platform" error={e.platform}>
          <select id="st-platform" name="platform" value={platform} onChange={(ev) => setPlatform(ev.target.value)}>
            <option value="prolific">Prolific</option>
            <option value="mturk">Mechanical Turk (ExternalQuestion)</option>
            <option value="link">A plain link (participants choose an id)</option>
          </select>
        </Field>
      </div>
      <div className={styles.row}>
        <Field id="st-batchSize" label="Batch size" hint="Instances each participant gets." error={e.batchSize}>
          <input id="st-batchSize" name="batchSize" type="number" min={1} max={limits.batch} defaultValue={v.batchSize ?? 20} required aria-describedby={described("st-batchSize", true)} aria-invalid={!!e.batchSize} />
        </Field>
        <Field id="st-overlap" label="Overlap" hint="Answers each instance gets, from distinct participants." error={e.overlap}>
          <input id="st-overlap" name="overlap" type="number" min={1} max={limits.overlap} defaultValue={v.overlap ?? 5} required aria-describedby={described("st-overlap", true)} aria-invalid={!!e.overlap} />
        </Field>
        <Field id="st-minutes" label="Minutes" hint="Time for a batch; after it the unanswered items go to others (answers are kept)." error={e.minutes}>
          <input id="st-minutes" name="minutes" type="number" min={1} max={limits.minutes} defaultValue={v.minutes ?? 45} required aria-describedby={described("st-minutes", true)} aria-invalid={!!e.minutes} />
        </Field>
      </div>
      <div className={styles.row}>
        <Field
          id="st-completionCode"
          label="Completion code"
          hint={
            !scripted
              ? "Prolific: the study's completion code on Prolific (required). Otherwise: shown to a participant who finishes (optional)."
              : platform === "prolific"
                ? "The study's completion code on Prolific (required)."
                : "Shown to a participant who finishes (optional)."
          }
          error={e.completionCode}
        >
          <input id="st-completionCode" name="completionCode" maxLength={64} defaultValue={v.completionCode ?? ""} required={scripted && platform === "prolific"} aria-describedby={described("st-completionCode", true)} aria-invalid={!!e.completionCode} />
        </Field>
        <Field id="st-screenOutCode" label="Screen-out code" hint="Given to a participant who fails the training (optional)." error={e.screenOutCode}>
          <input id="st-screenOutCode" name="screenOutCode" maxLength={64} defaultValue={v.screenOutCode ?? ""} aria-describedby={described("st-screenOutCode", true)} aria-invalid={!!e.screenOutCode} />
        </Field>
      </div>
      <div className={styles.consent}>
        <Field id="st-consent" label="Consent (Markdown)" hint="Shown before the first item with an “I agree, start” button; leave empty for none." error={e.consent}>
          <textarea id="st-consent" name="consent" rows={6} defaultValue={v.consent ?? ""} aria-describedby={described("st-consent", true)} />
        </Field>
      </div>
      {state && (
        <p role={state.ok ? "status" : "alert"} className={state.ok ? "notice ok" : "notice error"}>
          {state.message}
        </p>
      )}
      <button type="submit" disabled={pending}>
        {pending ? "Opening…" : "Open the study"}
      </button>
    </form>
  );
}

/** The link, with a button that copies it. */
export function CopyLink({ link, label }: { link: string; label: string }) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  // Copying needs the page's script; without it the link is there to select.
  const scripted = useScripted();
  return (
    <div className={styles.link}>
      <input readOnly value={link} aria-label={label} onFocus={(ev) => ev.currentTarget.select()} size={Math.min(link.length, 80)} />
      {scripted && (
        <button
          type="button"
          className="secondary"
          onClick={() =>
            navigator.clipboard.writeText(link).then(
              () => setCopied("yes"),
              () => setCopied("no"),
            )
          }
        >
          Copy link
        </button>
      )}
      <span role="status" className="small muted">
        {copied === "yes" ? "Copied." : copied === "no" ? "Could not copy: select the link and copy it." : ""}
      </span>
    </div>
  );
}

const NEXT: Record<"open" | "paused" | "closed", Array<{ state: "open" | "paused" | "closed"; label: string }>> = {
  open: [
    { state: "paused", label: "Pause" },
    { state: "closed", label: "Close" },
  ],
  paused: [
    { state: "open", label: "Open again" },
    { state: "closed", label: "Close" },
  ],
  closed: [{ state: "open", label: "Open again" }],
};

/** Pause, open or close one study. */
export function StudyStateButtons({ change, name, state }: { change: ChangeStudy; name: string; state: "open" | "paused" | "closed" }) {
  const [result, action, pending] = useActionState<StudyChangeState, FormData>(change, null);
  return (
    <div>
      <div className={styles.buttons}>
        {NEXT[state].map((n) => (
          <form key={n.state} action={action} aria-label={`${n.label} ${name}`}>
            <input type="hidden" name="state" value={n.state} />
            <button type="submit" className="secondary" disabled={pending}>
              {n.label}
            </button>
          </form>
        ))}
      </div>
      {result && (
        <p role={result.ok ? "status" : "alert"} className={result.ok ? "notice ok" : "notice error"}>
          {result.message}
        </p>
      )}
    </div>
  );
}
