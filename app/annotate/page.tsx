import type { Metadata } from "next";
import Link from "next/link";
import { requireUserPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { myRounds } from "@/lib/server/judgement";
import { annotatorProjects, participantView } from "@/lib/server/annotate";
import { redirect } from "next/navigation";
import { Bar } from "./progress-bar";
import { RefreshIfChanged } from "./refresh-if-changed";
import s from "./workspace.module.css";

export const metadata: Metadata = { title: "Annotate" };
export const dynamic = "force-dynamic";

export default async function AnnotatePage() {
  const actor = await requireUserPage();
  // A study participant has one project, their study's: straight to it.
  const participant = participantView(getDb(), actor);
  if (participant) redirect(`/annotate/${participant.projectId}`);
  const projects = annotatorProjects(getDb(), actor);
  const rounds = myRounds(getDb(), actor);
  return (
    <>
      <RefreshIfChanged />
      <h1>Annotate</h1>
      {rounds.length > 0 && (
        <section className="panel" aria-label="Judgement rounds">
          <h2>Judgement rounds</h2>
          <ul>
            {rounds.map((r) => (
              <li key={r.id}>
                <Link href={`/judge/${r.id}`}>
                  {r.name} ({r.project})
                </Link>{" "}
                <span className="small muted">{r.remaining === 0 ? "done" : `${r.remaining} left`}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {projects.length === 0 ? (
        // A judge who annotates nowhere sees only their rounds above.
        rounds.length === 0 && <p className="muted">You are not in any project yet. Your coordinator adds you to the projects you annotate or judge in.</p>
      ) : (
        <ul className={`plain ${s.projects}`} aria-label="Your projects">
          {projects.map((p) => {
            const finished = p.total > 0 && p.done === p.total;
            return (
              <li key={p.id} className={`panel ${s.project}`}>
                <h2>{p.name}</h2>
                <Bar label={`Progress in ${p.name}`} done={p.done} total={p.total} />
                <p className="small muted">
                  {p.total === 0 ? "Nothing to annotate yet." : `${p.done} of ${p.total} done${finished ? " — finished" : ""}`}
                </p>
                {p.returned > 0 && (
                  <p className="small">
                    <span className="tag">{p.returned} returned to you</span> with a comment from the coordinator: they come first.
                  </p>
                )}
                {p.total > 0 && (
                  <Link className={`button ${finished ? "secondary" : ""}`} href={`/annotate/${p.id}`} aria-label={`${p.returned > 0 ? "Open returned" : finished ? "Review" : p.done > 0 ? "Continue" : "Start"} ${p.name}`}>
                    {p.returned > 0 ? "Open returned" : finished ? "Review" : p.done > 0 ? "Continue" : "Start"}
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </>
  );
}
