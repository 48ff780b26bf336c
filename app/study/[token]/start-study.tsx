"use client";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import styles from "./study.module.css";

/**
 * The study page's start: signs in through next-auth's "study" sign-in with the link's token and
 * parameters (the server joins or resumes the participant and gives the batch), then goes on to
 * the study page's "you have started" panel, which shows a new participant their resume code and
 * sends anyone else on to the workspace. A participant who started on another device enters their
 * resume code under "Started on another device?" (opened by itself when the server asks for it).
 * Mechanical Turk shows an ExternalQuestion inside a frame on its own site, where the browser
 * keeps no cookie of ours: there the button opens the study in a tab of its own.
 *
 * Without JavaScript (or before it runs) the form posts itself to the same sign-in, with the
 * CSRF token the server put in it (lib/auth/csrf.ts) and the link's parameters; the answer is the
 * "you have started" page, or this page again with the refusal (`refused`, lib/auth/route.ts).
 */
export function StartStudy({
  token,
  params,
  askId,
  withConsent,
  platform,
  csrfToken,
  refused = null,
}: {
  token: string;
  params: Record<string, string | undefined>;
  askId: boolean;
  withConsent: boolean;
  platform: "prolific" | "mturk" | "link";
  csrfToken: string;
  /** Why a start posted without JavaScript was refused. */
  refused?: string | null;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(refused);
  const [busy, setBusy] = useState(false);
  const [framed, setFramed] = useState(false);
  // The server asks for the resume code (the id is taking part elsewhere, or the code did not match).
  const [askCode, setAskCode] = useState(refused !== null && /resume code/.test(refused));
  // Set when the server asks for the resume code: the field takes the focus once it is shown.
  const [focusCode, setFocusCode] = useState(false);
  const codeField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!focusCode) return;
    codeField.current?.focus();
    setFocusCode(false);
  }, [focusCode]);
  useEffect(() => {
    try {
      setFramed(window.top !== window.self);
    } catch {
      setFramed(true);
    }
  }, []);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const sent = askId ? { ...params, id: String(form.get("id") ?? "").trim() } : params;
    const resumeCode = String(form.get("resumeCode") ?? "").trim();
    setBusy(true);
    setError(null);
    const res = await signIn("study", { token, params: JSON.stringify(sent), consent: withConsent ? "yes" : "", resumeCode, redirect: false });
    if (!res || res.error) {
      setBusy(false);
      const message = res?.error && res.error !== "CredentialsSignin" ? res.error : "Could not start: open the study link again.";
      setError(message);
      // The server asks for the resume code (the id is taking part elsewhere, or the code did not match).
      if (/resume code/.test(message)) {
        setAskCode(true);
        setFocusCode(true);
      }
      return;
    }
    router.replace(`/study/${encodeURIComponent(token)}?started=1`);
    router.refresh();
  }

  if (framed && platform === "mturk") {
    return (
      <div className={styles.actions}>
        <a className="button" href={window.location.href} target="_blank" rel="noopener">
          Open the task in a new tab
        </a>
        <span className="small muted">Mechanical Turk shows this page in a frame; the task runs in a tab of its own and sends your work back to Mechanical Turk when you finish.</span>
      </div>
    );
  }

  return (
    <form method="post" action="/api/auth/callback/study" onSubmit={onSubmit} noValidate aria-label="Start the study">
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="params" value={JSON.stringify(params)} />
      {withConsent && <input type="hidden" name="consent" value="yes" />}
      {askId && (
        <div className={`field ${styles.id}`}>
          <label htmlFor="study-id">Your id</label>
          <p className="small muted">Any name or code you will remember (letters, digits, dots, dashes, underscores; capitals count). On this device the same id brings you back to your place; on another, so does your resume code.</p>
          <input id="study-id" name="id" autoComplete="off" autoCapitalize="none" autoCorrect="off" spellCheck={false} maxLength={64} required />
        </div>
      )}
      <details className={styles.resume} open={askCode} onToggle={(e) => setAskCode(e.currentTarget.open)}>
        <summary className="small">Started on another device?</summary>
        <div className="field">
          <label htmlFor="resume-code">Resume code</label>
          <p className="small muted">The code you were shown when you started, like K7QM-2XHD-9RTA.</p>
          <input ref={codeField} id="resume-code" name="resumeCode" autoComplete="off" autoCapitalize="characters" autoCorrect="off" spellCheck={false} maxLength={20} />
        </div>
      </details>
      {error && (
        <p role="alert" className="notice error">
          {error}
        </p>
      )}
      <div className={styles.actions}>
        <button type="submit" disabled={busy}>
          {busy ? "Starting…" : withConsent ? "I agree, start" : "Start"}
        </button>
        {withConsent && <span className="small muted">By starting you agree to the consent above.</span>}
      </div>
    </form>
  );
}
