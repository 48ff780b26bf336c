import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getActor } from "@/lib/auth/session";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function SignInPage() {
  const actor = await getActor();
  if (actor) redirect("/");
  return (
    <div className="signin panel">
      <h1>Sign in to lexgold</h1>
      <p className="muted small">Accounts are made by your project&rsquo;s coordinator.</p>
      <SignInForm />
    </div>
  );
}
