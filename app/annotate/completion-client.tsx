"use client";
/** The end screens' two bits of script: copying the code, and Mechanical Turk's form sent by itself. */
import { useEffect, useRef, useState } from "react";

export function CopyCode({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
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
 * Mechanical Turk's externalSubmit: a form POST with the assignment id (and the code) to the host
 * the assignment came from. Sent at once when `auto`; the button stays for a browser that did not.
 */
export function MturkSubmit({ action, assignmentId, code, auto }: { action: string; assignmentId: string; code: string; auto: boolean }) {
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (auto) form.current?.submit();
  }, [auto]);
  return (
    <form ref={form} method="post" action={action}>
      <input type="hidden" name="assignmentId" value={assignmentId} />
      <input type="hidden" name="completionCode" value={code} />
      <button type="submit" autoFocus>
        Submit to Mechanical Turk
      </button>
    </form>
  );
}
