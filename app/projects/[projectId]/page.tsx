import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/db";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { NotFoundError } from "@/lib/server/kernel";
import Link from "next/link";
import { projectOverview, type ProjectOverview } from "@/lib/server/corpus";
import { listJobs, type JobView } from "@/lib/server/jobs";
import { answerOf, pageOutcome } from "@/app/_ui/native-answer";
import { ImportForm } from "./import-form";
import { ProjectSettings } from "./project-settings";
import { renameProjectAction, setArchivedAction, setLanguageAction } from "./actions";

export const metadata: Metadata = { title: "Project" };
export const dynamic = "force-dynamic";

/** Lexelts per page: the page stays bounded whatever the corpus. */
const PAGE_SIZE = 50;

const POS_NAMES: Record<string, string> = { n: "noun", v: "verb", a: "adjective", r: "adverb" };

export default async function ProjectPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<{ q?: string; page?: string; outcome?: string }> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  const sp = await searchParams;
  let p: ProjectOverview;
  let jobs: JobView[];
  try {
    p = projectOverview(getDb(), actor, Number(projectId), { q: sp.q, page: Number(sp.page ?? 1), pageSize: PAGE_SIZE });
    jobs = listJobs(getDb(), actor, p.id, { kinds: ["lexelt-xml"], limit: 6 });
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  // A lexelt XML file posted without JavaScript: the import route's answer (app/_ui/native-answer.ts).
  const outcome = answerOf(await pageOutcome(`/projects/${p.id}`, sp.outcome));
  const q = (sp.q ?? "").trim();
  const shown = { rows: p.lexelts, page: p.page, pages: p.pages, total: p.matched };
  const pageHref = (n: number) => `/projects/${p.id}?${new URLSearchParams({ ...(q ? { q } : {}), page: String(n) })}`;
  return (
    <>
      <h1>{p.name}</h1>
      <p className="muted">
        {p.lexeltCount} {p.lexeltCount === 1 ? "lexelt" : "lexelts"} · {p.totalInstances} {p.totalInstances === 1 ? "instance" : "instances"}
      </p>
      {p.archivedAt && (
        <p className="notice warn" role="status">
          Archived on {p.archivedAt.toISOString().slice(0, 10)}: annotators do not see this project and cannot answer in it. Everything is kept;{" "}
          <a href="#project-heading">bring it back</a> below.
        </p>
      )}

      <h2 id="import-heading">Load lexelt XML</h2>
      <div className="panel">
        <ImportForm projectId={p.id} initialJobs={jobs} outcome={outcome} />
      </div>

      <h2 id="lexelts-heading">Lexelts</h2>
      {p.lexeltCount === 0 ? (
        <p className="muted">No lexelts yet: load a lexelt XML file above.</p>
      ) : (
        <>
        {p.lexeltCount > PAGE_SIZE && (
          <form method="get" role="search" aria-label="Lexelts" style={{ display: "flex", gap: "0.5rem", alignItems: "center", flexWrap: "wrap", marginBottom: "0.5rem" }}>
            <label style={{ fontWeight: 400 }}>
              Find lexelt <input type="search" name="q" defaultValue={q} />
            </label>
            <button type="submit" className="secondary">Find</button>
          </form>
        )}
        <div className="table-wrap">
          <table aria-labelledby="lexelts-heading">
            <thead>
              <tr>
                <th scope="col">Lexelt</th>
                <th scope="col">Lemma</th>
                <th scope="col">PoS</th>
                <th scope="col" className="num">Instances</th>
              </tr>
            </thead>
            <tbody>
              {shown.rows.map((l) => (
                <tr key={l.id}>
                  <td>
                    <code>{l.item}</code>
                  </td>
                  <td>{l.lemma}</td>
                  <td>
                    {POS_NAMES[l.pos] ?? l.pos}
                    {l.originalPos && <span className="muted small"> (originally {POS_NAMES[l.originalPos] ?? l.originalPos})</span>}
                  </td>
                  <td className="num">{l.instances}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  Total
                </th>
                <td className="num">{p.totalInstances}</td>
              </tr>
            </tfoot>
          </table>
        </div>
        {shown.total === 0 && <p className="muted">No lexelt matches “{q}”.</p>}
        {shown.pages > 1 && (
          <nav aria-label="Lexelt pages" style={{ display: "flex", gap: "1rem", alignItems: "center", flexWrap: "wrap", margin: "0.5rem 0" }}>
            {shown.page > 1 ? <Link href={pageHref(shown.page - 1)} rel="prev">← Previous</Link> : <span className="muted">← Previous</span>}
            <span className="muted small">Page {shown.page} of {shown.pages} · {shown.total} lexelts</span>
            {shown.page < shown.pages ? <Link href={pageHref(shown.page + 1)} rel="next">Next →</Link> : <span className="muted">Next →</span>}
          </nav>
        )}
        </>
      )}

      {p.imports.length > 0 && (
        <>
          <h2 id="imports-heading">Import history</h2>
          <div className="table-wrap">
            <table aria-labelledby="imports-heading">
              <thead>
                <tr>
                  <th scope="col">File</th>
                  <th scope="col">When</th>
                  <th scope="col" className="num">Instances added</th>
                  <th scope="col" className="num">Already present</th>
                  <th scope="col" className="num">Repairs</th>
                </tr>
              </thead>
              <tbody>
                {p.imports.map((i) => (
                  <tr key={i.id}>
                    <td>{i.fileName}</td>
                    <td>{i.createdAt.toISOString().replace("T", " ").slice(0, 16)} UTC</td>
                    <td className="num">{i.instancesAdded}</td>
                    <td className="num">{i.instancesAlreadyPresent}</td>
                    <td className="num">{i.repairs}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}

      <h2 id="project-heading">Project</h2>
      <ProjectSettings
        projectId={p.id}
        name={p.name}
        language={p.language}
        archivedAt={p.archivedAt?.toISOString() ?? null}
        actions={{ rename: renameProjectAction.bind(null, p.id), setLanguage: setLanguageAction.bind(null, p.id), archive: setArchivedAction.bind(null, p.id, p.archivedAt === null) }}
      />
    </>
  );
}
