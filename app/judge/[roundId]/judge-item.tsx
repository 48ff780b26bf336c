"use client";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { SentenceText } from "@/app/_ui/sentence-text";
import type { JudgementLabel } from "@/lib/lexsub/judgement";
import { saveLabelAction } from "../actions";

export interface JudgeItemProps {
  roundId: number;
  /** The project's language (BCP 47): the sentence's and the candidates' `lang`. */
  lang: string;
  labels: readonly JudgementLabel[];
  before: string;
  head: string;
  after: string;
  candidates: { id: number; text: string; label: JudgementLabel | null }[];
}

/** One key per label: its first letter, or its number in the scheme. */
const keyOf = (l: JudgementLabel) => l[0];

export function JudgeItem({ roundId, lang, labels, before, head, after, candidates }: JudgeItemProps) {
  const router = useRouter();
  const [given, setGiven] = useState<Record<number, JudgementLabel | null>>(() => Object.fromEntries(candidates.map((c) => [c.id, c.label])));
  const [focus, setFocus] = useState(() => Math.max(0, candidates.findIndex((c) => !c.label)));
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  /** Enter was pressed: go on as soon as the labels still saving are saved (never drop the key). */
  const [advancing, setAdvancing] = useState(false);
  const [refreshing, startRefresh] = useTransition();
  /** Why Enter did not go on (some candidates unlabelled). */
  const [hint, setHint] = useState<string | null>(null);
  const complete = candidates.every((c) => given[c.id]);
  const left = candidates.filter((c) => !given[c.id]).length;

  function next() {
    if (!complete) {
      setHint(`Label every candidate first: ${left} left.`);
      setFocus(Math.max(0, candidates.findIndex((c) => !given[c.id])));
      return;
    }
    setHint(null);
    setAdvancing(true);
  }

  // Go on once nothing is saving; a refused label (error) stops it and says why.
  useEffect(() => {
    if (!advancing || pending) return;
    setAdvancing(false);
    if (!error && complete) startRefresh(() => router.refresh());
  }, [advancing, pending, error, complete, router]);

  function label(index: number, l: JudgementLabel) {
    const c = candidates[index];
    setHint(null);
    setGiven((g) => ({ ...g, [c.id]: l }));
    setFocus(Math.min(index + 1, candidates.length - 1));
    start(async () => {
      const r = await saveLabelAction(roundId, c.id, l);
      if (!r.ok) {
        setError(r.message);
        setGiven((g) => ({ ...g, [c.id]: null }));
      } else setError(null);
    });
  }

  useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const byKey = labels.findIndex((l, i) => e.key === keyOf(l) || e.key === String(i + 1));
      if (byKey >= 0) {
        e.preventDefault();
        label(focus, labels[byKey]);
      } else if (e.key === "ArrowDown" || e.key === "j") setFocus((f) => Math.min(f + 1, candidates.length - 1));
      else if (e.key === "ArrowUp" || e.key === "k") setFocus((f) => Math.max(f - 1, 0));
      else if (e.key === "Enter") {
        // Enter always means "next sentence", wherever the focus is (a label button keeps Space).
        e.preventDefault();
        if (!e.repeat && !refreshing) next();
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  return (
    <>
      {/* Labels are saved by the page's script: without it the page says so. */}
      <noscript>
        <p className="notice warn">Judging saves your labels with JavaScript: turn it on in this browser to judge.</p>
      </noscript>
      <SentenceText before={before} head={head} after={after} lang={lang} testId="sentence" />
      <p className="small muted">
        Keys: {labels.map((l, i) => `${keyOf(l)} or ${i + 1} = ${l}`).join(", ")}; ↑/↓ to move; Enter for the next sentence once every candidate has a label.
      </p>
      <ol className="plain" aria-label="Candidates" style={{ listStyle: "none", padding: 0 }}>
        {candidates.map((c, i) => (
          <li
            key={c.id}
            data-candidate={c.text}
            aria-current={i === focus ? "true" : undefined}
            onClick={() => setFocus(i)}
            style={{
              display: "flex",
              flexWrap: "wrap",
              gap: "0.5rem",
              alignItems: "center",
              padding: "0.5rem 0.75rem",
              marginBottom: "0.35rem",
              borderRadius: 6,
              border: i === focus ? "2px solid #2563eb" : "1px solid #d4d4d8",
            }}
          >
            <strong lang={lang} style={{ minWidth: "10rem", flex: "1 1 10rem" }}>{c.text}</strong>
            <span role="group" aria-label={`Label for ${c.text}`} style={{ display: "flex", gap: "0.25rem" }}>
              {labels.map((l) => (
                <button
                  key={l}
                  type="button"
                  className={given[c.id] === l ? undefined : "secondary"}
                  aria-pressed={given[c.id] === l}
                  onClick={(e) => {
                    e.stopPropagation();
                    label(i, l);
                  }}
                >
                  {l}
                </button>
              ))}
            </span>
          </li>
        ))}
      </ol>
      {error && (
        <p role="alert" className="field-error">
          {error}
        </p>
      )}
      {hint && (
        <p role="status" className="small muted">
          {hint}
        </p>
      )}
      <button type="button" disabled={advancing || refreshing} aria-disabled={!complete} onClick={next}>
        {advancing ? "Saving…" : refreshing ? "Loading the next sentence…" : "Next sentence (Enter)"}
      </button>
    </>
  );
}
