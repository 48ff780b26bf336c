import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/db";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { listProjects } from "@/lib/server/corpus";
import { CreateProjectForm } from "./create-project-form";

export const metadata: Metadata = { title: "Projects" };
export const dynamic = "force-dynamic";

export default async function ProjectsPage() {
  const actor = await requireCoordinatorPage();
  const projects = listProjects(getDb(), actor);
  return (
    <>
      <h1>Projects</h1>
      {projects.length === 0 ? (
        <p className="muted">No projects yet. Create one, then load a lexelt XML file into it.</p>
      ) : (
        <ul className="cards plain" aria-label="Your projects">
          {projects.map((p) => (
            <li key={p.id}>
              <Link className="card" href={`/projects/${p.id}`}>
                <span className="title">{p.name}</span>
                <br />
                <span className="muted small">
                  {p.lexelts} lexelts · {p.instances} instances
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <h2>New project</h2>
      <div className="panel">
        <CreateProjectForm />
      </div>
    </>
  );
}
