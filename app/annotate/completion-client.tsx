"use client";
/** The end screens' two bits of script: copying the code, and Mechanical Turk's form sent by itself. */
import { type ReactNode, useEffect, useRef, useState } from "react";
import { useScripted } from "@/app/_ui/scripted";

export function CopyCode({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  // Copying needs the page's script; without it the code is there to select.
  if (!useScripted()) return null;
  return (
    <button
      type="button"
      className="secondary"
      onClick={() =>
        navigator.clipboard?.writeText(code).then(
          () => setCopied(true),
          () => setCopied(false),
        )
      }
    >
      {copied ? "Copied" : "Copy the code"}
    </button>
  );
}

/**
 * Mechanical Turk's externalSubmit: a form POST with the assignment id, what happened (`status`:
 * Mechanical Turk wants a field besides the id, and the requester sees it in the results) and the
 * code when there is one, to the host the assignment came from. Always offered on Mechanical Turk:
 * an assignment never submitted cannot be paid (#38). Sent at once when `auto`; the button stays
 * for a browser that did not.
 */
export function MturkSubmit({ action, assignmentId, code, status, auto }: { action: string; assignmentId: string; code: string; status: "completed" | "screened-out"; auto: boolean }) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (auto) form.current?.submit();
  }, [auto]);
  return (
    <form ref={form} method="post" action={action}>
      <input type="hidden" name="assignmentId" value={assignmentId} />
      {code && <input type="hidden" name="completionCode" value={code} />}
      <input type="hidden" name="status" value={status} />
      <button type="submit" autoFocus>
        Submit to Mechanical Turk
      </button>
    </form>
  );
}

/** A link that takes the focus when shown (the end screen's one thing to do: Enter follows it). */
export function FocusedLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <a ref={ref} className={className} href={href}>
      {children}
    </a>
  );
}
