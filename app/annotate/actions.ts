"use server";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { toActionError } from "@/lib/server/kernel";
import { type LexeltProgress, type WorkspaceView, workspace, workspaceTargets } from "@/lib/server/annotate";

// The save itself is a route handler (app/api/projects/[projectId]/responses/[instanceRef]):
// a fetch of JSON costs far less than a server action's pass through the page runtime.

export type WorkspaceStepResult = { ok: true; view: WorkspaceView } | { ok: false; message: string };

/** One instance of the caller's queue (with the few after it), for a move the workspace has no data for yet. */
export async function workspaceStepAction(projectId: number, instanceRef: number): Promise<WorkspaceStepResult> {
  try {
    return { ok: true, view: workspace(getDb(), await getActor(), Number(projectId), Number(instanceRef)) };
  } catch (e) {
    return { ok: false, message: toActionError(e).message };
  }
}

export type TargetsResult = { ok: true; targets: LexeltProgress[] } | { ok: false; message: string };

/** The caller's targets (lexelts) with their done / total, for the workspace's list. */
export async function workspaceTargetsAction(projectId: number): Promise<TargetsResult> {
  try {
    return { ok: true, targets: workspaceTargets(getDb(), await getActor(), Number(projectId)) };
  } catch (e) {
    return { ok: false, message: toActionError(e).message };
  }
}
