"use client";
import { useActionState } from "react";
import type { RoundChangeState } from "./actions";

type RoundAction = (prev: RoundChangeState, form: FormData) => Promise<RoundChangeState>;

/**
 * A round's judges (members ticked) and its open/closed switch.
 * The actions come bound from the page (a server component): a server action bound in the browser's
 * code would make the server render that answers a form posted without JavaScript suspend for ever
 * (#38, test/bounds/client-binds.test.ts).
 */
export function RoundControls({
  actions,
  roundName,
  state,
  members,
  judges,
}: {
  actions: { setJudges: RoundAction; setState: RoundAction };
  roundName: string;
  state: "open" | "closed";
  members: { id: number; name: string; judge: boolean }[];
  judges: number[];
}) {
  const [judgesState, judgesAction, judgesPending] = useActionState<RoundChangeState, FormData>(actions.setJudges, null);
  const [stateState, stateAction, statePending] = useActionState<RoundChangeState, FormData>(actions.setState, null);
  const chosen = new Set(judges);
  const message = [judgesState, stateState].filter((s): s is NonNullable<RoundChangeState> => s !== null);
  return (
    <div className="round-controls">
      <form action={judgesAction} aria-label={`Judges of ${roundName}`}>
        <fieldset>
          <legend>Judges</legend>
          {members.length === 0 && <p className="small muted">The project has no judges or annotators yet (Team tab).</p>}
          {members.map((m) => (
            <label key={m.id}>
              <input type="checkbox" name="judge" value={m.id} defaultChecked={chosen.has(m.id)} /> {m.name}
            {m.judge && <span className="small muted"> (judge)</span>}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="secondary" disabled={judgesPending}>
          Save judges
        </button>
      </form>
      <form action={stateAction} className="inline" aria-label={`${state === "open" ? "Close" : "Reopen"} ${roundName}`}>
        <input type="hidden" name="state" value={state === "open" ? "closed" : "open"} />
        <button type="submit" className="secondary" disabled={statePending}>
          {state === "open" ? "Close round" : "Reopen round"}
        </button>
        <span className="small muted">
          {state === "open" ? "Judges can label. Closing keeps every label and figure." : "Closed: judges can no longer label; the figures and downloads stay."}
        </span>
      </form>
      {message.map((s, i) => (
        <p key={i} role={s.ok ? "status" : "alert"} className={s.ok ? "notice" : "field-error"}>
          {s.message}
        </p>
      ))}
    </div>
  );
}
