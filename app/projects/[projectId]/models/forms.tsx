"use client";
/** The Models tab's forms (issue #41): each a server action, working as a plain form post without JavaScript. */
import { useActionState } from "react";
import type { ModelFormState } from "./actions";
import styles from "./models.module.css";

/** A Models action, bound to its project (and model, run, study) by the page on the server, so the form posts without JavaScript. */
export type ModelAction = (state: ModelFormState, form: FormData) => Promise<ModelFormState>;

function Outcome({ state }: { state: ModelFormState }) {
  if (!state?.message) return null;
  return (
    <p role={state.ok ? "status" : "alert"} className={state.ok ? "notice ok" : "notice error"}>
      {state.message}
    </p>
  );
}

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p className="field-error" id={`${id}-error`}>
      {error}
    </p>
  ) : null;
}

/** Register a model: what it is, where it is, its key (stored encrypted, never shown again). */
export function RegisterForm({ act }: { act: ModelAction }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(act, null);
  const e = state?.errors ?? {};
  const v = state?.ok ? {} : (state?.values ?? {});
  return (
    <form action={action} className="panel" aria-label="Register a model">
      <h2 className={styles.formTitle}>Register a model</h2>
      <div className={styles.row}>
        <div className="field">
          <label htmlFor="m-name">Name</label>
          <input id="m-name" name="name" required maxLength={40} defaultValue={v.name ?? ""} placeholder="llama3-8b" aria-invalid={!!e.name} aria-describedby={e.name ? "m-name-error" : undefined} />
          <FieldError id="m-name" error={e.name} />
        </div>
        <div className="field">
          <label htmlFor="m-kind">Kind</label>
          <select id="m-kind" name="kind" defaultValue={v.kind ?? "openai"}>
            <option value="openai">OpenAI-compatible (chat completions)</option>
            <option value="ollama">Ollama (/api/chat)</option>
          </select>
        </div>
      </div>
      <div className={styles.row}>
        <div className="field">
          <label htmlFor="m-baseUrl">Base URL</label>
          <input id="m-baseUrl" name="baseUrl" required inputMode="url" defaultValue={v.baseUrl ?? ""} placeholder="https://api.openai.com/v1" aria-invalid={!!e.baseUrl} aria-describedby="m-baseUrl-hint" />
          <p className="small muted" id="m-baseUrl-hint">
            Only this address is ever called. An address on this machine or a private network only when the server&apos;s operator has listed it (LEXGOLD_MODEL_PRIVATE_HOSTS).
          </p>
          <FieldError id="m-baseUrl" error={e.baseUrl} />
        </div>
        <div className="field">
          <label htmlFor="m-model">Model id</label>
          <input id="m-model" name="model" required maxLength={200} defaultValue={v.model ?? ""} placeholder="gpt-4o-mini, llama3.1:8b" aria-invalid={!!e.model} aria-describedby={e.model ? "m-model-error" : undefined} />
          <FieldError id="m-model" error={e.model} />
        </div>
      </div>
      <div className={styles.row}>
        <div className="field">
          <label htmlFor="m-apiKey">API key (optional)</label>
          <input id="m-apiKey" name="apiKey" type="password" autoComplete="off" maxLength={500} aria-describedby="m-apiKey-hint" aria-invalid={!!e.apiKey} />
          <p className="small muted" id="m-apiKey-hint">
            Stored encrypted with the server&apos;s secret; never shown again.
          </p>
          <FieldError id="m-apiKey" error={e.apiKey} />
        </div>
        <div className="field">
          <label htmlFor="m-maxConcurrency">Calls at once</label>
          <input id="m-maxConcurrency" name="maxConcurrency" type="number" min={1} max={32} defaultValue={v.maxConcurrency ?? 4} aria-invalid={!!e.maxConcurrency} />
          <FieldError id="m-maxConcurrency" error={e.maxConcurrency} />
        </div>
        <div className="field">
          <label htmlFor="m-timeoutS">Seconds a call</label>
          <input id="m-timeoutS" name="timeoutS" type="number" min={1} max={600} defaultValue={v.timeoutS ?? 60} aria-invalid={!!e.timeoutS} />
          <FieldError id="m-timeoutS" error={e.timeoutS} />
        </div>
      </div>
      <Outcome state={state} />
      <button type="submit" disabled={pending}>
        {pending ? "Checking…" : "Register"}
      </button>
    </form>
  );
}

/** Run a model over the project (or ask it for ranked candidates). */
export function RunForm({ act, name, disabled }: { act: ModelAction; name: string; disabled: boolean }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(act, null);
  const v = state?.ok ? {} : (state?.values ?? {});
  const id = (f: string) => `run-${name}-${f}`;
  return (
    <form action={action} className={styles.runForm} aria-label={`Run ${name}`}>
      <div className={styles.inline}>
        <label htmlFor={id("samples")}>Samples</label>
        <input id={id("samples")} name="samples" type="number" min={1} max={10} defaultValue={v.samples ?? 1} />
        <label htmlFor={id("temperature")}>Temperature</label>
        <input id={id("temperature")} name="temperature" type="number" min={0} max={2} step={0.1} defaultValue={v.temperature ?? 0} />
        <label htmlFor={id("instances")}>Instances</label>
        <input id={id("instances")} name="instances" defaultValue={v.instances ?? "all"} size={6} aria-describedby={id("instances-hint")} />
      </div>
      <p className="small muted" id={id("instances-hint")}>
        “all”, or the first N of the queue. Answered instances are skipped; the same prompt is taken from the cache.
      </p>
      <div className={styles.buttons}>
        <button type="submit" name="purpose" value="annotate" disabled={pending || disabled}>
          Annotate
        </button>
        <button type="submit" name="purpose" value="candidates" className="secondary" disabled={pending || disabled}>
          Ask for ranked candidates
        </button>
      </div>
      {/* "Started" says nothing once the run has ended (its outcome is above); a refusal stays. */}
      {(!state?.ok || disabled) && <Outcome state={state} />}
    </form>
  );
}

/** Stop a run: what it answered is kept. */
export function CancelRun({ act, asked }: { act: ModelAction; asked: boolean }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(act, null);
  return (
    <form action={action} className={styles.inlineForm}>
      <button type="submit" className="secondary small" disabled={pending || asked || !!state?.ok}>
        {asked || state?.ok ? "Stopping…" : "Cancel"}
      </button>
      {state && !state.ok && <Outcome state={state} />}
    </form>
  );
}

/** Count a model as an annotator, or stop: a logged decision with a reason. */
export function CountForm({ act, name, counted }: { act: ModelAction; name: string; counted: boolean }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(act, null);
  return (
    <form action={action} className={styles.decision}>
      {!counted && (
        <>
          <label htmlFor={`count-${name}`} className="small">
            Why (for the review log)
          </label>
          <input id={`count-${name}`} name="reason" maxLength={500} />
        </>
      )}
      <button type="submit" className="secondary" disabled={pending}>
        {counted ? "Stop counting it" : "Count it as an annotator"}
      </button>
      <Outcome state={state} />
    </form>
  );
}

/** Store the model's answers as Scoring runs. */
export function AddRunsForm({ act, models, compact }: { act: ModelAction; models: { name: string; samples: number }[]; compact?: boolean }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(act, null);
  if (models.length === 0) return null;
  const only = models.length === 1 ? models[0] : null;
  return (
    <form action={action} className={compact ? styles.decision : "panel"} aria-label="A model's answers as runs">
      {!compact && <h2 className={styles.formTitle}>A model&apos;s answers as runs</h2>}
      {only ? (
        <input type="hidden" name="model" value={only.name} />
      ) : (
        <div className="field">
          <label htmlFor="runs-model">Model</label>
          <select id="runs-model" name="model">
            {models.map((m) => (
              <option key={m.name}>{m.name}</option>
            ))}
          </select>
        </div>
      )}
      <button type="submit" className="secondary" disabled={pending}>
        {compact ? "Score it (best and oot runs)" : "Add as best and oot runs"}
      </button>
      {!compact && <p className="small muted">best: each instance&apos;s first answer; oot: the ranked candidates of a candidates run. Scored against the people&apos;s gold with the official figures.</p>}
      <Outcome state={state} />
    </form>
  );
}

/** Discard a model's answers, or remove the model: each behind a box to tick. */
export function DangerForm({ act, name, what }: { act: ModelAction; name: string; what: "discard" | "remove" }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(act, null);
  const id = `${what}-${name}`;
  return (
    <form action={action} className={styles.decision}>
      <label className="small">
        <input type="checkbox" name="confirm" id={id} /> {what === "discard" ? "Yes, delete its answers" : "Yes, remove it with its answers and calls"}
      </label>
      <button type="submit" className="secondary" disabled={pending}>
        {what === "discard" ? "Discard answers" : "Remove model"}
      </button>
      <Outcome state={state} />
    </form>
  );
}

/** A prompt template: the text, saved as a new version (blank: the built-in one). */
export function TemplateForm({ act, purpose, text, builtIn }: { act: ModelAction; purpose: "annotate" | "candidates"; text: string; builtIn: boolean }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(act, null);
  const id = `tpl-${purpose}`;
  return (
    <form action={action} aria-label={`The ${purpose} template`}>
      <label htmlFor={id} className={`small muted ${styles.placeholders}`}>
        Placeholders: {"{{guidelines}} {{sentence}} {{target}} {{language}}"}
      </label>
      <textarea id={id} name="text" rows={12} className={styles.template} defaultValue={state && !state.ok ? (state.values?.text ?? text) : text} aria-invalid={!!state?.errors?.text} />
      <div className={styles.buttons}>
        <button type="submit" disabled={pending}>
          Save as a new version
        </button>
        {!builtIn && (
          <label className="small">
            <input type="checkbox" name="reset" /> back to the built-in template
          </label>
        )}
      </div>
      <Outcome state={state} />
    </form>
  );
}

/** Suggestions in the workspace: off, after saving, or as candidates to accept; and which model. */
export function SuggestionsForm({ act, mode, model, models }: { act: ModelAction; mode: "off" | "after" | "assist"; model: string | null; models: string[] }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(act, null);
  return (
    <form action={action} className="panel" aria-label="Suggestions in the workspace">
      <fieldset className={styles.modes}>
        <legend>Show annotators a model&apos;s answers</legend>
        <label>
          <input type="radio" name="mode" value="off" defaultChecked={mode === "off"} /> Off
        </label>
        <label>
          <input type="radio" name="mode" value="after" defaultChecked={mode === "after"} /> After: once they have saved an instance, with a way to revise
        </label>
        <label>
          <input type="radio" name="mode" value="assist" defaultChecked={mode === "assist"} /> Assist: as candidates they accept with a key
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor="sg-model">Model</label>
        <select id="sg-model" name="model" defaultValue={model ?? models[0] ?? ""}>
          {models.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
      </div>
      <p className="small muted">Every answer records whether suggestions were shown and which were accepted, so agreement and gold can be split by it (the Agreement tab&apos;s Models section does).</p>
      <button type="submit" disabled={pending || models.length === 0}>
        Save
      </button>
      <Outcome state={state} />
    </form>
  );
}

/** A crowd study's participants see the suggestions only when this allows it. */
export function StudySuggestionsForm({ act, study, allowed }: { act: ModelAction; study: { id: number; name: string }; allowed: boolean }) {
  const [state, action, pending] = useActionState<ModelFormState, FormData>(act, null);
  return (
    <form action={action} className={styles.inlineForm}>
      <span>
        {study.name || `Study ${study.id}`}: {allowed ? "participants see them" : "participants never see them"}
      </span>{" "}
      <button type="submit" className="secondary small" disabled={pending}>
        {allowed ? "Hide from its participants" : "Show to its participants"}
      </button>
      <Outcome state={state} />
    </form>
  );
}
