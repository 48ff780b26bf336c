import type { Metadata } from "next";
import { ChangePasswordForm } from "../accounts/account-forms";
import { redirect } from "next/navigation";
import { requireUserPage } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Your account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const actor = await requireUserPage();
  // A study participant has no password to change.
  if (actor.role === "participant") redirect("/annotate");
  return (
    <>
      <h1>Your account</h1>
      <p className="muted">
        Signed in as <strong>{actor.name}</strong> <span className="tag">{actor.role}</span>
      </p>
      <div className="panel narrow">
        <ChangePasswordForm />
      </div>
    </>
  );
}
