import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { CSRF_HEADER } from "@/lib/auth/csrf";
import { getActor } from "@/lib/auth/session";
import { SignOutButton } from "./sign-out-button";
import { participantLabel } from "./_ui/participant-label";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "lexgold", template: "%s · lexgold" },
  description: "Lexical-substitution gold standards, annotated and scored.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const actor = await getActor();
  const user = actor && actor.kind === "user" ? actor : null;
  // A participant knows the id their platform gave them, not the account name made of it.
  const participant = user?.role === "participant" ? participantLabel(user.name) : null;
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">Skip to content</a>
        <header className="site">
          <Link href="/" className="brand">lexgold</Link>
          {user && (
            <nav aria-label="Main">
              {user.role === "coordinator" && <Link href="/projects">Projects</Link>}
              {user.role !== "admin" && <Link href="/annotate">{user.role === "participant" ? "Your study" : "Annotate"}</Link>}
              {(user.role === "coordinator" || user.role === "admin") && <Link href="/accounts">Accounts</Link>}
              {/* A study participant has no password: no account page. */}
              {user.role !== "participant" && <Link href="/account">Your account</Link>}
            </nav>
          )}
          {user && (
            <div className="who">
              {user.role === "participant" ? (
                <span>
                  <span className="tag">participant</span>
                  {participant && (
                    <>
                      {" "}
                      {participant.label} <span title={participant.id}>{participant.short}</span>
                    </>
                  )}
                </span>
              ) : (
                <span>
                  {/* An annotator account's role differs by project (annotator in one, judge in another): no badge for it, only for the roles the header acts on. */}
                  {user.name}
                  {user.role !== "annotator" && (
                    <>
                      {" "}
                      <span className="tag">{user.role}</span>
                    </>
                  )}
                </span>
              )}
              <SignOutButton csrfToken={(await headers()).get(CSRF_HEADER) ?? ""} />
            </div>
          )}
        </header>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}
