"use client";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import styles from "./study.module.css";

/**
 * The study page's start: signs in through next-auth's "study" sign-in with the link's token and
 * parameters (the server joins or resumes the participant and gives the batch), then opens the
 * workspace. Mechanical Turk shows an ExternalQuestion inside a frame on its own site, where the
 * browser keeps no cookie of ours: there the button opens the study in a tab of its own.
 */
export function StartStudy({
  token,
  params,
  askId,
  withConsent,
  projectId,
  platform,
}: {
  token: string;
  params: Record<string, string | undefined>;
  askId: boolean;
  withConsent: boolean;
  projectId: number;
  platform: "prolific" | "mturk" | "link";
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [framed, setFramed] = useState(false);
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
    setBusy(true);
    setError(null);
    const res = await signIn("study", { token, params: JSON.stringify(sent), consent: withConsent ? "yes" : "", redirect: false });
    if (!res || res.error) {
      setBusy(false);
      setError(res?.error && res.error !== "CredentialsSignin" ? res.error : "Could not start: open the study link again.");
      return;
    }
    router.replace(`/annotate/${projectId}`);
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
    <form onSubmit={onSubmit} noValidate aria-label="Start the study">
      {askId && (
        <div className={`field ${styles.id}`}>
          <label htmlFor="study-id">Your id</label>
          <p className="small muted">Any name or code you will remember (letters, digits, dots, dashes, underscores): the same id brings you back to your place.</p>
          <input id="study-id" name="id" autoComplete="off" autoCapitalize="none" autoCorrect="off" spellCheck={false} maxLength={64} required />
        </div>
      )}
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
