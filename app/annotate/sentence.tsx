"use client";
import type { InstanceStep } from "@/lib/server/annotate";
import { describe } from "./draft";
import { ReturnedBar, ReturnedComment } from "./flag-note";
import { LexeltNote } from "./guidelines";
import { SentenceText } from "@/app/_ui/sentence-text";
import s from "./workspace.module.css";

interface SentenceProps {
  step: InstanceStep;
  projectId: number;
  /** The project's language (BCP 47), the sentence's `lang`. */
  lang: string;
  /** The number of instances in the annotator's queue. */
  total: number;
  /** Instances returned to the annotator and still open. */
  returned: { count: number; firstRef: number | null };
  go: (ref: number | null) => void;
  openGuidelines: () => void;
  /** The draft shown was restored from the browser. */
  restored: boolean;
  /** The fields differ from the answer saved. */
  unsaved: boolean;
}

/** The instance: its heading, a return's comment, the sentence with the target marked, the lexelt's note, and where the answer stands. */
export function Sentence({ step: view, projectId, lang, total, returned, go, openGuidelines, restored, unsaved }: SentenceProps) {
  const { instance } = view;
  return (
    <>
      <div className={s.topline}>
        <h1 id="instance-heading" className={s.heading}>
          <span className={s.target}>
            Target: <strong>{instance.lemma}</strong>
          </span>
          <span className="muted small">
            {" "}
            · instance {instance.instanceId} · {view.position} of {total}
          </span>
        </h1>
        <button type="button" className={`secondary ${s.help}`} onClick={openGuidelines} aria-keyshortcuts="Shift+? Alt+G">
          <span aria-hidden="true" className={s.q}>?</span> Guidelines
        </button>
      </div>

      <ReturnedBar projectId={projectId} returned={returned} currentRef={instance.ref} go={go} />
      {view.returnComment !== null && <ReturnedComment comment={view.returnComment} />}

      <SentenceText before={instance.before} head={instance.head} after={instance.after} lang={lang} />
      <LexeltNote note={instance.note} />

      {restored && <p className={`small muted ${s.note}`}>Restored unsaved draft.</p>}
      {!restored && (
        <p className={`small muted ${s.note}`}>
          {unsaved
            ? view.response
              ? "Changed, not saved yet."
              : "Not saved yet."
            : view.response
              ? `Your saved answer: ${describe(view.response)}`
              : "Not answered yet."}
        </p>
      )}
    </>
  );
}
