"use server";
import { getDb } from "@/lib/db";
import { messageOnly, withActor } from "@/app/_ui/action";
import { type LexeltProgress, type WorkspaceView, workspace, workspaceTargets } from "@/lib/server/annotate";

// The save itself is a route handler (app/api/projects/[projectId]/responses/[instanceRef]):
// a fetch of JSON costs far less than a server action's pass through the page runtime.

export type WorkspaceStepResult = { ok: true; view: WorkspaceView } | { ok: false; message: string };

/** One instance of the caller's queue (with the few after it), for a move the workspace has no data for yet. */
export async function workspaceStepAction(projectId: number, instanceRef: number): Promise<WorkspaceStepResult> {
  return withActor((actor) => ({ ok: true as const, view: workspace(getDb(), actor, Number(projectId), Number(instanceRef)) }), messageOnly);
}

export type TargetsResult = { ok: true; targets: LexeltProgress[] } | { ok: false; message: string };

/** The caller's targets (lexelts) with their done / total, for the workspace's list. */
export async function workspaceTargetsAction(projectId: number): Promise<TargetsResult> {
  return withActor((actor) => ({ ok: true as const, targets: workspaceTargets(getDb(), actor, Number(projectId)) }), messageOnly);
}
