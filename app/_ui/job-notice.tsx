"use client";
import { formatDiagnostic, type Diagnostic } from "@/lib/lexsub/diagnostics";
import type { JobView } from "@/lib/server/jobs";
import { useScripted } from "./scripted";
import { unfinished } from "./use-jobs";

/** What an import job reports when done (`repairsTitle`: how to title the repairs, default "n repairs"). */
export type JobReport = { message: string; repairs?: Diagnostic[]; repairsTitle?: string };
const nf = new Intl.NumberFormat("en");

/** A job's progress bar and counts while it runs (`unit`: what it writes), its report or refusal when it ends. */
export function JobNotice({ job, onCancel, unit = "instances" }: { job: JobView; onCancel: (id: number) => void; unit?: string }) {
  const scripted = useScripted();
  if (unfinished(job)) {
    const pct = job.total > 0 ? Math.round((100 * job.done) / job.total) : 0;
    const label = `Importing ${job.fileName ?? "the file"}`;
    return (
      <div className="notice job" role="status">
        <div className="job-head">
          <span>
            {label}: {job.state === "queued" ? "waiting to start" : job.message}
          </span>
          {scripted && (
            <button type="button" className="secondary small" onClick={() => onCancel(job.id)} disabled={job.cancelRequested}>
              {job.cancelRequested ? "Cancelling…" : "Cancel"}
            </button>
          )}
        </div>
        {/* Without JavaScript nothing follows the job: the page loads itself again until it ends. */}
        <noscript>
          <meta httpEquiv="refresh" content="2" />
        </noscript>
        <progress aria-label={label} max={Math.max(job.total, 1)} value={job.total > 0 ? job.done : undefined} />
        <div className="small muted">{job.total > 0 ? `${nf.format(job.done)} of ${nf.format(job.total)} ${unit} written (${pct}%)` : "Reading the file…"}</div>
      </div>
    );
  }
  if (job.state === "done") {
    const r = job.report as JobReport | null;
    return (
      <div className="notice ok" role="status">
        {r?.message ?? job.message}
        {r?.repairs && r.repairs.length > 0 && (
          <details className="repairs" open={r.repairsTitle !== undefined && r.repairs.length <= 20}>
            <summary>{r.repairsTitle ?? `${r.repairs.length} ${r.repairs.length === 1 ? "repair" : "repairs"}`}</summary>
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
