"use client";
import { type RefObject, useEffect, useRef, useState } from "react";
import type { FlagNote } from "@/lib/server/annotate";
import type { InstanceView, OwnResponse } from "@/lib/server/annotate";
import { type Draft, fromResponse, sameDraft } from "./draft";
import { draftErrors } from "./field-rules";
import { type SaveResponseResult, postSave } from "./save-request";
import type { DraftState } from "./use-draft";
import type { Fields } from "./use-fields";

export type Status = { tone: "ok" | "error" | "info"; text: string } | null;

export type Saved = Extract<SaveResponseResult, { ok: true }>;

/** A message for the next instance's status line, carried across the navigation. */
let carriedStatus: string | null = null;

/** Time the page was visible since arrival, in ms: sent with the save. */
export function useActiveTime(key: string) {
  const active = useRef({ ms: 0, since: 0 });
  useEffect(() => {
    active.current = { ms: 0, since: document.visibilityState === "visible" ? performance.now() : 0 };
    const onVisibility = () => {
      const a = active.current;
      if (document.visibilityState === "visible") a.since = performance.now();
      else if (a.since) {
        a.ms += performance.now() - a.since;
        a.since = 0;
      }
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => document.removeEventListener("visibilitychange", onVisibility);
  }, [key]);
  return function activeMs(): number {
    const a = active.current;
    return Math.round(a.ms + (a.since ? performance.now() - a.since : 0));
  };
}

interface SaveOptions {
  projectId: number;
  /** The project's language (BCP 47): the rules fold case in it, as the server does. */
  language: string;
  instance: InstanceView;
  draft: DraftState;
  fields: Fields;
  flagNoteRef: RefObject<FlagNote>;
  activeMs: () => number;
  onSaved: (ref: number, res: Saved) => void;
  onResponse: (ref: number, response: OwnResponse) => void;
  /** When the project suggests a model's answers (use-suggestions.ts): what this save says of them. */
  suggestions?: RefObject<{ shown: boolean; accepted: string[] }> | null;
}

/**
 * Save & next: the rules checked here first (nothing is sent when a field breaks
 * one), then the save route (app/annotate/save-request.ts: a 429 waits and goes
 * again with what the fields hold then, unless the annotator has left the
 * instance); the draft kept in the browser is dropped only once the server has
 * the answer. A second tab's save in the meantime comes back as a conflict to
 * resolve: keep mine (save over that revision) or use the saved answer.
 */
export function useSave({ projectId, language, instance, draft, fields, flagNoteRef, activeMs, onSaved, onResponse, suggestions }: SaveOptions) {
  const { draftRef, baseRef, setBase, replaceDraft, setRestored, forget } = draft;
  const [status, setStatus] = useState<Status>(null);
  const [conflict, setConflict] = useState<{ mine: Draft; saved: OwnResponse } | null>(null);
  const [saving, setSaving] = useState(false);
  const savingRef = useRef(false);
  const conflictRef = useRef<HTMLHeadingElement>(null);
  /** Aborted when the pane goes (another instance): a save waiting to go again is not sent, its draft kept. */
  const unmounted = useRef(new AbortController());
  useEffect(() => {
    const c = new AbortController();
    unmounted.current = c;
    return () => c.abort();
  }, []);

  // On arrival: the status carried from the previous instance.
  useEffect(() => {
    if (carriedStatus) {
      setStatus({ tone: "ok", text: carriedStatus });
      carriedStatus = null;
    }
  }, [instance.ref]);

  useEffect(() => {
    if (conflict) conflictRef.current?.focus();
  }, [conflict]);

  /** Show refused fields beside the fields, and focus the first. */
  function showErrors(errs: Record<string, string>, message?: string) {
    fields.setErrors(errs);
    const onFields = Object.keys(errs).filter((k) => k !== "form").length;
    const text = onFields > 1 ? "Not saved: see the marked fields." : onFields === 1 ? "Not saved: see the marked field." : errs.form ? "Not saved." : (message ?? "Not saved.");
    setStatus({ tone: "error", text });
    fields.focusError(errs);
  }

  async function save(expectedRevision = baseRef.current) {
    if (savingRef.current) return;
    const first = draftRef.current;
    // The save rules, checked here first: nothing is sent (or stored) when a field breaks one.
    const target = { lemma: instance.lemma, head: instance.head, language };
    const refused = draftErrors(first, target);
    if (refused) {
      showErrors(refused);
      return;
    }
    savingRef.current = true;
    setSaving(true);
    setStatus({ tone: "info", text: "Saving…" });
    // The draft last sent: a save the server asks to wait for goes again with what the fields hold then.
    let d = first;
    const signal = unmounted.current.signal;
    try {
      const res = await postSave(
        projectId,
        instance.ref,
        () => {
          const now = draftRef.current;
          if (!draftErrors(now, target)) d = now;
          return {
            response: {
              kind: d.kind,
              substitutes: d.kind === "substitutes" ? [...d.subs] : [],
              multiword: d.multiword,
              phrase: d.phrase,
              flag: flagNoteRef.current.flag,
              note: flagNoteRef.current.note,
              ...(suggestions ? { suggestions: { shown: suggestions.current.shown, accepted: [...suggestions.current.accepted] } } : {}),
            },
            expectedRevision,
            activeMs: activeMs(),
          };
        },
        {
          signal,
          // 429: the server asked this browser to slow down. The draft stays here until the save is acknowledged.
          onWait: (seconds) =>
            setStatus({ tone: "info", text: `The server is busy: your answer is kept here and goes again in ${seconds} s.` }),
        },
      );
      if (res.ok) {
        if (sameDraft(draftRef.current, d)) forget();
        fields.setErrors({});
        setConflict(null);
        setRestored(false);
        setBase(res.revision);
        carriedStatus = `Saved ${instance.instanceId}.`;
        setStatus({ tone: "ok", text: `Saved ${instance.instanceId}.` });
        onSaved(instance.ref, res);
      } else if (res.conflict) {
        setConflict({ mine: d, saved: res.conflict });
        setStatus({ tone: "error", text: "Not saved: choose which answer to keep." });
      } else {
        showErrors(res.errors ?? {}, res.message);
      }
    } catch {
      // Gone from this instance while waiting: the draft stays in the browser, restored on return.
      if (signal.aborted) return;
      setStatus({ tone: "error", text: "Could not reach the server. Your answer is kept here as a draft; try again." });
    } finally {
      savingRef.current = false;
      if (!signal.aborted) setSaving(false);
    }
  }

  /** The conflict resolved the other way: the answer saved elsewhere stays, this draft goes. */
  function keepSaved(saved: OwnResponse) {
    replaceDraft(fromResponse(saved));
    setBase(saved.revision);
    forget();
    setConflict(null);
    setRestored(false);
    fields.setErrors({});
    setStatus({ tone: "ok", text: "Kept the saved answer." });
    onResponse(instance.ref, saved);
    fields.focusSave();
  }

  return { status, saving, conflict, conflictRef, save, keepSaved };
}
