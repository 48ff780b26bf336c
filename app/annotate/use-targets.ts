"use client";
/** The workspace's list of lexelts to move to: asked of the server once (at once when short, else when opened), asked again after a failure. */
import { useCallback, useEffect, useRef, useState } from "react";
import type { LexeltProgress } from "@/lib/server/annotate";
import { workspaceTargetsAction } from "./actions";

export function useTargets(projectId: number, fewTargets: boolean) {
  const [targets, setTargets] = useState<LexeltProgress[] | null>(null);
  const targetsAsked = useRef(false);

  const loadTargets = useCallback(() => {
    if (targetsAsked.current) return;
    targetsAsked.current = true;
    workspaceTargetsAction(projectId).then(
      (r) => {
        if (r.ok) setTargets(r.targets);
        else targetsAsked.current = false;
      },
      () => {
        targetsAsked.current = false;
      },
    );
  }, [projectId]);

  // A short list is shown at once; a long one when opened.
  useEffect(() => {
    if (fewTargets) loadTargets();
  }, [loadTargets, fewTargets]);

  return { targets, loadTargets };
}
