"use client";
import { useEffect, useState } from "react";
import { signInHref } from "@/lib/auth/return-to";

/** The message lib/server gives when nobody is signed in (actor.ts). */
export const SIGN_IN_FIRST = "Sign in first.";

/** A link to the sign-in page that comes back to this page (after a session ran out while working). */
export function SignInAgain({ className }: { className?: string }) {
  const [href, setHref] = useState("/signin");
  useEffect(() => setHref(signInHref(window.location.pathname + window.location.search)), []);
  return (
    <a className={className} href={href}>
      Sign in again
    </a>
  );
}
