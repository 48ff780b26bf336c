"use client";
/**
 * The review controls of one participant (approve, reject with a reason, a bonus) — only those
 * that apply: a participant screened out by the training has no bonus, and no approve or reject
 * but on Mechanical Turk (#38) — and the study's "leave rejected participants out of the gold"
 * decision with its undo. The server re-checks everything (lib/server/crowd/participants.ts).
 */
import { useActionState, useState } from "react";
import { useScripted } from "@/app/_ui/scripted";
import type { ReviewFormState } from "./actions";

/* The actions come bound from the page (a server component): a server action bound in the browser's
 * code would make the server render that answers a form posted without JavaScript suspend for ever
 * (#38, test/bounds/client-binds.test.ts). */
type ReviewAction = (prev: ReviewFormState, form: FormData) => Promise<ReviewFormState>;
import styles from "./crowd.module.css";

function Outcome({ state }: { state: ReviewFormState }) {
  if (!state) return null;
  return (
    <p role={state.ok ? "status" : "alert"} className={`small ${state.ok ? styles.saved : "field-error"}`}>
      {state.message}
    </p>
  );
}

export function ReviewControls({
  actions,
  participantId,
  platformId,
  review,
  bonus,
  maxReason,
  canReview,
  canBonus,
}: {
  actions: { review: ReviewAction; bonus: ReviewAction };
  participantId: number;
  platformId: string;
  review: "pending" | "approved" | "rejected";
  /** The bonus as an amount ("1.50"), "" for none. */
  bonus: string;
  maxReason: number;
  /** Approve and reject apply (ParticipantRow.canReview); without, only an older review's undo is offered. */
  canReview: boolean;
  /** A bonus applies (ParticipantRow.canBonus); without, only an older bonus can be cleared. */
  canBonus: boolean;
}) {
  const [reviewState, reviewAction, reviewPending] = useActionState<ReviewFormState, FormData>(actions.review, null);
  const [bonusState, bonusAction, bonusPending] = useActionState<ReviewFormState, FormData>(actions.bonus, null);
  // Without JavaScript the "Reject…" button cannot open the reason's form: then it is open.
  const [opened, setRejecting] = useState(false);
  const scripted = useScripted();
  const rejecting = opened || !scripted;
  return (
    <div className={styles.controls}>
      {(canReview || review !== "pending") && (
        <form action={reviewAction} className={styles.inline} aria-label={`Review ${platformId}`}>
          <input type="hidden" name="participantId" value={participantId} />
          {canReview && review !== "approved" && (
            <button type="submit" name="review" value="approved" className="small" disabled={reviewPending}>
              Approve
            </button>
          )}
          {canReview && review !== "rejected" && !rejecting && (
            <button type="button" className="secondary small" onClick={() => setRejecting(true)} disabled={reviewPending}>
              Reject…
            </button>
          )}
          {review !== "pending" && (
            <button type="submit" name="review" value="pending" className="secondary small" disabled={reviewPending}>
              Undo
            </button>
          )}
        </form>
      )}
      {canReview && rejecting && review !== "rejected" && (
        <form action={reviewAction} className={styles.reject} aria-label={`Reject ${platformId}`}>
          <input type="hidden" name="participantId" value={participantId} />
          <input type="hidden" name="review" value="rejected" />
          <label className="small">
            Reason (shown to the participant)
            <textarea name="reason" required maxLength={maxReason} rows={2} autoFocus />
          </label>
          <div className={styles.inline}>
            <button type="submit" className="small" disabled={reviewPending}>
              Reject
            </button>
            <button type="button" className="secondary small" onClick={() => setRejecting(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {(canBonus || bonus !== "") && (
        <form action={bonusAction} className={styles.inline} aria-label={`Bonus for ${platformId}`}>
          <input type="hidden" name="participantId" value={participantId} />
          <label className="small">
            Bonus <input name="bonus" defaultValue={bonus} inputMode="decimal" placeholder="0.00" className={styles.bonus} />
          </label>
          <button type="submit" className="secondary small" disabled={bonusPending}>
            Set
          </button>
        </form>
      )}
      <Outcome state={reviewState} />
      <Outcome state={bonusState} />
    </div>
  );
}

/** Leave the study's rejected participants' answers out of the gold, or put them back (one decision each). */
export function ExclusionControls({
  actions,
  studyId,
  rejectedInGold,
  excluded,
}: {
  actions: { leaveOut: ReviewAction; undo: ReviewAction };
  studyId: number;
  rejectedInGold: number;
  excluded: number;
}) {
  const [leaveState, leaveAction, leavePending] = useActionState<ReviewFormState, FormData>(actions.leaveOut, null);
  const [undoState, undoAction, undoPending] = useActionState<ReviewFormState, FormData>(actions.undo, null);
  return (
    <div className={styles.decision}>
      {rejectedInGold > 0 && (
        <form action={leaveAction} className={styles.inline}>
          <input type="hidden" name="studyId" value={studyId} />
          <button type="submit" disabled={leavePending}>
            Leave {rejectedInGold} rejected participant{rejectedInGold === 1 ? "" : "s"} out of the gold
          </button>
        </form>
      )}
      {excluded > 0 && (
        <form action={undoAction} className={styles.inline}>
          <input type="hidden" name="studyId" value={studyId} />
          <button type="submit" className="secondary" disabled={undoPending}>
            Undo: put {excluded === 1 ? "their" : `all ${excluded}`} answers back
          </button>
        </form>
      )}
      <Outcome state={leaveState} />
      <Outcome state={undoState} />
    </div>
  );
}
