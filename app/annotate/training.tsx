"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type RefObject, useEffect, useRef, useState, useTransition } from "react";
import { useScripted } from "@/app/_ui/scripted";
import type { TrainingFeedback, TrainingView } from "@/lib/server/quality";
import { answerTrainingAction, retryTrainingAction } from "./[projectId]/training/actions";
import { AnswerFields } from "./answer-fields";
import { draftAsResponse } from "./draft";
import { draftErrors } from "./field-rules";
import { Guidelines, MarkdownText } from "./guidelines";
import { answeredCount, trainingCounter } from "./training-count";
import { useDraft } from "./use-draft";
import { useFields } from "./use-fields";
import { useShortcuts } from "./use-shortcuts";
import { SentenceText } from "@/app/_ui/sentence-text";
import { ANSWER_SEPARATOR, listAnswers } from "@/app/_ui/answer-text";
import s from "./workspace.module.css";

type Item = NonNullable<TrainingView["next"]>;

/** What the annotator gave against the known answers, and which matched. */
function Feedback({ fb, index, multiword }: { fb: TrainingFeedback; index?: number; multiword?: string | null }) {
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
            {i > 0 && ANSWER_SEPARATOR}
            {matched.has(a) ? <strong>{a} ✓</strong> : <span>{a}</span>}
          </span>
        ))}
      </p>
      <p>Known answers: {listAnswers(fb.accepted)}</p>
      {multiword && <p className="muted small">Multiword “{multiword}”: noted for you, not checked (the known answers are substitutes).</p>}
    </div>
  );
}

/**
 * One training item, answered as in the workspace: the same fields (three substitutes side by
 * side, NAME / NIL, the multiword tick and phrase), the same keys (Alt+N / L / M, Enter checks the
 * answer) and the same rules checked before sending. Remounted (keyed by item) for each item.
 */
function TrainingItem({
  pid,
  userId,
  attempt,
  item,
  counter,
  openGuidelines,
  onAnswered,
  language,
}: {
  pid: number;
  userId: number;
  attempt: number;
  item: Item;
  counter: string;
  openGuidelines: () => void;
  onAnswered: (r: TrainingFeedback & { multiword: string | null }) => void;
  /** The project's language (BCP 47): the page's lang, and the language the rules fold case in. */
  language: string;
}) {
  const [pending, start] = useTransition();
  const scripted = useScripted();
  const [error, setError] = useState<string | null>(null);
  const draft = useDraft(`lexgold:training:${userId}:${pid}:${attempt}:${item.ref}`, null);
  const fields = useFields(draft, item.head);

  useEffect(() => {
    fields.focusFirst();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [item.ref]);

  useShortcuts({
    dialogOpen: () => false,
    chooseKind: fields.chooseKind,
    toggleMultiword: fields.toggleMultiword,
    skip: null,
    prev: null,
    next: null,
    openGuidelines,
    toggleFlag: () => {},
  });

  const submit = () => {
    if (pending) return;
    const d = draft.draftRef.current;
    const refused = draftErrors(d, { ...item, language });
    if (refused) {
      fields.setErrors(refused);
      fields.focusError(refused);
      return;
    }
    fields.setErrors({});
    start(async () => {
      const r = await answerTrainingAction(pid, item.ref, draftAsResponse(d));
      if (!r.ok) return setError(r.message);
      setError(null);
      draft.forget();
      onAnswered(r);
    });
  };

  return (
    <section className={`panel ${s.main}`} aria-labelledby="training-heading">
      <h2 id="training-heading" className={s.heading}>
        <span className={s.target}>
          Target: <strong>{item.lemma}</strong>
        </span>
        <span className="muted small"> · {counter}</span>
      </h2>
      <SentenceText before={item.before} head={item.head} after={item.after} lang={language} />
      {item.note.trim() !== "" && (
        <aside aria-label="Note for this target" className="notice">
          <MarkdownText text={item.note} />
        </aside>
      )}
      {/* Checked by the page's script: without it the page says so, and the button stays off until the script runs. */}
      <noscript>
        <p className="notice warn">The training checks your answers with JavaScript: turn it on in this browser to go on.</p>
      </noscript>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <AnswerFields draft={draft.draft} fields={fields} save={submit} lang={language} />
        {error && (
          <p className="notice error" role="alert">
            {error}
          </p>
        )}
        <div className={s.actions}>
          <button type="submit" ref={fields.saveRef} disabled={pending || !scripted} aria-keyshortcuts="Enter">
            Check my answer
          </button>
          <p className="muted small" style={{ margin: 0 }}>
            <kbd>Enter</kbd> checks · <kbd>Alt</kbd>+<kbd>N</kbd> NAME · <kbd>Alt</kbd>+<kbd>L</kbd> NIL · <kbd>Alt</kbd>+<kbd>M</kbd> multiword
          </p>
        </div>
      </form>
    </section>
  );
}

function openDetails(ref: RefObject<HTMLDetailsElement | null>) {
  const d = ref.current;
  if (!d) return;
  d.open = true;
  d.querySelector("summary")?.focus();
  d.scrollIntoView({ block: "nearest" });
}

export function Training({ view, userId }: { view: TrainingView; userId: number }) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [last, setLast] = useState<(TrainingFeedback & { multiword: string | null }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The item just answered, until the refreshed view has moved past it: the old view would show its form again.
  const [answeredRef, setAnsweredRef] = useState<number | null>(null);
  const guidelinesRef = useRef<HTMLDetailsElement>(null);
  const pid = view.project.id;
  const stale = answeredRef !== null && view.next?.ref === answeredRef;
  const done = answeredCount(view.answered, last?.ref ?? answeredRef);
  const answering = !last && !stale && view.next !== null;

  const next = () => {
    setAnsweredRef(last?.ref ?? null);
    setLast(null);
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
      <p className="muted" data-testid="training-counter">
        Attempt {view.attempt} · {trainingCounter(done, view.total, answering)} · pass mark {view.threshold} % of items matching a known answer
      </p>
      <details className="panel" ref={guidelinesRef}>
        <summary aria-keyshortcuts="Alt+G">Guidelines</summary>
        <Guidelines text={view.project.guidelines} />
      </details>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {last ? (
        <div className={`panel ${s.main}`}>
          {view.next && view.next.ref === last.ref && (
            <SentenceText before={view.next.before} head={view.next.head} after={view.next.after} lang={view.project.language} />
          )}
          <Feedback fb={last} multiword={last.multiword} />
          <button type="button" onClick={next} autoFocus>
            {done < view.total ? "Next training item" : "See your score"}
          </button>
        </div>
      ) : stale ? (
        <p className="panel muted" role="status">
          {done < view.total ? "Loading the next item…" : "Loading your score…"}
        </p>
      ) : view.next ? (
        <TrainingItem
          key={`${view.attempt}:${view.next.ref}`}
          pid={pid}
          userId={userId}
          attempt={view.attempt}
          item={view.next}
          counter={trainingCounter(done, view.total, true)}
          openGuidelines={() => openDetails(guidelinesRef)}
          onAnswered={setLast}
          language={view.project.language}
        />
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
