"use client";
import { useActionState } from "react";
import type { RoundFormState } from "./actions";

/**
 * The New round form.
 * The actions come bound from the page (a server component): a server action bound in the browser's
 * code would make the server render that answers a form posted without JavaScript suspend for ever
 * (#38, test/bounds/client-binds.test.ts).
 */
export function CreateRoundForm({
  create,
  members,
  runs,
  models = [],
}: {
  create: (prev: RoundFormState, form: FormData) => Promise<RoundFormState>;
  members: { id: number; name: string; judge: boolean }[];
  runs: { id: number; name: string; type: string; gold: string }[];
  /** The project's models (lib/server/models): up to ten ranked candidates each, asked for as the round is made. */
  models?: string[];
}) {
  const [state, action, pending] = useActionState<RoundFormState, FormData>(create, null);
  return (
    <form action={action} className="panel" aria-label="New judgement round">
      <h2>New round</h2>
      <div className="field">
        <label htmlFor="jr-name">Name</label>
        <input id="jr-name" name="name" defaultValue="Post hoc" />
      </div>
      <fieldset>
        <legend>Items</legend>
        <label>
          <input type="radio" name="selection" value="posthoc" defaultChecked /> §5.1 preset: more than two single-word substitutes, no NAME, target not in a majority multiword
        </label>
        <label>
          <input type="radio" name="selection" value="any" /> Any instance with a substitute
        </label>
        <div className="field">
          <label htmlFor="jr-size">Sample size</label>
          <input id="jr-size" name="sampleSize" type="number" min={1} defaultValue={100} />
        </div>
        <div className="field">
          <label htmlFor="jr-seed">Seed</label>
          <input id="jr-seed" name="seed" type="number" min={0} defaultValue={1} />
        </div>
      </fieldset>
      <fieldset>
        <legend>Candidate sources</legend>
        <label>
          <input type="checkbox" name="source" value="annotators" defaultChecked /> The annotators&apos; substitutes
        </label>
        <label>
          <input type="checkbox" name="source" value="wordnet" /> WordNet baseline (oot)
        </label>
        {runs.map((r) => (
          <label key={r.id}>
            <input type="checkbox" name="source" value={`run:${r.id}`} /> Run: {r.name} ({r.type}, scored against {r.gold})
          </label>
        ))}
        {models.map((m) => (
          <label key={m}>
            <input type="checkbox" name="source" value={`model:${m}`} /> Model: {m} (up to ten ranked candidates per instance)
          </label>
        ))}
        <label>
          <input type="checkbox" name="controls" value="on" /> Add control candidates (the target itself, a word from another item)
        </label>
      </fieldset>
      <fieldset>
        <legend>Judging</legend>
        <div className="field">
          <label htmlFor="jr-scheme">Labels</label>
          <select id="jr-scheme" name="scheme" defaultValue="good-reasonable-bad">
            <option value="good-reasonable-bad">good / reasonable / bad</option>
            <option value="good-bad-abstain">good / bad / abstain</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="jr-judges">Judges per candidate</label>
          <input id="jr-judges" name="judgesPerCandidate" type="number" min={1} defaultValue={3} />
        </div>
        <div className="field">
          <label htmlFor="jr-cap">Escalation cap (more judges when any says good)</label>
          <input id="jr-cap" name="escalationCap" type="number" min={1} defaultValue={3} />
        </div>
        <label>
          <input type="checkbox" name="allowOwnItems" value="on" /> Judges may judge items they annotated
        </label>
        <p className="small muted">Judges</p>
        {members.map((m) => (
          <label key={m.id}>
            <input type="checkbox" name="judge" value={m.id} /> {m.name}
            {m.judge && <span className="small muted"> (judge)</span>}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={pending}>
        Create round
      </button>
      {state && (
        <p role={state.ok ? "status" : "alert"} className={state.ok ? "notice" : "field-error"}>
          {state.message}
        </p>
      )}
    </form>
  );
}
