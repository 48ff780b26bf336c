import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/db";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { listProjects, type ProjectSummary } from "@/lib/server/corpus";
import { CreateProjectForm } from "./create-project-form";

export const metadata: Metadata = { title: "Projects" };
export const dynamic = "force-dynamic";

function ProjectCards({ projects, label }: { projects: ProjectSummary[]; label: string }) {
  return (
    <ul className="cards plain" aria-label={label}>
      {projects.map((p) => (
        <li key={p.id}>
          <Link className="card" href={`/projects/${p.id}`}>
            <span className="title">{p.name}</span>
            <br />
            <span className="muted small">
              {p.lexelts} lexelts · {p.instances} instances
              {p.archivedAt && <> · archived {p.archivedAt.toISOString().slice(0, 10)}</>}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default async function ProjectsPage({ searchParams }: { searchParams: Promise<{ deleted?: string }> }) {
  const actor = await requireCoordinatorPage();
  const { deleted } = await searchParams;
  const projects = listProjects(getDb(), actor);
  const current = projects.filter((p) => !p.archivedAt);
  const archived = projects.filter((p) => p.archivedAt);
  return (
    <>
      <h1>Projects</h1>
      {deleted && (
        <p className="notice ok" role="status">
          Deleted the project “{deleted}”.
        </p>
      )}
      {current.length === 0 ? (
        <p className="muted">{archived.length === 0 ? "No projects yet. Create one, then load a lexelt XML file into it." : "No projects but archived ones."}</p>
      ) : (
        <ProjectCards projects={current} label="Your projects" />
      )}
      {archived.length > 0 && (
        <>
          <h2>Archived</h2>
          <ProjectCards projects={archived} label="Archived projects" />
        </>
      )}
      <h2>New project</h2>
      <div className="panel">
        <CreateProjectForm />
      </div>
    </>
  );
}
