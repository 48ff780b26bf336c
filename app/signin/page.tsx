import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { safeReturnTo } from "@/lib/auth/return-to";
import { getActor } from "@/lib/auth/session";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  const back = safeReturnTo(Array.isArray(next) ? next[0] : next);
  const actor = await getActor();
  if (actor) redirect(back);
  return (
    <div className="signin panel">
      <h1>Sign in to lexgold</h1>
      <p className="muted small">Accounts are made by your project&rsquo;s coordinator.</p>
      {back !== "/" && <p className="small">Sign in to go back to the page you were on.</p>}
      <SignInForm next={back} />
    </div>
  );
}
