import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { projectAccessRequest } from "@/lib/server/corpus";

export const metadata: Metadata = { title: "Not found" };

/**
 * A real 404 (from notFound()): what was asked for is not there, or not the visitor's to see; the way back is their project list.
 * A coordinator asking for a page of a project they are not a member of is told whom to ask instead (still a 404), and nothing
 * else of the project (lib/server/corpus/projects.ts `projectAccessRequest`).
 */
export default async function NotFound() {
  const actor = await getActor();
  const list = actor?.kind === "user" ? (actor.role === "annotator" ? "/annotate" : actor.role === "admin" ? "/accounts" : "/projects") : "/signin";
  const project = /^\/projects\/(\d+)(?:[/?]|$)/.exec((await headers()).get("x-lexgold-path") ?? "");
  const ask = project ? projectAccessRequest(getDb(), actor, Number(project[1])) : null;
  if (ask) return <NotAMember coordinators={ask.coordinators} />;
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

/** For a coordinator outside the project: whom to ask to be added. */
function NotAMember({ coordinators }: { coordinators: string[] }) {
  const names = coordinators.length === 1 ? coordinators[0] : `${coordinators.slice(0, -1).join(", ")} or ${coordinators[coordinators.length - 1]}`;
  return (
    <>
      <h1>Not a member of this project</h1>
      <div className="notice warn" role="status">
        <p style={{ margin: 0 }}>You are not one of this project&rsquo;s members, so its pages are closed to you.</p>
        <p style={{ margin: "0.5rem 0 0" }}>
          {coordinators.length > 0 ? (
            <>
              Ask {coordinators.length === 1 ? "its coordinator" : "one of its coordinators"}, <strong>{names}</strong>, to add you on its Team page (or from the command
              line: <code>lexgold member add YOUR-NAME --project NAME --role coordinator</code>).
            </>
          ) : (
            <>
              It has no coordinator yet: whoever runs the study adds one from the command line (<code>lexgold member add USER --project NAME --role coordinator</code>).
            </>
          )}
        </p>
      </div>
      <p>
        <Link href="/projects">← Your projects</Link>
      </p>
    </>
  );
}
