/**
 * A participant's batch giving its places back (issue #32): their unanswered items are released
 * (batch_items.released_at) and each place returns to the study (study_slots.taken − 1); answered
 * items keep theirs. Used by the allocation when a batch's time ran out (lib/server/crowd/allocation.ts)
 * and by the training when a participant is screened out (participant.ts).
 *
 * No actor here: its callers have identified the participant and run it in their transaction.
 */
import "server-only";
import type { Db } from "../../../db/client";
import { batchItems, participants, responses, studySlots } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { all, get, run } from "../kernel/statements";

const [B, P, R] = [named(batchItems, "b"), named(participants, "p"), named(responses, "r")];
const [BATCH, PARTS, SLOTS] = [named(batchItems), named(participants), named(studySlots)];

/** A participant's items still held and not answered. */
const UNANSWERED_SQL = `select ${B.instanceRef} as ref from ${B.$} join ${P.$} on ${P.id} = ${B.participantId}
  where ${B.participantId} = ? and ${B.releasedAt} is null
    and not exists (select 1 from ${R.$} where ${R.instanceRef} = ${B.instanceRef} and ${R.userId} = ${P.userId})`;

/**
 * Give a participant's unanswered items back (their places go to others) and set their state:
 * `timed-out` when the batch expired (only if something was released: a participant who answered
 * every item is left as they are), `screened-out` when they failed the training. Call it inside
 * a transaction. Returns how many places were released.
 */
export function releaseBatch(db: Db, participantId: number, now: number, state: "timed-out" | "screened-out"): number {
  const p = get<{ studyId: number }>(db, `select ${PARTS.studyId} as studyId from ${PARTS.$} where ${PARTS.id} = ?`, participantId);
  if (!p) return 0;
  const refs = all<{ ref: number }>(db, UNANSWERED_SQL, participantId);
  for (const { ref } of refs) {
    run(db, `update ${BATCH.$} set ${BATCH.releasedAt} = ? where ${BATCH.participantId} = ? and ${BATCH.instanceRef} = ?`, now, participantId, ref);
    run(db, `update ${SLOTS.$} set ${SLOTS.taken} = max(${SLOTS.taken} - 1, 0) where ${SLOTS.studyId} = ? and ${SLOTS.instanceRef} = ?`, p.studyId, ref);
  }
  if (refs.length > 0 || state === "screened-out") run(db, `update ${PARTS.$} set ${PARTS.state} = ? where ${PARTS.id} = ?`, state, participantId);
  return refs.length;
}
