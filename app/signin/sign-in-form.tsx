"use client";
import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";

export function SignInForm({ next = "/" }: { next?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
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
      setError(
        res?.error === "RateLimited"
          ? "Too many failed sign-ins for this account: sign-ins are slowed down. Wait a little and try again; if it goes on, your coordinator can lift the lock."
          : res?.error === "Busy"
            ? "The server is checking many sign-ins just now. Try again in a few seconds."
            : "That user name and password do not match.",
      );
      return;
    }
    router.replace(next);
    router.refresh();
  }

  return (
    // method="post": sent before the page runs its script, the password goes into no URL or log (#38).
    <form method="post" onSubmit={onSubmit} noValidate>
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
