"use client";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import type { FlagNote } from "@/lib/server/annotate";
import type { InstanceStep, InstanceView, LexeltProgress, OwnResponse, Progress, WorkspaceView } from "@/lib/server/annotate";
import { workspaceStepAction } from "./actions";
import { markAnswersChanged } from "./refresh-if-changed";
import type { Saved } from "./use-save";
import { useTargets } from "./use-targets";

interface CachedStep extends InstanceStep {
  /** The store's generation (number of saves) when the server sent it: older ones may point Skip at an answered instance. */
  gen: number;
}

/**
 * What this tab knows of one annotator's queue in one project, kept across the
 * workspace's mounts (Next's router may bring back a page rendered before
 * later saves: what is here is newer, and wins). Steps hold the instance, its
 * neighbours and the caller's own response; counts only ever grow with saves.
 */
interface QueueStore {
  steps: Map<number, CachedStep>;
  lexelts: Map<number, LexeltProgress>;
  progress: Progress;
  gen: number;
  /** Instances returned to the annotator and still open (from the page, then from each save). */
  returned: { count: number; firstRef: number | null };
}

const stores = new Map<string, QueueStore>();

function storeFor(userId: number, projectId: number, progress: Progress, returned: QueueStore["returned"]): QueueStore {
  const k = `${userId}:${projectId}`;
  let st = stores.get(k);
  if (!st) stores.set(k, (st = { steps: new Map(), lexelts: new Map(), progress, gen: 0, returned }));
  return st;
}

const revisionOf = (r: OwnResponse | null) => r?.revision ?? 0;

/** Keep a step the server sent; a response this tab knows to be newer (a later revision) stays. */
function keepStep(st: QueueStore, step: InstanceStep, fresh: boolean) {
  const had = st.steps.get(step.instance.ref);
  const response = had && revisionOf(had.response) > revisionOf(step.response) ? had.response : step.response;
  st.steps.set(step.instance.ref, { ...step, response, gen: fresh || !had ? st.gen : had.gen });
  const l = st.lexelts.get(step.lexelt.lexeltId);
  if (fresh || !l || l.done <= step.lexelt.done) st.lexelts.set(step.lexelt.lexeltId, step.lexelt);
}

function stepsOf(view: WorkspaceView): InstanceStep[] {
  if (!view.instance || !view.lexelt) return view.upcoming;
  const { instance, position, response, prevRef, nextRef, nextUnansweredRef, lexelt, flag, returnComment } = view;
  return [{ instance, position, response, prevRef, nextRef, nextUnansweredRef, lexelt, flag, returnComment }, ...view.upcoming];
}

/** The instance ref in a workspace URL (/annotate/P/I), or null. */
function refInPath(projectId: number, path: string): number | null {
  const m = new RegExp(`^/annotate/${projectId}/(\\d+)$`).exec(path);
  return m ? Number(m[1]) : null;
}

/** This tab's store of the queue, brought up to date with the page the server rendered on the first render of a mount. */
function useQueueStore(view: WorkspaceView, userId: number): QueueStore {
  const storeRef = useRef<QueueStore | null>(null);
  if (storeRef.current === null) {
    const st = storeFor(userId, view.project.id, view.progress, view.returned);
    // The page is fresh from the server: its count of returned instances (and its comments) win.
    st.returned = view.returned;
    for (const step of stepsOf(view)) keepStep(st, step, false);
    if (view.progress.done >= st.progress.done) st.progress = view.progress;
    storeRef.current = st;
  }
  return storeRef.current;
}

/**
 * The workspace's queue and navigation: the page renders the first instance and
 * the few after it; from then on the workspace moves from data it holds: a save
 * answers with the next instances and the counts, Previous / Next / Skip and the
 * browser's back and forward show what is held (asking the server only for an
 * instance it has not seen), and the address follows with history.pushState, so
 * a reload or a shared link opens the same instance.
 */
export function useQueue(view: WorkspaceView & { instance: InstanceView }, userId: number) {
  const { project } = view;
  const router = useRouter();
  const base = `/annotate/${project.id}`;
  const [, rerender] = useReducer((x: number) => x + 1, 0);
  const store = useQueueStore(view, userId);
  const [currentRef, setCurrentRef] = useState(view.instance.ref);
  const [navigating, setNavigating] = useState(false);
  const { targets, loadTargets } = useTargets(project.id, view.fewTargets);
  const wanted = useRef(0);

  /** Ask the server for an instance (and the few after it); false when it refuses. */
  const fetchStep = useCallback(
    async (ref: number): Promise<boolean> => {
      const r = await workspaceStepAction(project.id, ref);
      if (!r.ok) return false;
      for (const step of stepsOf(r.view)) keepStep(store, step, true);
      store.progress = r.view.progress;
      return store.steps.has(ref);
    },
    [project.id, store],
  );

  /** Show an instance: at once when held, else after asking the server; push its address unless the browser moved there itself. */
  const show = useCallback(
    async (ref: number, push: boolean) => {
      const ticket = ++wanted.current;
      if (!store.steps.has(ref)) {
        setNavigating(true);
        let ok = false;
        try {
          ok = await fetchStep(ref);
        } catch {
          ok = false;
        }
        if (ticket !== wanted.current) return;
        setNavigating(false);
        // Not in the queue (any more) or unreachable: let the page say why.
        if (!ok) return router.push(`${base}/${ref}`);
      }
      if (ticket !== wanted.current) return;
      if (push && refInPath(project.id, window.location.pathname) !== ref) window.history.pushState(null, "", `${base}/${ref}`);
      setCurrentRef(ref);
      rerender();
      // Have the next one ready too.
      const next = store.steps.get(ref)?.nextRef;
      if (next != null && !store.steps.has(next)) {
        fetchStep(next).then(rerender, () => {});
      }
    },
    [base, fetchStep, project.id, router, store],
  );

  const go = useCallback(
    (ref: number | null) => {
      if (ref === null) router.push(base);
      else void show(ref, true);
    },
    [base, router, show],
  );

  const skip = useCallback(async () => {
    let here = store.steps.get(currentRef);
    // After saves, where the next unanswered instance is may have moved on: ask afresh.
    if (here && here.gen !== store.gen) {
      setNavigating(true);
      try {
        await fetchStep(currentRef);
      } catch {
        /* go with what is held */
      }
      setNavigating(false);
      here = store.steps.get(currentRef);
    }
    const to = here ? (here.nextUnansweredRef ?? here.nextRef) : null;
    if (to !== null) go(to);
  }, [currentRef, fetchStep, go, store]);

  const onSaved = useCallback(
    (ref: number, res: Saved) => {
      store.gen++;
      const had = store.steps.get(ref);
      if (had) store.steps.set(ref, { ...had, response: res.response, lexelt: res.lexelt, flag: res.flag, returnComment: null });
      store.returned = res.returned;
      store.lexelts.set(res.lexelt.lexeltId, res.lexelt);
      store.progress = res.progress;
      for (const step of res.upcoming) keepStep(store, step, true);
      markAnswersChanged();
      go(res.next);
    },
    [go, store],
  );

  const onResponse = useCallback(
    (ref: number, response: OwnResponse) => {
      const had = store.steps.get(ref);
      if (had) store.steps.set(ref, { ...had, response });
      rerender();
    },
    [store],
  );

  const onFlag = useCallback(
    (ref: number, flag: FlagNote) => {
      const had = store.steps.get(ref);
      if (had) store.steps.set(ref, { ...had, flag });
      rerender();
    },
    [store],
  );


  // The browser's back and forward between instances of this page; and a page
  // Next brought back from its cache for another address.
  useEffect(() => {
    const follow = () => {
      const ref = refInPath(project.id, window.location.pathname);
      if (ref !== null) void show(ref, false);
    };
    window.addEventListener("popstate", follow);
    const ref = refInPath(project.id, window.location.pathname);
    if (ref !== null && ref !== view.instance.ref) follow();
    return () => window.removeEventListener("popstate", follow);
  }, [project.id, show, view.instance.ref]);

  const step = store.steps.get(currentRef)!;
  const current = store.lexelts.get(step.lexelt.lexeltId) ?? step.lexelt;
  const shownTargets = targets && targets.map((t) => store.lexelts.get(t.lexeltId) ?? t);

  return {
    step,
    current,
    progress: store.progress,
    returned: store.returned,
    targets: shownTargets,
    loadTargets,
    navigating,
    go,
    skip: () => void skip(),
    onSaved,
    onResponse,
    onFlag,
  };
}