"use client";
import type { InstanceView, WorkspaceView } from "@/lib/server/annotate";
import { InstancePane } from "./instance-pane";
import { useQueue } from "./use-queue";
import type { Suggest } from "./use-suggestions";

/**
 * The annotation workspace: the queue and navigation (use-queue.ts) around one
 * instance at a time (instance-pane.tsx), remounted on every move.
 */
export function Workspace({ view, userId, suggest = null }: { view: WorkspaceView & { instance: InstanceView }; userId: number; suggest?: Suggest | null }) {
  const q = useQueue(view, userId);
  return (
    <InstancePane
      key={q.step.instance.ref}
      step={q.step}
      project={view.project}
      progress={q.progress}
      current={q.current}
      userId={userId}
      targets={q.targets}
      targetCount={view.targetCount}
      fewTargets={view.fewTargets}
      onOpenTargets={q.loadTargets}
      navigating={q.navigating}
      go={q.go}
      skip={q.skip}
      onSaved={q.onSaved}
      onResponse={q.onResponse}
      returned={q.returned}
      onFlag={q.onFlag}
      suggest={suggest}
    />
  );
}
