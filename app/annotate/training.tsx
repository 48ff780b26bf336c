"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import type { TrainingFeedback, TrainingView } from "@/lib/server/quality";
import { answerTrainingAction, retryTrainingAction } from "./[projectId]/training/actions";
import { Guidelines, MarkdownText } from "./guidelines";
import { SentenceText } from "@/app/_ui/sentence-text";

/** What the annotator gave against the known answers, and which matched. */
function Feedback({ fb, index }: { fb: TrainingFeedback; index?: number }) {
  const matched = new Set(fb.matchedSubstitutes);
  return (
    <div className={`notice ${fb.matched ? "ok" : "warn"}`} role="status" data-testid="training-feedback">
      <p>
        <strong>{index !== undefined ? `Item ${index + 1}: ` : ""}{fb.matched ? "Matched" : "No match"}</strong>
        {fb.matched ? " — your answer shares a lemma with a known answer." : " — none of your substitutes is among the known answers."}
      </p>
      <p>
        Your answer:{" "}
        {fb.answer.map((a, i) => (
          <span key={i}>
            {i > 0 && ", "}
            {matched.has(a) ? <strong>{a} ✓</strong> : <span>{a}</span>}
          </span>
        ))}
      </p>
      <p>Known answers: {fb.accepted.join(", ")}</p>
    </div>
  );
}

export function Training({ view }: { view: TrainingView }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [subs, setSubs] = useState(["", "", ""]);
  const [last, setLast] = useState<TrainingFeedback | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The item just answered, until the refreshed view has moved past it: the old view would show its form again.
  const [answeredRef, setAnsweredRef] = useState<number | null>(null);
  const pid = view.project.id;
  const stale = answeredRef !== null && view.next?.ref === answeredRef;
  const done = view.answered.length;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (!view.next) return;
    const ref = view.next.ref;
    start(async () => {
      const r = await answerTrainingAction(pid, ref, subs);
      if (!r.ok) return setError(r.message);
      setError(null);
      setLast(r);
    });
  };
  const next = () => {
    setAnsweredRef(last?.ref ?? null);
    setLast(null);
    setSubs(["", "", ""]);
    router.refresh();
  };
  const retry = (order: "same" | "fresh") =>
    start(async () => {
      const r = await retryTrainingAction(pid, order);
      if (!r.ok) return setError(r.message ?? "Could not start again.");
      setError(null);
      setLast(null);
      setAnsweredRef(null);
      router.refresh();
    });

  return (
    <>
      <h1>Training · {view.project.name}</h1>
      <p className="muted">
        Attempt {view.attempt} · {done} of {view.total} items answered · pass mark {view.threshold} % of items matching a known answer
      </p>
      <details className="panel">
        <summary>Guidelines</summary>
        <Guidelines text={view.project.guidelines} />
      </details>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {last ? (
        <div className="panel">
          {view.next && view.next.ref === last.ref && (
            <SentenceText before={view.next.before} head={view.next.head} after={view.next.after} lang={view.project.language} />
          )}
          <Feedback fb={last} />
          <button type="button" onClick={next} autoFocus>
            {view.next && done + 1 < view.total ? "Next training item" : "See your score"}
          </button>
        </div>
      ) : stale ? (
        <p className="panel muted" role="status">
          {done + 1 < view.total ? "Loading the next item…" : "Loading your score…"}
        </p>
      ) : view.next ? (
        <form className="panel" onSubmit={submit} aria-labelledby="training-heading">
          <h2 id="training-heading">
            Target: <strong>{view.next.lemma}</strong>
          </h2>
          <SentenceText before={view.next.before} head={view.next.head} after={view.next.after} lang={view.project.language} />
          {view.next.note.trim() !== "" && (
            <aside aria-label="Note for this target" className="notice">
              <MarkdownText text={view.next.note} />
            </aside>
          )}
          {subs.map((v, i) => (
            <div className="field" key={i}>
              <label htmlFor={`training-sub-${i + 1}`}>Substitute {i + 1}</label>
              <input
                id={`training-sub-${i + 1}`}
                lang={view.project.language}
                value={v}
                autoFocus={i === 0}
                onChange={(e) => setSubs(subs.map((x, j) => (j === i ? e.target.value : x)))}
                autoComplete="off"
              />
            </div>
          ))}
          <button type="submit" disabled={pending}>
            Check my answer
          </button>
        </form>
      ) : (
        <div className="panel" data-testid="training-result">
          <h2>
            Your score: {view.score} % {view.score !== null && view.score >= view.threshold ? "— passed" : "— not passed yet"}
          </h2>
          {view.passed ? (
            <p>
              <Link className="button" href={`/annotate/${pid}`}>
                Start annotating
              </Link>
            </p>
          ) : (
            <>
              <p>You need {view.threshold} % to start annotating. Read the known answers below, then try again.</p>
              <p style={{ display: "flex", gap: "0.5rem", flexWrap: "wrap" }}>
                <button type="button" onClick={() => retry("same")} disabled={pending}>
                  Try the same items again
                </button>
                <button type="button" className="secondary" onClick={() => retry("fresh")} disabled={pending}>
                  Try them in a fresh order
                </button>
              </p>
            </>
          )}
          {view.answered.map((fb, i) => (
            <Feedback key={fb.ref} fb={fb} index={i} />
          ))}
        </div>
      )}
      {view.passed && view.next && (
        <p className="muted small">
          You have passed the training before; <Link href={`/annotate/${pid}`}>go to your instances</Link>.
        </p>
      )}
    </>
  );
}
