import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { requireProject, NotFoundError } from "@/lib/server/kernel";
import { type DatasetImportRecord, type DatasetSummary, datasetImportRecords, datasetSummary } from "@/lib/server/datasets";
import { formatDiagnostic } from "@/lib/lexsub/diagnostics";
import { type JobView, listJobs } from "@/lib/server/jobs";
import { answerOf, pageOutcome } from "@/app/_ui/native-answer";
import { DatasetExport, DatasetImportForm } from "./forms";

export const metadata: Metadata = { title: "Datasets" };
export const dynamic = "force-dynamic";

const NAMES: Record<string, string> = { coinco: "CoInCo", swords: "SWORDS", tsar: "TSAR / MLSP" };

export default async function DatasetsPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<{ outcome?: string }> }) {
  const actor = await requireCoordinatorPage();
  const id = Number((await params).projectId);
  const db = getDb();
  let summary: DatasetSummary;
  let name: string;
  let jobs: JobView[];
  let records: DatasetImportRecord[];
  try {
    name = requireProject(db, actor, id, { coordinator: true }).name;
    summary = datasetSummary(db, actor, id);
    jobs = listJobs(db, actor, id, { kinds: ["dataset"], limit: 5 });
    records = datasetImportRecords(db, actor, id);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  // A dataset file posted without JavaScript: the route's answer (app/_ui/native-answer.ts).
  const outcome = answerOf(await pageOutcome(`/projects/${id}/datasets`, (await searchParams).outcome));
  return (
    <>
      <h1>Datasets</h1>
      <p className="muted">
        {name} · CoInCo, SWORDS and TSAR/MLSP files in and out. An imported gold&rsquo;s counts join the Gold tab, its downloads and
        scoring; the formats are described in docs/datasets.md.
      </p>

      <section aria-labelledby="held-heading" style={{ marginBottom: "1rem" }}>
        <h2 id="held-heading">In this project</h2>
        {summary.formats.length === 0 ? (
          <p className="muted">
            No dataset imported yet{summary.instances > 0 ? `: the project's ${summary.instances} instances came from lexelt XML.` : ", and no instances."}
          </p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Format</th>
                  <th scope="col" className="num">Instances</th>
                  <th scope="col" className="num">Gold entries</th>
                </tr>
              </thead>
              <tbody>
                {summary.formats.map((f) => (
                  <tr key={f.format}>
                    <td>{NAMES[f.format] ?? f.format}</td>
                    <td className="num">{f.instances}</td>
                    <td className="num">{f.entries}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="import-heading" className="panel">
        <h2 id="import-heading" style={{ marginTop: 0 }}>Import</h2>
        <DatasetImportForm projectId={id} initialJobs={jobs} outcome={outcome} />
      </section>

      {records.length > 0 && (
        <section aria-labelledby="records-heading" className="panel">
          <h2 id="records-heading" style={{ marginTop: 0 }}>
            Entries not carried as written
          </h2>
          <p className="muted small">What each import repaired or left out, as stored with the import (docs/datasets.md).</p>
          <ul className="plain">
            {records.map((r) => (
              <li key={r.id}>
                <details className="repairs">
                  <summary>
                    {r.fileName}, imported {r.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC: {r.repairs.length} {r.repairs.length === 1 ? "entry" : "entries"} (
                    {r.repairs.filter((x) => x.action === "repaired").length} repaired, {r.repairs.filter((x) => x.action === "left out").length} left out)
                  </summary>
                  <pre>{r.repairs.map(formatDiagnostic).join("\n")}</pre>
                </details>
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="export-heading" className="panel">
        <h2 id="export-heading" style={{ marginTop: 0 }}>Download the gold</h2>
        <p className="muted small">The project&rsquo;s gold now: imported entries plus the annotators&rsquo; responses through the lemma review, exclusions left out.</p>
        <DatasetExport projectId={id} />
      </section>
    </>
  );
}
