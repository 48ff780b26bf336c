import type { Metadata } from "next";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { ChangePasswordForm } from "../accounts/account-forms";
import { getActor } from "@/lib/auth/session";
import { signInHref } from "@/lib/auth/return-to";

export const metadata: Metadata = { title: "Your account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const actor = await getActor();
  if (!actor || actor.kind !== "user") {
    // A password changed by a form posted without JavaScript ends every session, this one too: the page
    // answering that post still shows the form's outcome (the new password works; sign in again).
    // Anyone else signed out goes to the sign-in page.
    const posted = ((await headers()).get("content-type") ?? "").startsWith("multipart/form-data");
    if (!posted) redirect(signInHref("/account"));
  } else if (actor.role === "participant") {
    // A crowd participant's account has no password to change: it is their study link's.
    redirect("/annotate");
  }
  return (
    <>
      <h1>Your account</h1>
      {actor && actor.kind === "user" ? (
        <p className="muted">
          Signed in as <strong>{actor.name}</strong> <span className="tag">{actor.role}</span>
        </p>
      ) : (
        <p className="muted">Signed out.</p>
      )}
      <div className="panel narrow">
        <ChangePasswordForm />
      </div>
    </>
  );
}
