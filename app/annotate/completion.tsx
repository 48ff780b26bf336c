/**
 * A study participant's end screens (issue #32): the completion code after their batch (with
 * Prolific's return or Mechanical Turk's form), the screen-out code after a failed training,
 * the batch's time run out, the study closed. Calm and short: what happened, the code, the way back.
 */
import Link from "next/link";
import type { ParticipantView } from "@/lib/server/annotate";
import { CopyCode, FocusedLink, MturkSubmit } from "./completion-client";
import s from "./completion.module.css";

/**
 * Whether the participant may still open items: working on their batch, or finished and changing
 * answers while the study is open. Otherwise this screen, not the workspace, is theirs.
 */
export function participantMayWork(v: ParticipantView): boolean {
  return (v.state === "active" || v.state === "finished") && v.studyState !== "closed";
}

function Code({ code, label }: { code: string; label: string }) {
  return (
    <>
      <p className="muted">{label}</p>
      <p>
        <output className={s.code} data-testid="participant-code" aria-label={label}>
          {code}
        </output>
      </p>
    </>
  );
}

/** The way back to the platform: Prolific's address with the code, Mechanical Turk's form (code or none), or the code to copy. */
function Return({ v, auto }: { v: ParticipantView; auto: boolean }) {
  if (v.returnUrl) {
    return (
      <div className={s.actions}>
        <FocusedLink className="button" href={v.returnUrl}>
          Return to Prolific
        </FocusedLink>
        <CopyCode code={v.code} />
      </div>
    );
  }
  if (v.mturk) {
    return (
      <div className={s.actions}>
        <MturkSubmit action={v.mturk.action} assignmentId={v.mturk.assignmentId} code={v.code} status={v.state === "screened-out" ? "screened-out" : "completed"} auto={auto} />
      </div>
    );
  }
  if (!v.code) return null;
  return (
    <div className={s.actions}>
      <CopyCode code={v.code} />
    </div>
  );
}

export function ParticipantEnd({ view: v, reviewHref }: { view: ParticipantView; reviewHref: string | null }) {
  if (v.state === "finished") {
    return (
      <section className={`panel ${s.end}`} aria-labelledby="end-title">
        <h1 id="end-title">Thank you: your batch is complete</h1>
        <p>
          You answered all {v.total} items.{" "}
          {v.code || v.mturk ? "Your answers are saved." : "Your answers are saved; you may close this page."}
        </p>
        {v.code && <Code code={v.code} label="Your completion code" />}
        {/* Mechanical Turk: the assignment goes back whether or not the study has a code. */}
        {(v.code || v.mturk) && <Return v={v} auto={v.platform === "mturk"} />}
        {v.code && v.platform === "link" && <p className="small muted">Give this code where you were asked for it.</p>}
        {reviewHref && v.studyState !== "closed" && (
          <p className="small muted">
            You can still change your answers until the study closes: <Link href={reviewHref}>review them</Link>.
          </p>
        )}
      </section>
    );
  }
  if (v.state === "screened-out") {
    return (
      <section className={`panel ${s.end}`} aria-labelledby="end-title">
        <h1 id="end-title">Thank you for your time</h1>
        <p>The training was not passed, so the study ends here for you.</p>
        {v.code && <Code code={v.code} label="Your code" />}
        {(v.code || v.mturk) && <Return v={v} auto={false} />}
      </section>
    );
  }
  if (v.state === "timed-out") {
    return (
      <section className={`panel ${s.end}`} aria-labelledby="end-title">
        <h1 id="end-title">Your time for this batch ran out</h1>
        <p>Its places went to other participants. The answers you saved are kept.</p>
        {v.platform !== "link" && <p className="small muted">Please return the task on {v.platform === "prolific" ? "Prolific" : "Mechanical Turk"}.</p>}
      </section>
    );
  }
  return (
    <section className={`panel ${s.end}`} aria-labelledby="end-title">
      <h1 id="end-title">This study is closed</h1>
      <p>It takes no more answers. The answers you saved are kept.</p>
    </section>
  );
}
