import type { Metadata } from "next";
import Link from "next/link";
import { getActor } from "@/lib/auth/session";

export const metadata: Metadata = { title: "Not found" };

/** A real 404 (from notFound()): what was asked for is not there, or not the visitor's to see; the way back is their project list. */
export default async function NotFound() {
  const actor = await getActor();
  const list = actor?.kind === "user" ? (actor.role === "annotator" ? "/annotate" : actor.role === "admin" ? "/accounts" : "/projects") : "/signin";
  return (
    <>
      <h1>Not found</h1>
      <p className="notice warn">No such project or page: it does not exist, or you are not a member of it.</p>
      <p>
        <Link href={list}>{actor ? "← Your projects" : "Sign in"}</Link>
      </p>
    </>
  );
}
