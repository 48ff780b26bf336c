"use client";
/**
 * A model's suggestions on screen (issue #41): quiet, below the fields, as text (a model's reply is never
 * HTML). Each is a button that puts it into the next empty field (Alt+1, Alt+2, Alt+3); NAME or NIL
 * chooses that answer. In "after" mode they show only on an instance already saved, and the next
 * instance recalls the one just saved with a way back to revise it (Alt+R).
 */
import type { SuggestionItem } from "@/lib/server/models";
import s from "./workspace.module.css";

type Ready = Extract<SuggestionItem, { state: "ready" }>;

/** The words a ready suggestion offers: its substitutes, or NAME / NIL. */
export function offered(item: Ready): string[] {
  return item.kind === "substitutes" ? item.substitutes.slice(0, 3) : [item.kind];
}

export function SuggestionsBox({ model, mode, item, visible, onAccept }: { model: string; mode: "after" | "assist"; item: SuggestionItem | null; visible: Ready | null; onAccept: (word: string) => void }) {
  if (visible) {
    return (
      <div className={s.suggestions} role="group" aria-label={`Suggested by ${model}`}>
        <span className="small muted">{mode === "after" ? `${model} answered:` : `${model} suggests:`}</span>
        {offered(visible).map((w, i) => (
          <button key={w} type="button" className={`secondary small ${s.suggestion}`} aria-keyshortcuts={`Alt+${i + 1}`} onClick={() => onAccept(w)} lang="" dir="auto">
            <kbd className={s.key}>{i + 1}</kbd> {w}
          </button>
        ))}
        <span className={`small muted ${s.suggestionHint}`}>Alt+1–{offered(visible).length} puts one in the next empty field.</span>
      </div>
    );
  }
  if (mode === "assist" && item?.state === "pending") return <p className={`small muted ${s.suggestions}`}>{model} is answering…</p>;
  if (item?.state === "unavailable") return <p className={`small muted ${s.suggestions}`}>{model}&apos;s suggestions are not available for this instance.</p>;
  return null;
}

/** After mode: the instance saved just before, what the model answered there, and the way back to revise it. */
export function PreviousNote({ model, instanceId, item, revise }: { model: string; instanceId: string; item: SuggestionItem | null; revise: () => void }) {
  if (item?.state !== "ready") return null;
  return (
    <p className={`small ${s.previousNote}`} role="note">
      <span className="muted">
        {model} on {instanceId}, which you just saved:
      </span>{" "}
      <span dir="auto">{offered(item).join(", ")}.</span>
      <button type="button" className="secondary small" onClick={revise} aria-keyshortcuts="Alt+R">
        Revise {instanceId} <kbd className={s.key}>Alt+R</kbd>
      </button>
    </p>
  );
}
