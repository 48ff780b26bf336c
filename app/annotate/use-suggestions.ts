"use client";
/**
 * A model's suggestions in the workspace (issue #41), fetched beside the work and never in its way: the
 * instance on screen and the next ones are asked for in one small request when the instance opens
 * (prefetched: the next instance's are usually here before it is), kept for the tab, and asked again
 * every second and a half while the model is still answering. Typing, saving and moving never wait for
 * it; a model that fails says so quietly.
 *
 * What the save records (suggestions-record.ts on the server): whether they were on screen before this
 * save, and which the annotator accepted with a key or a click.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { SuggestionItem } from "@/lib/server/models";

export interface Suggest {
  mode: "after" | "assist";
  model: string;
}

/** The tab's suggestions, by project and instance ref (ready and unavailable ones are final). */
const known = new Map<string, SuggestionItem>();
const keyOf = (projectId: number, ref: number) => `${projectId}:${ref}`;
/** The instance saved last in "after" mode, to show its suggestions on the next one with a way back. */
let lastSaved: { projectId: number; ref: number; instanceId: string } | null = null;

const POLL_MS = 1500;
const MAX_POLLS = 40;

async function ask(projectId: number, refs: number[]): Promise<Record<number, SuggestionItem> | null> {
  if (refs.length === 0) return {};
  const res = await fetch(`/api/projects/${projectId}/suggestions?refs=${refs.join(",")}`, { cache: "no-store", credentials: "same-origin" });
  if (!res.ok) return null;
  const body = (await res.json()) as { ok: boolean; items?: Record<number, SuggestionItem> };
  return body.ok ? (body.items ?? {}) : null;
}

const final = (i: SuggestionItem | undefined) => i?.state === "ready" || i?.state === "unavailable";

/**
 * The suggestions for `ref` (and, in after mode, for the instance saved just before), prefetching `ahead`.
 * `answered`: the annotator has saved this instance before (after mode shows them only then).
 */
export function useSuggestions(projectId: number, suggest: Suggest | null, ref: number, ahead: (number | null)[], answered: boolean) {
  const [, setTick] = useState(0);
  const previous = useRef(suggest?.mode === "after" && lastSaved?.projectId === projectId && lastSaved.ref !== ref ? lastSaved : null);
  /** What this save will say: on screen before it, and accepted. */
  const claim = useRef<{ shown: boolean; accepted: string[] }>({ shown: false, accepted: [] });
  const aheadKey = ahead.filter((r): r is number => r !== null && r !== ref).join(",");

  useEffect(() => {
    if (!suggest) return;
    let stop = false;
    let polls = 0;
    const wanted = () => {
      const refs = [ref, ...(previous.current ? [previous.current.ref] : []), ...aheadKey.split(",").filter(Boolean).map(Number)];
      // Hidden ones (after mode, not yet saved) are asked again once saved; the others until final.
      return [...new Set(refs)].filter((r) => !final(known.get(keyOf(projectId, r))) && !(r !== ref && known.get(keyOf(projectId, r))?.state === "hidden"));
    };
    const run = async () => {
      while (!stop && polls++ < MAX_POLLS) {
        const refs = wanted();
        if (refs.length === 0) return;
        const got = await ask(projectId, refs).catch(() => null);
        if (stop) return;
        if (got) for (const [r, item] of Object.entries(got)) known.set(keyOf(projectId, Number(r)), item);
        setTick((t) => t + 1);
        const still = [ref, previous.current?.ref].some((r) => r !== undefined && known.get(keyOf(projectId, r))?.state === "pending");
        if (!still) return;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    };
    void run();
    return () => {
      stop = true;
    };
  }, [projectId, suggest, ref, aheadKey]);

  const item = suggest ? (known.get(keyOf(projectId, ref)) ?? null) : null;
  // In after mode, suggestions are on screen only for an instance saved before.
  const visible = item?.state === "ready" && (suggest?.mode === "assist" || answered) ? item : null;
  claim.current.shown = visible !== null;

  const accept = useCallback((word: string) => {
    if (!claim.current.accepted.includes(word)) claim.current.accepted.push(word);
  }, []);

  const prev = previous.current;
  const prevItem = prev ? (known.get(keyOf(projectId, prev.ref)) ?? null) : null;

  /** After a save: remembered for the next instance's note (after mode). */
  const saved = useCallback(
    (instanceId: string) => {
      if (suggest?.mode === "after") {
        lastSaved = { projectId, ref, instanceId };
        // Its suggestions are shown once saved: asked again.
        if (known.get(keyOf(projectId, ref))?.state === "hidden") known.delete(keyOf(projectId, ref));
      }
    },
    [projectId, ref, suggest?.mode],
  );

  return { item, visible, claim, accept, saved, previous: prev ? { ...prev, item: prevItem } : null };
}
