"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { OwnResponse } from "@/lib/server/annotate";
import { type Draft, type StoredDraft, fromResponse, readDraft, sameDraft } from "./draft";

export type DraftState = ReturnType<typeof useDraft>;

/**
 * One instance's draft: what the fields hold and the revision it was started from.
 * Every change is kept in the browser under `key` (localStorage) until a save is
 * acknowledged, so a reload, a crash or a save the server asked to wait for loses
 * nothing; on arrival a kept draft that differs from the saved answer comes back.
 * The refs hold the latest values for handlers that run between renders.
 */
export function useDraft(key: string, response: OwnResponse | null) {
  const saved = fromResponse(response);
  const [draft, setDraftState] = useState<Draft>(saved);
  const [baseRevision, setBaseRevision] = useState(response?.revision ?? 0);
  const [restored, setRestored] = useState(false);
  const draftRef = useRef(draft);
  const baseRef = useRef(baseRevision);

  const keepDraft = useCallback(
    (d: Draft, rev: number) => {
      try {
        if (sameDraft(d, fromResponse(response)) && rev === (response?.revision ?? 0)) window.localStorage.removeItem(key);
        else window.localStorage.setItem(key, JSON.stringify({ draft: d, baseRevision: rev } satisfies StoredDraft));
      } catch {
        /* storage full or disabled: the draft just isn't kept */
      }
    },
    [key, response],
  );

  /** A change typed or chosen: shown, and kept in the browser. */
  const setDraft = useCallback(
    (d: Draft) => {
      draftRef.current = d;
      setDraftState(d);
      keepDraft(d, baseRef.current);
    },
    [keepDraft],
  );

  /** Show a draft without keeping it (one restored from the browser, or the saved answer taken over). */
  function replaceDraft(d: Draft) {
    draftRef.current = d;
    setDraftState(d);
  }

  function setBase(rev: number) {
    baseRef.current = rev;
    setBaseRevision(rev);
  }

  /** Drop the draft kept in the browser (the server has the answer). */
  function forget() {
    try {
      window.localStorage.removeItem(key);
    } catch {
      /* ignore */
    }
  }

  // On arrival: restore an unsaved draft.
  useEffect(() => {
    const stored = readDraft(key);
    if (stored && !sameDraft(stored.draft, draftRef.current)) {
      replaceDraft(stored.draft);
      setBase(stored.baseRevision);
      setRestored(true);
    } else if (stored) {
      window.localStorage.removeItem(key);
    }
  }, [key]);

  const unsaved = !sameDraft(draft, saved) || baseRevision !== (response?.revision ?? 0);
  return { draft, draftRef, setDraft, replaceDraft, baseRef, setBase, restored, setRestored, unsaved, forget };
}
