"use client";
import { useEffect, useRef, useState } from "react";
import type { FlagNote } from "@/lib/server/annotate";
import type { Subs } from "./draft";
import { withoutError } from "./field-rules";
import type { DraftState } from "./use-draft";

export const SUB_FIELDS = ["substitute1", "substitute2", "substitute3"] as const;

export type Fields = ReturnType<typeof useFields>;

/**
 * The answer's fields: three substitutes, or NAME / NIL (the substitutes typed are
 * put aside and come back when NAME / NIL is undone), and the multiword phrase;
 * the errors shown beside them, and where the focus goes.
 */
export function useFields({ draftRef, setDraft, draft }: DraftState, head: string) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const stash = useRef<Subs | null>(null);
  const subRefs = [useRef<HTMLInputElement>(null), useRef<HTMLInputElement>(null), useRef<HTMLInputElement>(null)];
  const phraseRef = useRef<HTMLInputElement>(null);
  const saveRef = useRef<HTMLButtonElement>(null);
  const focusPhrase = useRef(false);

  useEffect(() => {
    if (focusPhrase.current && draft.multiword) {
      focusPhrase.current = false;
      const el = phraseRef.current;
      if (el) {
        // The phrase is selected: typing the whole phrase replaces the prefilled word (typing after it
        // made "filmfeature film" of "feature film"); End or → keeps the word to type on after it.
        el.focus();
        el.select();
      }
    }
  }, [draft.multiword]);

  /** On arrival: the first substitute (caret at the end), or Save for NAME / NIL. */
  function focusFirst() {
    const first = subRefs[0].current;
    if (draftRef.current.kind === "substitutes" && first) {
      first.focus();
      first.setSelectionRange(first.value.length, first.value.length);
    } else saveRef.current?.focus();
  }

  /** The first field refused. */
  function focusError(errs: Record<string, string>) {
    const first = SUB_FIELDS.findIndex((f) => errs[f]);
    if (first >= 0) subRefs[first].current?.focus();
    else if (errs.multiword) phraseRef.current?.focus();
  }

  function focusSave() {
    setTimeout(() => saveRef.current?.focus(), 0);
  }

  function chooseKind(kind: "NAME" | "NIL") {
    const d = draftRef.current;
    if (d.kind === kind) {
      setDraft({ ...d, kind: "substitutes", subs: stash.current ?? ["", "", ""] });
      stash.current = null;
      setTimeout(() => subRefs[0].current?.focus(), 0);
    } else {
      if (d.kind === "substitutes") stash.current = d.subs;
      setDraft({ ...d, kind, subs: ["", "", ""] });
      setErrors(({ substitute1, substitute2, substitute3, ...rest }) => rest);
      setTimeout(() => saveRef.current?.focus(), 0);
    }
  }

  function toggleMultiword() {
    const d = draftRef.current;
    if (d.multiword) {
      setDraft({ ...d, multiword: false });
    } else {
      focusPhrase.current = true;
      setDraft({ ...d, multiword: true, phrase: d.phrase || head });
    }
    setErrors(({ multiword, ...rest }) => rest);
  }

  function setSub(i: number, value: string) {
    const subs = [...draftRef.current.subs] as Subs;
    subs[i] = value;
    setDraft({ ...draftRef.current, subs });
    setErrors((errs) => withoutError(errs, SUB_FIELDS[i]));
  }

  function setPhrase(value: string) {
    setDraft({ ...draftRef.current, phrase: value });
    setErrors((errs) => withoutError(errs, "multiword"));
  }

  function fieldProps(field: string, id: string) {
    const err = errors[field];
    return { id, "aria-invalid": err ? true : undefined, "aria-describedby": err ? `${id}-error` : undefined } as const;
  }

  return { errors, setErrors, subRefs, phraseRef, saveRef, focusFirst, focusError, focusSave, chooseKind, toggleMultiword, setSub, setPhrase, fieldProps };
}

/** The flag and note on the instance, saved with the answer or on their own; the ref holds the latest for a save under way. */
export function useFlagNote(initial: FlagNote) {
  const [flagNote, setFlagNoteState] = useState<FlagNote>(initial);
  const flagNoteRef = useRef(flagNote);
  const flagSelectRef = useRef<HTMLSelectElement>(null);
  const setFlagNote = (v: FlagNote) => {
    flagNoteRef.current = v;
    setFlagNoteState(v);
  };
  function toggleFlag() {
    const f = flagNoteRef.current;
    setFlagNote({ ...f, flag: f.flag === null ? "unsure" : null });
    if (f.flag === null) setTimeout(() => flagSelectRef.current?.focus(), 0);
  }
  return { flagNote, flagNoteRef, flagSelectRef, setFlagNote, toggleFlag };
}
