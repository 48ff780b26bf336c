"use server";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { toActionError } from "@/lib/server/errors";
import {
  type LexeltProgress,
  type OwnResponse,
  type ResponseInput,
  type SaveResult,
  type WorkspaceView,
  saveResponse,
  workspace,
  workspaceTargets,
} from "@/lib/server/responses";

export type SaveResponseResult =
  | ({ ok: true } & SaveResult)
  | { ok: false; message: string; errors?: Record<string, string>; conflict?: OwnResponse };

/**
 * Save the signed-in user's response to one instance. Everything the browser
 * sends is untrusted: lib/server checks the session user, the project, the
 * assignment and the input, and refuses a stale revision with the stored answer.
 *
 * No page is revalidated: the answer carries everything the workspace needs to
 * move on (the next instances, the counts), and the workspace keeps the answers
 * it saved for back and forward (see workspace.tsx), so a save costs one
 * transaction and a few indexed reads, never a render of the page.
 */
export async function saveResponseAction(
  projectId: number,
  instanceRef: number,
  input: ResponseInput,
  options: { expectedRevision: number; activeMs?: number | null },
): Promise<SaveResponseResult> {
  try {
    const r = saveResponse(getDb(), await getActor(), Number(projectId), Number(instanceRef), input, options);
    return { ok: true, ...r };
  } catch (e) {
    const err = toActionError(e);
    return { ...err, conflict: err.conflict as OwnResponse | undefined };
  }
}

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
