"use client";
import { startTransition, useActionState, useEffect, useRef, useState } from "react";
import { useScripted } from "@/app/_ui/scripted";
import type { SplitFormState, TeamFormState } from "./actions";
import styles from "./team.module.css";

/**
 * A Team action bound to the project. The actions come bound from the Team page (a server
 * component): a server action bound in the browser's code would make the server render that
 * answers a form posted without JavaScript suspend for ever (#38, test/bounds/client-binds.test.ts).
 */
export type TeamAction = (prev: TeamFormState, form: FormData) => Promise<TeamFormState>;
export type SplitAction = (prev: SplitFormState, form: FormData) => Promise<SplitFormState>;

/**
 * A form of a Team action. The form's action is the action itself, so the form works before
 * the page's script runs and without it (a native post; the page comes back with the outcome).
 * With the script, it is submitted through a transition instead, so a refused submission keeps
 * what the user typed and ticked (React resets action-prop forms after every submission); the
 * form is cleared only after a success, and only when asked.
 */
function useTeamForm(action: TeamAction, opts: { resetOnSuccess?: boolean } = {}) {
  const [state, dispatch, pending] = useActionState<TeamFormState, FormData>(action, null);
  const ref = useRef<HTMLFormElement>(null);
  const reset = opts.resetOnSuccess ?? false;
  useEffect(() => {
    if (state?.ok && reset) ref.current?.reset();
  }, [state, reset]);
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    startTransition(() => dispatch(form));
  };
  return { state, pending, form: { ref, onSubmit, action: dispatch } };
}

/** The outcome of a form: a status for success, an alert for a message not tied to one field. */
function Outcome({ state, fields }: { state: TeamFormState; fields: string[] }) {
  if (!state) return null;
  if (state.ok) return <p className="notice ok" role="status">{state.message}</p>;
  if (state.errors && fields.some((f) => state.errors?.[f])) return null;
  return <p className="notice error" role="alert">{state.message}</p>;
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? <div id={id} className="field-error">{message}</div> : null;
}

/** The role a new member gets in this project: annotator (the default) or judge; coordinator for a coordinator account, when offered. */
function ProjectRoleField({ id, coordinator = false }: { id: string; coordinator?: boolean }) {
  return (
    <div className="field">
      <label htmlFor={id}>Role in this project</label>
      <select id={id} name="projectRole" defaultValue="annotator" aria-describedby={`${id}-hint`}>
        <option value="annotator">Annotator</option>
        <option value="judge">Judge</option>
        {coordinator && <option value="coordinator">Coordinator (coordinator accounts only)</option>}
      </select>
      <div id={`${id}-hint`} className="muted small">A judge annotates nothing: they only label candidates in the judgement rounds they are given.</div>
    </div>
  );
}

export function CreateAnnotatorForm({ action }: { action: TeamAction }) {
  const { state, pending, form } = useTeamForm(action, { resetOnSuccess: true });
  const nameErr = state?.errors?.name;
  const pwErr = state?.errors?.password;
  return (
    // A server action's form is posted (React sets method="POST"): sent before the page runs its script,
    // the password goes into no URL or log (#38).
    <form {...form} aria-labelledby="create-heading">
      <h3 id="create-heading">Create an account</h3>
      <div className="field">
        <label htmlFor="new-name">User name</label>
        <input id="new-name" name="name" required autoComplete="off" aria-invalid={nameErr ? true : undefined} aria-describedby={nameErr ? "new-name-error" : "new-name-hint"} />
        <div id="new-name-hint" className="muted small">Letters, digits, dot, dash or underscore.</div>
        <FieldError id="new-name-error" message={nameErr} />
      </div>
      <div className="field">
        <label htmlFor="new-password">Initial password</label>
        <input id="new-password" name="password" type="text" autoComplete="off" spellCheck={false} aria-invalid={pwErr ? true : undefined} aria-describedby={pwErr ? "new-password-error" : "new-password-hint"} />
        <div id="new-password-hint" className="muted small">At least 10 characters, not one repeated character. Leave blank to generate one.</div>
        <FieldError id="new-password-error" message={pwErr} />
      </div>
      <ProjectRoleField id="new-project-role" />
      <button type="submit" disabled={pending}>{pending ? "Creating…" : "Create and add"}</button>
      <div aria-live="polite">
        {state?.ok && state.created ? (
          <div className="notice ok" role="status">
            <p className={styles.tight}>{state.message}</p>
            <p className={styles.tight}>
              Initial password for <strong>{state.created.name}</strong>:{" "}
              <code className={styles.secret}>{state.created.password}</code>
            </p>
            <p className={`small ${styles.tight}`}>Pass it on now: it is not shown again.</p>
          </div>
        ) : (
          <Outcome state={state} fields={["name", "password"]} />
        )}
      </div>
    </form>
  );
}

export function AddMemberForm({ action, others }: { action: TeamAction; others: Array<{ id: number; name: string; role: string }> }) {
  const { state, pending, form } = useTeamForm(action, { resetOnSuccess: true });
  return (
    <form {...form} aria-labelledby="add-heading">
      <h3 id="add-heading">Add an existing account</h3>
      {others.length === 0 ? (
        <p className="muted small">Every account of your other projects is already in this one. (Other accounts are added from the command line: <code>lexgold member add</code>.)</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor="add-user">Account</label>
            <select id="add-user" name="userId" required defaultValue="">
              <option value="" disabled>Choose…</option>
              {others.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.name} ({u.role})
                </option>
              ))}
            </select>
          </div>
          <ProjectRoleField id="add-project-role" coordinator={others.some((u) => u.role === "coordinator")} />
          <button type="submit" className="secondary" disabled={pending}>Add to project</button>
        </>
      )}
      <div aria-live="polite">
        <Outcome state={state} fields={[]} />
      </div>
    </form>
  );
}

/**
 * One annotator's assignment, for the lexelts on one page of the editor (the page
 * sends which lexelts it showed: the others keep what they have).
 */
export function AssignmentForm({
  action,
  userId,
  name,
  lexelts,
  restricted,
}: {
  action: TeamAction;
  userId: number;
  name: string;
  /** The lexelts on this page, with whether the annotator has each. */
  lexelts: Array<{ id: number; item: string; instances: number; assigned: boolean }>;
  /** Whether the annotator is restricted to some lexelts (false = all, the default). */
  restricted: boolean;
}) {
  const { state, pending, form } = useTeamForm(action);
  const scripted = useScripted();
  const [scope, setScope] = useState<"all" | "some">(restricted ? "some" : "all");
  const group = useRef<HTMLDivElement>(null);
  const tickAll = (on: boolean) => group.current?.querySelectorAll<HTMLInputElement>('input[type="checkbox"]').forEach((b) => (b.checked = on));
  const err = state?.errors?.lexelts;
  const base = `assign-${userId}`;
  return (
    <form {...form}>
      <input type="hidden" name="userId" value={userId} />
      {lexelts.map((l) => (
        <input key={l.id} type="hidden" name="shown" value={l.id} />
      ))}
      <fieldset className={styles.fieldset}>
        <legend className={styles.srOnly}>Lexelts {name} annotates</legend>
        <label className={styles.choice}>
          <input type="radio" name="scope" value="all" checked={scope === "all"} onChange={() => setScope("all")} /> All lexelts
          <span className="muted small"> (the default, as in the original task)</span>
        </label>
        <label className={styles.choice}>
          <input type="radio" name="scope" value="some" checked={scope === "some"} onChange={() => setScope("some")} /> Only these lexelts:
        </label>
        {scripted && (
          <div className={styles.tools}>
            <button type="button" className="secondary small" disabled={scope === "all"} onClick={() => tickAll(true)}>Select all on this page</button>
            <button type="button" className="secondary small" disabled={scope === "all"} onClick={() => tickAll(false)}>Select none on this page</button>
          </div>
        )}
        <div ref={group} className={styles.lexelts} role="group" aria-label={`Lexelts for ${name}`} aria-describedby={err ? `${base}-error` : undefined}>
          {lexelts.map((l) => (
            <label key={l.id} className={styles.choice}>
              {/* Without JavaScript the boxes stay open: nothing would open them when "Only these" is chosen. */}
              <input type="checkbox" name="lexelt" value={l.id} defaultChecked={l.assigned} disabled={scripted && scope === "all"} />{" "}
              <code>{l.item}</code> <span className="muted small">({l.instances})</span>
            </label>
          ))}
        </div>
        <p className="muted small">Lexelts on other pages keep what they have.</p>
        <FieldError id={`${base}-error`} message={err} />
      </fieldset>
      <button type="submit" className="secondary" disabled={pending}>Save assignment for {name}</button>
      <div aria-live="polite">
        <Outcome state={state} fields={["lexelts"]} />
      </div>
    </form>
  );
}

/** The choice a split preview is for (the same on the server: actions.ts splitKey). */
function splitKey(ids: Iterable<number>, k: string): string {
  return `${[...ids].sort((a, b) => a - b).join(",")}|${k.trim()}`;
}

/**
 * "Split the lexelts evenly over these annotators with k per instance": preview, then confirm.
 * Without JavaScript the form posts itself (the boxes and k as fields, the button pressed as
 * `intent`); the page comes back with the preview and the choice it was for, and "Confirm split"
 * applies it (the server previews again instead when the choice sent is not the one previewed).
 */
export function SplitForm({ action, annotators }: { action: SplitAction; annotators: Array<{ id: number; name: string }> }) {
  const [state, dispatch, pending] = useActionState<SplitFormState, FormData>(action, null);
  const scripted = useScripted();
  const ref = useRef<HTMLFormElement>(null);
  const [filter, setFilter] = useState("");
  // After a post without JavaScript, the choice the page comes back with is the one sent.
  const [chosen, setChosen] = useState<Set<number>>(() => new Set(state?.chosen?.annotators ?? []));
  const [k, setK] = useState(state?.chosen?.k ?? "1");
  const shown = annotators.filter((a) => a.name.toLowerCase().includes(filter.trim().toLowerCase()));
  const key = splitKey(chosen, k);
  const send = (intent: "preview" | "apply") => {
    const form = new FormData();
    form.set("intent", intent);
    form.set("k", k);
    for (const id of chosen) form.append("annotator", String(id));
    if (state?.previewed) form.set("previewed", state.previewed);
    startTransition(() => dispatch(form));
  };
  const plan = state?.ok ? state.plan : undefined;
  // The preview is for what is chosen now; a change asks for a new one.
  const fresh = plan && !state?.applied && state?.previewed === key;
  const kErr = state?.errors?.k;
  const aErr = state?.errors?.annotators;
  return (
    <form
      ref={ref}
      action={dispatch}
      onSubmit={(e) => {
        e.preventDefault();
        send((e.nativeEvent as SubmitEvent).submitter?.getAttribute("value") === "apply" ? "apply" : "preview");
      }}
      aria-labelledby="split-heading"
    >
      <h3 id="split-heading">Split the lexelts evenly</h3>
      <p className="muted small">Each lexelt goes to k of the chosen annotators, balancing their instance counts. Annotators not chosen keep their assignment.</p>
      {state?.previewed && <input type="hidden" name="previewed" value={state.previewed} />}
      {scripted && (
        <>
          <div className="field">
            <label htmlFor="split-find">Find annotators</label>
            <input id="split-find" type="search" value={filter} onChange={(e) => setFilter(e.target.value)} autoComplete="off" />
          </div>
          <div className={styles.tools}>
            <button type="button" className="secondary small" onClick={() => setChosen(new Set([...chosen, ...shown.map((a) => a.id)]))}>Select all{filter ? " found" : ""}</button>
            <button type="button" className="secondary small" onClick={() => setChosen(new Set([...chosen].filter((id) => !shown.some((a) => a.id === id))))}>Select none{filter ? " found" : ""}</button>
            <span className="muted small">{chosen.size} chosen</span>
          </div>
        </>
      )}
      <div className={styles.lexelts} role="group" aria-label="Annotators to split over" aria-describedby={aErr ? "split-annotators-error" : undefined}>
        {shown.map((a) => (
          <label key={a.id} className={styles.choice}>
            <input
              type="checkbox"
              name="annotator"
              value={a.id}
              checked={chosen.has(a.id)}
              onChange={(e) => {
                const next = new Set(chosen);
                if (e.target.checked) next.add(a.id);
                else next.delete(a.id);
                setChosen(next);
              }}
            />{" "}
            {a.name}
          </label>
        ))}
      </div>
      <FieldError id="split-annotators-error" message={aErr} />
      <div className="field">
        <label htmlFor="split-k">Annotators for each lexelt (k)</label>
        <input id="split-k" name="k" type="number" min={1} step={1} inputMode="numeric" className={styles.narrow} value={k} onChange={(e) => setK(e.target.value)} aria-invalid={kErr ? true : undefined} aria-describedby={kErr ? "split-k-error" : undefined} />
        <FieldError id="split-k-error" message={kErr} />
      </div>
      <div className={styles.tools}>
        <button type="submit" name="intent" value="preview" className="secondary" disabled={pending}>Preview split</button>
        <button type="submit" name="intent" value="apply" disabled={pending || !fresh}>Confirm split</button>
      </div>
      {plan && (
        <div className="table-wrap">
          <table aria-label={state?.applied ? "Split applied" : "Split preview"}>
            <thead>
              <tr>
                <th scope="col">Annotator</th>
                <th scope="col" className="num">Lexelts</th>
                <th scope="col" className="num">Instances</th>
              </tr>
            </thead>
            <tbody>
              {plan.annotators.map((a) => (
                <tr key={a.userId}>
                  <th scope="row" className={styles.name}>{a.name}</th>
                  <td className="num">{a.lexelts}</td>
                  <td className="num">{a.instances}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div aria-live="polite">
        <Outcome state={state} fields={["k", "annotators"]} />
      </div>
    </form>
  );
}

export function RequiredAnnotatorsForm({ action, value }: { action: TeamAction; value: number | null }) {
  const { state, pending, form } = useTeamForm(action);
  const err = state?.errors?.requiredAnnotators;
  return (
    <form {...form}>
      <div className="field">
        <label htmlFor="required">Annotators per instance</label>
        <input
          id="required"
          name="requiredAnnotators"
          type="number"
          min={1}
          max={100}
          step={1}
          inputMode="numeric"
          defaultValue={value ?? ""}
          className={styles.narrow}
          aria-invalid={err ? true : undefined}
          aria-describedby={err ? "required-error" : "required-hint"}
        />
        <div id="required-hint" className="muted small">
          Leave blank for everyone assigned to the lexelt. With a number, an instance stops being served once it has that many responses.
        </div>
        <FieldError id="required-error" message={err} />
      </div>
      <button type="submit" className="secondary" disabled={pending}>Save</button>
      <div aria-live="polite">
        <Outcome state={state} fields={["requiredAnnotators"]} />
      </div>
    </form>
  );
}

export function GuidelinesForm({ action, value }: { action: TeamAction; value: string }) {
  const { state, pending, form } = useTeamForm(action);
  const err = state?.errors?.guidelines;
  return (
    <form {...form}>
      <div className="field">
        <label htmlFor="guidelines">Guidelines for annotators</label>
        <textarea
          id="guidelines"
          name="guidelines"
          rows={8}
          defaultValue={value}
          className={styles.textarea}
          aria-invalid={err ? true : undefined}
          aria-describedby={err ? "guidelines-error" : "guidelines-hint"}
        />
        <div id="guidelines-hint" className="muted small">Plain text; a blank line starts a new paragraph. Annotators can open them from the workspace.</div>
        <FieldError id="guidelines-error" message={err} />
      </div>
      <button type="submit" className="secondary" disabled={pending}>Save guidelines</button>
      <div aria-live="polite">
        <Outcome state={state} fields={["guidelines"]} />
      </div>
    </form>
  );
}

/** A member's role in the project (annotator or judge), changed in place. */
export function MemberRoleForm({ action, userId, name, role }: { action: TeamAction; userId: number; name: string; role: "annotator" | "judge" }) {
  const { state, pending, form } = useTeamForm(action);
  return (
    <form {...form} className={styles.inline}>
      <input type="hidden" name="userId" value={userId} />
      <select name="projectRole" defaultValue={role} aria-label={`Role of ${name}`} key={role}>
        <option value="annotator">annotator</option>
        <option value="judge">judge</option>
      </select>{" "}
      <button type="submit" className="secondary small" disabled={pending} aria-label={`Set the role of ${name}`}>
        Set
      </button>
      {state && !state.ok && <span className="field-error" role="alert">{state.message}</span>}
    </form>
  );
}

/** Remove an annotator from the project (asks first, when the page's script runs); their answers stay. */
export function RemoveMemberForm({ action, userId, name }: { action: TeamAction; userId: number; name: string }) {
  const { state, pending, form } = useTeamForm(action);
  return (
    <form
      {...form}
      onSubmit={(e) => {
        if (!window.confirm(`Remove ${name} from the project? Their answers stay; they are signed out.`)) {
          e.preventDefault();
          return;
        }
        form.onSubmit(e);
      }}
    >
      <input type="hidden" name="userId" value={userId} />
      <button type="submit" className="secondary" disabled={pending} aria-label={`Remove ${name}`}>
        Remove
      </button>
      {state && !state.ok && <span className="field-error" role="alert">{state.message}</span>}
    </form>
  );
}
