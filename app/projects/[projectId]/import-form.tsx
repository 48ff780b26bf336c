"use client";
import { useRef, useState } from "react";
import { formatDiagnostic, type Diagnostic } from "@/lib/scoring/diagnostics";
import type { JobView } from "@/lib/server/runtime/jobs";
import { unfinished, useProjectJobs } from "./use-jobs";

type Report = { message: string; repairs?: Diagnostic[] };
const nf = new Intl.NumberFormat("en");

/**
 * Upload a lexelt XML file: the file goes to the server as it is, an import job
 * reads and writes it in a worker thread, and this panel follows the project's
 * import jobs (polling a small JSON route) — its progress bar and counts as it
 * goes, its report when done. Leaving the page does not stop the job.
 */
export function ImportForm({ projectId, initialJobs }: { projectId: number; initialJobs: JobView[] }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; details?: string[] } | null>(null);
  const { jobs, add, cancel } = useProjectJobs(projectId, "lexelt-xml", initialJobs);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setError({ message: "Choose a lexelt XML file to import." });
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
    <form onSubmit={onSubmit}>
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
                {unfinished(j) && (
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

export function jobLine(j: JobView): string {
  if (j.state === "done") return (j.report as Report | null)?.message ?? j.message;
  if (unfinished(j) && j.total > 0) return `${j.message} ${nf.format(j.done)} of ${nf.format(j.total)}`;
  return j.message;
}

/** A job's progress bar and counts while it runs (`unit`: what it writes), its report or refusal when it ends. */
export function JobNotice({ job, onCancel, unit = "instances" }: { job: JobView; onCancel: (id: number) => void; unit?: string }) {
  if (unfinished(job)) {
    const pct = job.total > 0 ? Math.round((100 * job.done) / job.total) : 0;
    const label = `Importing ${job.fileName ?? "the file"}`;
    return (
      <div className="notice job" role="status">
        <div className="job-head">
          <span>
            {label}: {job.state === "queued" ? "waiting to start" : job.message}
          </span>
          <button type="button" className="secondary small" onClick={() => onCancel(job.id)} disabled={job.cancelRequested}>
            {job.cancelRequested ? "Cancelling…" : "Cancel"}
          </button>
        </div>
        <progress aria-label={label} max={Math.max(job.total, 1)} value={job.total > 0 ? job.done : undefined} />
        <div className="small muted">{job.total > 0 ? `${nf.format(job.done)} of ${nf.format(job.total)} ${unit} written (${pct}%)` : "Reading the file…"}</div>
      </div>
    );
  }
  if (job.state === "done") {
    const r = job.report as Report | null;
    return (
      <div className="notice ok" role="status">
        {r?.message ?? job.message}
        {r?.repairs && r.repairs.length > 0 && (
          <details className="repairs">
            <summary>{r.repairs.length} repairs</summary>
            <pre>{r.repairs.map(formatDiagnostic).join("\n")}</pre>
          </details>
        )}
      </div>
    );
  }
  const details = (job.report as { details?: string[] } | null)?.details ?? [];
  return (
    <div className={`notice ${job.state === "cancelled" ? "warn" : "error"}`} role="alert">
      {job.message}
      {details.length > 1 && (
        <details className="repairs">
          <summary>All {details.length} problems</summary>
          <pre>{details.join("\n")}</pre>
        </details>
      )}
    </div>
  );
}
