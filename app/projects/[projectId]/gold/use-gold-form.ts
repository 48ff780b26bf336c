"use client";
import { startTransition, useActionState, useMemo } from "react";
import type { GoldFormState } from "./actions";
import { useKeepPlace } from "./keep-place";

type Action = (projectId: number, prev: GoldFormState, form: FormData) => Promise<GoldFormState>;

/**
 * A form bound to a Gold action. Submitted through a transition rather than the
 * form's action prop, so a refused submission keeps what was typed (React resets
 * action-prop forms after every submission), and the button pressed is sent.
 * On an instance card in agreement order, the instance is held in place first (keep-place.tsx).
 */
export function useGoldForm(action: Action, projectId: number) {
  const bound = useMemo(() => action.bind(null, projectId), [action, projectId]);
  const [state, dispatch, pending] = useActionState<GoldFormState, FormData>(bound, null);
  const keepPlace = useKeepPlace();
  const onSubmit = (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    keepPlace();
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    const form = new FormData(e.currentTarget, submitter instanceof HTMLButtonElement ? submitter : null);
    startTransition(() => dispatch(form));
  };
  return { state, pending, onSubmit };
}
