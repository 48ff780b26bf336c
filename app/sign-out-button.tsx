"use client";
import { signOut } from "next-auth/react";

/**
 * Sign out. With the page's script through next-auth's client; without it (or before it runs) the
 * form posts itself to next-auth's sign-out with the CSRF token the server put in it (proxy.ts,
 * lib/auth/csrf.ts), and the answer is the sign-in page (lib/auth/route.ts).
 */
export function SignOutButton({ csrfToken }: { csrfToken: string }) {
  return (
    <form
      method="post"
      action="/api/auth/signout"
      onSubmit={(e) => {
        e.preventDefault();
        void signOut({ callbackUrl: "/signin" });
      }}
    >
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <button type="submit" className="secondary">
        Sign out
      </button>
    </form>
  );
}
