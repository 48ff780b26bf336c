"use client";
import { type RefObject, useRef } from "react";
import { MarkdownText } from "./guidelines";
import { Keys } from "./keys-panel";
import s from "./workspace.module.css";

/** The guidelines dialog's refs, and opening it (at the top, its heading focused). */
export function useGuidelinesDialog() {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  function open() {
    const dlg = dialogRef.current;
    if (dlg && !dlg.open) {
      dlg.showModal();
      dlg.scrollTop = 0;
      headingRef.current?.focus();
    }
  }
  return { dialogRef, headingRef, open, isOpen: () => !!dialogRef.current?.open };
}

/** The project's guidelines (Markdown) and the keys, in a modal dialog. */
export function GuidelinesDialog({
  guidelines,
  dialogRef,
  headingRef,
}: {
  guidelines: string;
  dialogRef: RefObject<HTMLDialogElement | null>;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  return (
    <dialog ref={dialogRef} className={s.dialog} aria-labelledby="guidelines-heading">
      <h2 id="guidelines-heading" tabIndex={-1} ref={headingRef}>
        Guidelines
      </h2>
      <MarkdownText text={guidelines} className={s.guidelines} />
      <h3>Keys</h3>
      <Keys />
      <form method="dialog">
        <button type="submit">
          Close
        </button>
      </form>
    </dialog>
  );
}
