"use client";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";

/** What the page says when a sign-in was refused, by next-auth's error code (the page script's, or the URL's after a post without JavaScript). */
function signInError(code: string | null | undefined): string | null {
  if (!code) return null;
  if (code === "RateLimited") return "Too many failed sign-ins for this account: sign-ins are slowed down. Wait a little and try again; if it goes on, your coordinator can lift the lock.";
  if (code === "Busy") return "The server is checking many sign-ins just now. Try again in a few seconds.";
  if (code === "Expired") return "The sign-in form had expired: sign in again.";
  return "That user name and password do not match.";
}

/**
 * The sign-in form. With the page's script it signs in through next-auth's client and stays on the
 * page when refused; without it (or before it runs) the form posts itself to next-auth's callback,
 * with the CSRF token the server put in it (lib/auth/csrf.ts) and the page to go back to, and the
 * answer is that page, or this one with the refusal (lib/auth/route.ts).
 */
export function SignInForm({ next = "/", csrfToken, refused = null }: { next?: string; csrfToken: string; refused?: string | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(signInError(refused));
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    const res = await signIn("credentials", {
      username: String(form.get("username") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    });
    setBusy(false);
    if (!res || res.error) {
      setError(signInError(res?.error ?? "CredentialsSignin"));
      return;
    }
    router.replace(next);
    router.refresh();
  }

  return (
    // Posted: sent before the page runs its script, the password goes into no URL or log (#38).
    <form method="post" action="/api/auth/callback/credentials" onSubmit={onSubmit} noValidate>
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="callbackUrl" value={next} />
      <div className="field">
        <label htmlFor="username">User name</label>
        {/* Names are the same whatever their case; phones must not capitalise or correct them. */}
        <input id="username" name="username" autoComplete="username" autoCapitalize="none" autoCorrect="off" spellCheck={false} autoFocus required />
      </div>
      <div className="field">
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </div>
      {error && (
        <p role="alert" className="notice error">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
