import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { CSRF_HEADER } from "@/lib/auth/csrf";
import { safeReturnTo } from "@/lib/auth/return-to";
import { getActor } from "@/lib/auth/session";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[]; error?: string | string[] }> }) {
  const { next, error } = await searchParams;
  const back = safeReturnTo(one(next));
  const actor = await getActor();
  if (actor) redirect(back);
  return (
    <div className="signin panel">
      <h1>Sign in to lexgold</h1>
      <p className="muted small">Accounts are made by your project&rsquo;s coordinator.</p>
      {back !== "/" && <p className="small">Sign in to go back to the page you were on.</p>}
      {/* The CSRF token for a post without JavaScript (proxy.ts); ?error= names why such a post was refused (lib/auth/route.ts). */}
      <SignInForm next={back} csrfToken={(await headers()).get(CSRF_HEADER) ?? ""} refused={one(error) ?? null} />
    </div>
  );
}
