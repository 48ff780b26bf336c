import type { ReactNode } from "react";
import Link from "next/link";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { projectAccessRequest } from "@/lib/server/corpus";
import { ProjectTabs } from "./project-tabs";

export default async function ProjectLayout({ children, params }: { children: ReactNode; params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  // A coordinator who is not a member learns whom to ask, and nothing else of the project
  // (lib/server/corpus/projects.ts); anyone else gets the pages' own answer (404 to non-members).
  const ask = projectAccessRequest(getDb(), await getActor(), Number(projectId));
  if (ask) return <NotAMember coordinators={ask.coordinators} />;
  return (
    <>
      <ProjectTabs projectId={Number(projectId)} />
      {children}
    </>
  );
}

function NotAMember({ coordinators }: { coordinators: string[] }) {
  const names = coordinators.length === 0 ? null : coordinators.length === 1 ? coordinators[0] : `${coordinators.slice(0, -1).join(", ")} or ${coordinators[coordinators.length - 1]}`;
  return (
    <>
      <h1>Not a member of this project</h1>
      <div className="notice warn" role="status">
        <p style={{ margin: 0 }}>You are not one of this project&rsquo;s members, so its pages are closed to you.</p>
        <p style={{ margin: "0.5rem 0 0" }}>
          {names ? (
            <>
              Ask {coordinators.length === 1 ? "its coordinator" : "one of its coordinators"}, <strong>{names}</strong>, to add you on its Team page (or
              from the command line: <code>lexgold member add YOUR-NAME --project NAME --role coordinator</code>).
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
