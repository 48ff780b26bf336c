/**
 * A study participant in the workspace (issue #32): what may they still do, their time on
 * task, the end of their batch (completion) or of their study (screened out by the training),
 * and what the end screens show. Their queue is their batch (batch-queue.ts); everything else
 * of the workspace — the answer rules, the save's transaction — is an annotator's.
 *
 * Costs on the save path: a participant's save adds one statement in its transaction (their
 * row, the study's state and the item's batch row: three primary-key lookups) and one UPDATE of
 * their own row; the save that adds a new answer also counts their batch's unanswered items
 * (a few dozen rows on the batch key). An ordinary annotator's save adds nothing (no batch in
 * the scope).
 */
import "server-only";
import type { Db } from "../../../db/client";
import { batchItems, participants, responses, studies } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { type Actor, type UserActor, requireSignedIn } from "../kernel/actor";
import { AuthError, NotFoundError } from "../kernel/errors";
import { get, run } from "../kernel/statements";
import type { Batch, ParticipantState, StudyState } from "./batch-queue";

const [B, R, PA, ST] = [named(batchItems, "b"), named(responses, "r"), named(participants, "pa"), named(studies, "st")];
const P = named(participants);

/** A gap between a participant's requests counts at most this much towards their time on task (a break is not work). */
export const ACTIVE_GAP_CAP_MS = 5 * 60 * 1000;

export const TIMED_OUT = "Your time for this batch ran out: its places went to other participants. The answers you saved are kept.";
export const SCREENED_OUT = "This study has ended for you: the training was not passed. Thank you for your time.";
export const STUDY_CLOSED = "This study is closed: it takes no more answers. The answers you saved are kept.";
export const PLACE_RELEASED = "Not saved: this item's place went to someone else when your time for the batch ran out. The answers you saved are kept.";
const NOT_IN_PROJECT = "No such instance in this project.";

/** Why a participant may not work (open or save) now, or null. A finished participant may still change their answers while the study is open. */
function refusal(state: ParticipantState, studyState: StudyState): string | null {
  if (state === "screened-out") return SCREENED_OUT;
  if (state === "timed-out") return TIMED_OUT;
  if (studyState === "closed") return STUDY_CLOSED;
  return null;
}

/** Why an instance outside the batch is not shown: the same 404 as an instance of another project, or a released place. */
export function notInBatchMessage(b: Batch, ref: number): string {
  return b.released.has(ref) ? PLACE_RELEASED.replace("Not saved: t", "T") : NOT_IN_PROJECT;
}

// Time on task: the capped gap since the last request that did work, on the participant's own row.
const TOUCH = `update ${P.$} set ${P.activeMs} = ${P.activeMs} + coalesce(max(0, min(? - ${P.lastSeenAt}, ${ACTIVE_GAP_CAP_MS})), 0), ${P.lastSeenAt} = ? where ${P.id} = ?`;
// The same, and the batch finished when `finish` (1) and they were working on it.
const TOUCH_SAVE = `update ${P.$} set ${P.activeMs} = ${P.activeMs} + coalesce(max(0, min(? - ${P.lastSeenAt}, ${ACTIVE_GAP_CAP_MS})), 0), ${P.lastSeenAt} = ?,
  ${P.state} = case when ? = 1 and ${P.state} = 'active' then 'finished' else ${P.state} end,
  ${P.finishedAt} = case when ? = 1 and ${P.state} = 'active' then ? else ${P.finishedAt} end
  where ${P.id} = ?`;

/** The workspace: refused once the participant may no longer work. */
export function requireBatchOpen(b: Batch): void {
  const why = refusal(b.state, b.studyState);
  if (why) throw new AuthError(why);
}

/** An instance of the batch opened: their time on task goes on. */
export function batchOpened(db: Db, b: Batch, now = Date.now()): void {
  if (b.participantId) run(db, TOUCH, now, now, b.participantId);
}

/** In the save's read transaction, from the batch as read: refuse early (nothing validated or written). */
export function requireBatchItem(b: Batch, ref: number): void {
  requireBatchOpen(b);
  if (b.released.has(ref)) throw new AuthError(PLACE_RELEASED);
  if (!b.index.has(ref)) throw new NotFoundError(NOT_IN_PROJECT);
}

const WRITE_CHECK = `select ${PA.state} as state, ${ST.state} as studyState, ${B.instanceRef} as ref, ${B.releasedAt} as releasedAt
  from ${PA.$} join ${ST.$} on ${ST.id} = ${PA.studyId} left join ${B.$} on ${B.participantId} = ${PA.id} and ${B.instanceRef} = ?
  where ${PA.id} = ?`;

/**
 * In the save's write transaction, before anything is written: the same checks on the rows as they
 * are now (a release or the study's closing may have come in between), in one statement.
 */
export function requireBatchWritable(db: Db, b: Batch, ref: number): void {
  const r = get<{ state: ParticipantState; studyState: StudyState; ref: number | null; releasedAt: number | null }>(db, WRITE_CHECK, ref, b.participantId);
  if (!r) throw new NotFoundError(NOT_IN_PROJECT);
  const why = refusal(r.state, r.studyState);
  if (why) throw new AuthError(why);
  if (r.ref === null) throw new NotFoundError(NOT_IN_PROJECT);
  if (r.releasedAt !== null) throw new AuthError(PLACE_RELEASED);
  b.state = r.state;
}

const UNANSWERED = `select count(*) as n from ${B.$} where ${B.participantId} = ? and ${B.releasedAt} is null
  and not exists (select 1 from ${R.$} where ${R.instanceRef} = ${B.instanceRef} and ${R.userId} = ?)`;

/**
 * In the save's write transaction, after the answer is written: time on task, and when the save
 * added the batch's last missing answer, the participant is finished (their completion code).
 */
export function batchSaved(db: Db, b: Batch, userId: number, ref: number, added: boolean, now: number): void {
  const finish = added && b.state === "active" && get<{ n: number }>(db, UNANSWERED, b.participantId, userId)!.n === 0;
  run(db, TOUCH_SAVE, now, now, finish ? 1 : 0, finish ? 1 : 0, now, b.participantId);
  const i = b.index.get(ref);
  if (i !== undefined) b.items[i].answered = true;
  if (finish) {
    b.state = "finished";
    b.finishedNow = true;
  }
}

/** In the training's transaction: a participant whose attempt did not pass is screened out (one attempt, lib/server/quality/training.ts). */
export function screenOutOnFail(db: Pick<Db, "$client">, a: UserActor, projectId: number, passed: boolean): void {
  if (a.role !== "participant" || passed) return;
  run(db, `update ${P.$} set ${P.state} = 'screened-out', ${P.finishedAt} = ? where ${P.userId} = ? and ${P.projectId} = ? and ${P.state} = 'active'`, Date.now(), a.userId, projectId);
}

// ---------------------------------------------------------------------------
// The end screens

/** Mechanical Turk's hosts for the externalSubmit form (production and the sandbox); another turkSubmitTo is not posted to. */
const MTURK_HOSTS = new Set(["https://www.mturk.com", "https://workersandbox.mturk.com"]);

export interface ParticipantView {
  projectId: number;
  state: ParticipantState;
  studyState: StudyState;
  platform: "prolific" | "mturk" | "link";
  /** The code for this end: the completion code when finished, the screen-out code when screened out, else "". */
  code: string;
  /** Prolific's return address with the code (Prolific only, with a code). */
  returnUrl: string | null;
  /** Mechanical Turk's externalSubmit form (with the assignment id and a known host). */
  mturk: { action: string; assignmentId: string } | null;
  done: number;
  total: number;
}

const VIEW = `select ${PA.projectId} as projectId, ${PA.state} as state, ${ST.state} as studyState, ${ST.platform} as platform, ${ST.completionCode} as completionCode,
  ${ST.screenOutCode} as screenOutCode, ${PA.platformSessionId} as assignmentId, ${PA.submitTo} as submitTo,
  (select count(*) from ${B.$} where ${B.participantId} = ${PA.id} and ${B.releasedAt} is null) as total,
  (select count(*) from ${B.$} where ${B.participantId} = ${PA.id} and ${B.releasedAt} is null
     and exists (select 1 from ${R.$} where ${R.instanceRef} = ${B.instanceRef} and ${R.userId} = ${PA.userId})) as done
  from ${PA.$} join ${ST.$} on ${ST.id} = ${PA.studyId} where ${PA.userId} = ?`;

function submitAction(submitTo: string | null): string | null {
  if (!submitTo) return null;
  try {
    const u = new URL(submitTo);
    return MTURK_HOSTS.has(u.origin) ? `${u.origin}/mturk/externalSubmit` : null;
  } catch {
    return null;
  }
}

/**
 * The signed-in participant's study, for the workspace's pages: null for anyone else (no query:
 * the role tells). Their own row only.
 */
export function participantView(db: Db, actor: Actor): ParticipantView | null {
  const a = requireSignedIn(actor);
  if (a.kind !== "user" || a.role !== "participant") return null;
  const r = get<{
    projectId: number;
    state: ParticipantState;
    studyState: StudyState;
    platform: ParticipantView["platform"];
    completionCode: string;
    screenOutCode: string;
    assignmentId: string | null;
    submitTo: string | null;
    total: number;
    done: number;
  }>(db, VIEW, a.userId);
  if (!r) throw new NotFoundError("You are not in a study.");
  const code = r.state === "finished" ? r.completionCode : r.state === "screened-out" ? r.screenOutCode : "";
  const returnUrl = r.platform === "prolific" && code ? `https://app.prolific.com/submissions/complete?cc=${encodeURIComponent(code)}` : null;
  const action = r.platform === "mturk" && r.assignmentId && r.assignmentId !== "ASSIGNMENT_ID_NOT_AVAILABLE" ? submitAction(r.submitTo) : null;
  return {
    projectId: r.projectId,
    state: r.state,
    studyState: r.studyState,
    platform: r.platform,
    code,
    returnUrl,
    mturk: action && r.assignmentId ? { action, assignmentId: r.assignmentId } : null,
    done: r.done,
    total: r.total,
  };
}
