"use client";
import { useRef, useState } from "react";
import type { JobView } from "@/lib/server/jobs";
import { JobNotice, type JobReport } from "@/app/_ui/job-notice";
import { useScripted } from "@/app/_ui/scripted";
import { unfinished, useProjectJobs } from "@/app/_ui/use-jobs";

const nf = new Intl.NumberFormat("en");

/**
 * Upload a lexelt XML file: the file goes to the server as it is, an import job
 * reads and writes it in a worker thread, and this panel follows the project's
 * import jobs (polling a small JSON route) — its progress bar and counts as it
 * goes, its report when done. Leaving the page does not stop the job.
 *
 * Without JavaScript the form posts itself to the same route (multipart, the file
 * in "file"), which answers with this page: `outcome` is the route's answer then
 * (app/_ui/native-answer.ts), and the page reloads itself while the job runs.
 */
export function ImportForm({ projectId, initialJobs, outcome }: { projectId: number; initialJobs: JobView[]; outcome?: { ok: boolean; message?: string; details?: string[] } | null }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; details?: string[] } | null>(outcome && !outcome.ok ? { message: outcome.message ?? "", details: outcome.details } : null);
  const { jobs, add, cancel } = useProjectJobs(projectId, "lexelt-xml", initialJobs);
  const scripted = useScripted();

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setError({ message: "Choose a lexelt XML file to import." });
      return;
    }
    if (file.size === 0) {
      setError({ message: `${file.name}: the file is empty; nothing was imported.` });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await fetch(`/api/projects/${projectId}/import`, {
        method: "POST",
        headers: { "Content-Type": "application/xml", "X-File-Name": encodeURIComponent(file.name) },
        body: file,
      });
      const json = (await res.json()) as { ok: true; job: JobView } | { ok: false; message: string; details?: string[] };
      if (json.ok) {
        add(json.job);
        if (fileRef.current) fileRef.current.value = "";
      } else setError({ message: json.message, details: json.details });
    } catch {
      setError({ message: "The upload did not reach the server; nothing was imported." });
    } finally {
      setBusy(false);
    }
  }

  const [latest, ...earlier] = jobs;
  return (
    <form method="post" action={`/api/projects/${projectId}/import`} encType="multipart/form-data" onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor="lexelt-file">Lexelt XML file</label>
        <input id="lexelt-file" ref={fileRef} type="file" name="file" accept=".xml,text/xml,application/xml" />
        <div className="muted small">
          The task&rsquo;s format (&lt;corpus&gt;&lt;lexelt item=&hellip;&gt;&lt;instance id=&hellip;&gt;). Broken character references are repaired and listed. A large file
          imports in the background: you can leave this page and come back.
        </div>
      </div>
      <button type="submit" disabled={busy}>
        {busy ? "Uploading…" : "Import"}
      </button>
      <div aria-live="polite">
        {error && (
          <div className="notice error" role="alert">
            {error.message}
            {error.details && error.details.length > 1 && (
              <details className="repairs">
                <summary>All {error.details.length} problems</summary>
                <pre>{error.details.join("\n")}</pre>
              </details>
            )}
          </div>
        )}
        {!error && latest && <JobNotice job={latest} onCancel={cancel} />}
      </div>
      {earlier.length > 0 && (
        <details className="job-history">
          <summary>Earlier imports ({earlier.length})</summary>
          <ul>
            {earlier.map((j) => (
              <li key={j.id}>
                <strong>{j.fileName ?? `job ${j.id}`}</strong> <span className={`job-state ${j.state}`}>{j.state}</span> — {jobLine(j)}
                {unfinished(j) && scripted && (
                  <button type="button" className="secondary small" onClick={() => void cancel(j.id)} disabled={j.cancelRequested}>
                    Cancel
                  </button>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
    </form>
  );
}

function jobLine(j: JobView): string {
  if (j.state === "done") return (j.report as JobReport | null)?.message ?? j.message;
  if (unfinished(j) && j.total > 0) return `${j.message} ${nf.format(j.done)} of ${nf.format(j.total)}`;
  return j.message;
}
