"use client";
import type { InstanceStep } from "@/lib/server/annotate";
import s from "./workspace.module.css";

/** A plain left click follows the link in the page; a modified one (new tab, window) is left to the browser. */
function inPage(f: () => void) {
  return (e: React.MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    f();
  };
}

/** Previous / Skip / Next: real links (a new tab works), followed in the page on a plain click. */
export function InstanceNav({ step: view, base, skipTo, go, skip }: { step: InstanceStep; base: string; skipTo: number | null; go: (ref: number | null) => void; skip: () => void }) {
  return (
    <nav className={s.nav} aria-label="Instances">
      {view.prevRef !== null ? (
        <a className="button secondary" href={`${base}/${view.prevRef}`} onClick={inPage(() => go(view.prevRef))} aria-keyshortcuts="Alt+ArrowLeft PageUp">
          ← Previous
        </a>
      ) : (
        <span className={`button secondary ${s.off}`} aria-disabled="true">
          ← Previous
        </span>
      )}
      <button
        type="button"
        className="secondary"
        disabled={skipTo === null}
        onClick={skip}
        aria-keyshortcuts="Alt+S"
        title="Go on without saving; this instance stays unanswered"
      >
        Skip
      </button>
      {view.nextRef !== null ? (
        <a className="button secondary" href={`${base}/${view.nextRef}`} onClick={inPage(() => go(view.nextRef))} aria-keyshortcuts="Alt+ArrowRight PageDown">
          Next →
        </a>
      ) : (
        <span className={`button secondary ${s.off}`} aria-disabled="true">
          Next →
        </span>
      )}
    </nav>
  );
}
