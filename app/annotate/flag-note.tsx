"use client";
import { useEffect, useRef, useState } from "react";
import type { FlagKind, FlagNote } from "@/lib/server/annotate";
import { SIGN_IN_FIRST, SignInAgain } from "../sign-in-again";
import { saveFlagAction } from "./flags/actions";
import { untilAccepted } from "./save-request";
import s from "./workspace.module.css";

/** The flags an annotator can set (the same as lib/server/annotate/flags.ts FLAG_LABELS; that module is server-only). */
const FLAG_CHOICES: [FlagKind, string][] = [
  ["unsure", "Unsure"],
  ["typo", "Typo in the sentence"],
  ["name", "Target is part of a name?"],
  ["other", "Other"],
];

const MAX_NOTE = 1000;

function sameFlag(a: FlagNote, b: FlagNote): boolean {
  return a.flag === b.flag && a.note.trim() === b.note.trim();
}

/**
 * The instance's flag (with its reason) and a note for the coordinator: saved with
 * the answer by "Save & next", or on its own here (no answer needed).
 */
export function FlagNoteField({
  projectId,
  instanceRef,
  value,
  saved,
  onChange,
  onSaved,
  selectRef,
}: {
  projectId: number;
  instanceRef: number;
  value: FlagNote;
  saved: FlagNote;
  onChange: (v: FlagNote) => void;
  onSaved: (v: FlagNote) => void;
  selectRef: React.RefObject<HTMLSelectElement | null>;
}) {
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const gone = useRef(new AbortController());
  useEffect(() => {
    const c = new AbortController();
    gone.current = c;
    return () => c.abort();
  }, []);
  const changed = !sameFlag(value, saved);
  const open = value.flag !== null || value.note !== "" || saved.note !== "";

  async function saveAlone() {
    setBusy(true);
    setStatus(null);
    const signal = gone.current.signal;
    try {
      // Too many saves at once: wait as the server asks, then send again.
      const r = await untilAccepted(() => saveFlagAction(projectId, instanceRef, { flag: value.flag, note: value.note }), {
        signal,
        onWait: (seconds) => setStatus({ ok: true, text: `The server is busy: the flag and note go again in ${seconds} s.` }),
      });
      if (r.ok) {
        onSaved(r.flag);
        setStatus({ ok: true, text: r.flag.flag || r.flag.note ? "Flag and note saved." : "Flag and note cleared." });
      } else setStatus({ ok: false, text: r.message });
    } catch {
      if (signal.aborted) return;
      setStatus({ ok: false, text: "Could not reach the server; try again." });
    } finally {
      if (!signal.aborted) setBusy(false);
    }
  }

  return (
    <div className={s.flagBox}>
      <div className={s.flagLine}>
        <label className={s.check}>
          <input
            type="checkbox"
            checked={value.flag !== null}
            aria-keyshortcuts="Alt+F"
            onChange={() => {
              onChange({ ...value, flag: value.flag === null ? "unsure" : null });
              if (value.flag === null) setTimeout(() => selectRef.current?.focus(), 0);
            }}
          />
          Flag this item
        </label>
        {value.flag !== null && (
          <span className={s.flagReason}>
            <select ref={selectRef} value={value.flag} onChange={(e) => onChange({ ...value, flag: e.target.value as FlagKind })} aria-label="Reason for the flag">
              {FLAG_CHOICES.map(([k, label]) => (
                <option key={k} value={k}>
                  {label}
                </option>
              ))}
            </select>
          </span>
        )}
        {saved.flag !== null && !changed && <span className={`tag ${s.flagTag}`}>flagged</span>}
      </div>
      <details className={s.noteBox} open={open || undefined}>
        <summary>Note for the coordinator{saved.note ? " (1)" : ""}</summary>
        <textarea
          id={`note-${instanceRef}`}
          aria-label="Note for the coordinator"
          rows={2}
          maxLength={MAX_NOTE}
          value={value.note}
          placeholder="Anything the coordinator should know about this item"
          onChange={(e) => onChange({ ...value, note: e.target.value })}
        />
      </details>
      <div className={s.flagActions}>
        {changed && (
          <button type="button" className="secondary" disabled={busy} onClick={() => void saveAlone()}>
            Save flag &amp; note only
          </button>
        )}
        <span aria-live="polite" className={`small ${status ? (status.ok ? s.ok : s.error) : ""}`}>
          {busy ? "Saving…" : (status?.text ?? (changed ? "Saved with your answer, or on its own." : ""))}
          {status?.text === SIGN_IN_FIRST && (
            <>
              {" "}
              <SignInAgain />
            </>
          )}
        </span>
      </div>
    </div>
  );
}

/** The coordinator's comment on an instance returned to the annotator, above the sentence. */
export function ReturnedComment({ comment }: { comment: string }) {
  return (
    <section className={`notice warn ${s.returned}`} aria-label="Returned to you">
      <strong>Returned to you by the coordinator:</strong>
      <p>{comment}</p>
      <span className="small">Save your answer again (changed or not) to send it back.</span>
    </section>
  );
}

/** How many instances are returned to the annotator, with a way to the first (not shown on that one itself). */
export function ReturnedBar({
  projectId,
  returned,
  currentRef,
  go,
}: {
  projectId: number;
  returned: { count: number; firstRef: number | null };
  currentRef: number;
  go: (ref: number | null) => void;
}) {
  if (returned.count === 0 || returned.firstRef === null) return null;
  const other = returned.firstRef !== currentRef;
  return (
    <p className={`small ${s.returnedBar}`} role="note">
      <span className={`tag ${s.flagTag}`}>
        {returned.count} returned to you
      </span>
      {other && (
        <a
          href={`/annotate/${projectId}/${returned.firstRef}`}
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            go(returned.firstRef);
          }}
        >
          Open the first returned instance
        </a>
      )}
    </p>
  );
}
