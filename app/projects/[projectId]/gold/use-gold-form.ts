"use client";
import { createContext, startTransition, useActionState, useContext, useEffect, useRef } from "react";
import type { GoldFormState } from "./actions";
import { useKeepPlace } from "./keep-place";

/** A Gold action bound to the project. */
type GoldAction = (prev: GoldFormState, form: FormData) => Promise<GoldFormState>;

/**
 * The Gold page's actions, bound to the project by the page (a server component) and handed to
 * its forms through this context: a server action bound in the browser's code would make the
 * server render that answers a form posted without JavaScript suspend for ever (#38,
 * test/bounds/client-binds.test.ts).
 */
export interface GoldActions {
  decideLemma: GoldAction;
  acceptAll: GoldAction;
  keepAll: GoldAction;
  exclusion: GoldAction;
  correctPos: GoldAction;
  reviewed: GoldAction;
  adjudicate: GoldAction;
  undoAdjudication: GoldAction;
  returnInstance: GoldAction;
  withdrawReturn: GoldAction;
}

export const GoldActionsContext = createContext<GoldActions | null>(null);

/**
 * Where the card of the decision last sent stood in the window. The refresh after a decision
 * renders the page for the URL's new `hold`, and the router scrolls a page it renders anew to
 * its top: the card kept its rank, but the coordinator lost it off the screen. When the
 * decision lands, the window is scrolled back so the card stands where it stood.
 */
let place: { card: string; top: number } | null = null;

function notePlace(form: HTMLFormElement) {
  const card = form.closest("article[aria-labelledby]");
  const id = card?.getAttribute("aria-labelledby");
  place = card && id ? { card: id, top: card.getBoundingClientRect().top } : null;
}

function restorePlace() {
  const p = place;
  place = null;
  if (!p) return;
  const put = () => {
    const card = document.querySelector(`article[aria-labelledby="${CSS.escape(p.card)}"]`);
    if (!card) return;
    const off = card.getBoundingClientRect().top - p.top;
    if (Math.abs(off) >= 1) window.scrollBy(0, off);
  };
  put();
  // The router may scroll after this commit's effects: once more on the next frame.
  requestAnimationFrame(put);
}

/**
 * A form of a Gold action. The form's action is the action itself (`action`), so the form works
 * before the page's script runs and without it (a native post, the button pressed included; the
 * page comes back with the outcome). With the script it is submitted through a transition instead
 * (`onSubmit`), so a refused submission keeps what was typed (React resets action-prop forms after
 * every submission), and the button pressed is sent. On an instance card in agreement order, the
 * instance is held in place first (keep-place.tsx), and the window keeps the card where it was on
 * the screen.
 */
export function useGoldForm(name: keyof GoldActions) {
  const actions = useContext(GoldActionsContext);
  if (!actions) throw new Error("A Gold form outside the Gold page's actions.");
  const [state, dispatch, pending] = useActionState<GoldFormState, FormData>(actions[name], null);
  const keepPlace = useKeepPlace();
  const sent = useRef(false);
  useEffect(() => {
    if (pending) sent.current = true;
    else if (sent.current) {
      sent.current = false;
      restorePlace();
    }
  }, [pending]);
  // A form that the decision takes away (an Undo button) restores the place as it goes.
  useEffect(
    () => () => {
      if (sent.current) restorePlace();
    },
    [],
  );
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    keepPlace();
    notePlace(e.currentTarget);
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const form = new FormData(e.currentTarget, submitter instanceof HTMLButtonElement ? submitter : null);
    startTransition(() => dispatch(form));
  };
  return { state, pending, onSubmit, action: dispatch };
}
