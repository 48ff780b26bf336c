"use client";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import type { JobView } from "@/lib/server/jobs";
import type { ResponseImportPreview } from "@/lib/server/annotate";
import { JobNotice } from "@/app/_ui/job-notice";
import { useScripted } from "@/app/_ui/scripted";
import { useProjectJobs } from "@/app/_ui/use-jobs";
import { ImportPreview, counted, nf } from "./import-preview";

type Failure = { ok: false; message: string; details?: string[] };
type PreviewResult = { ok: true; preview: ResponseImportPreview } | Failure;
type ImportStarted = { ok: true; job: JobView } | Failure;

/**
 * Bulk responses: download the TSV, or upload one. An upload is first
 * previewed (what it would add, update and refuse; checked by the server's
 * jobs worker); nothing changes until the coordinator confirms, and the
 * confirmation applies exactly the preview, as a job the panel follows (its
 * progress, Cancel, its outcome — also after leaving the page and coming back).
 *
 * Without JavaScript the forms post themselves to the same route, which answers with
 * the Team page (`outcome`: its answer, app/_ui/native-answer.ts): the preview, then
 * a form that sends the same file again to apply it.
 */
export function ResponsesPanel({
  projectId,
  responses,
  initialJobs,
  outcome,
}: {
  projectId: number;
  /** What the download holds (refreshed when an import finishes). */
  responses: { count: number; annotators: number; formerMembers: number };
  initialJobs: JobView[];
  outcome?: unknown;
}) {
  const answer = outcome as PreviewResult | ImportStarted | undefined;
  const previewed = answer?.ok && "preview" in answer ? answer.preview : null;
  const router = useRouter();
  const scripted = useScripted();
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [acceptUnassigned, setAcceptUnassigned] = useState(previewed?.acceptUnassigned ?? false);
  const [strict, setStrict] = useState(previewed?.strict ?? false);
  const [preview, setPreview] = useState<ResponseImportPreview | null>(previewed);
  const [failure, setFailure] = useState<Failure | null>(answer && !answer.ok ? answer : null);
  const { jobs, add, cancel } = useProjectJobs(projectId, "responses-import", initialJobs);
  const importing = jobs[0] !== undefined && (jobs[0].state === "queued" || jobs[0].state === "running");
  const url = `/api/projects/${projectId}/responses`;

  async function send(mode: "preview" | "confirm", token?: string): Promise<unknown> {
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setFailure({ ok: false, message: "Choose a responses TSV file to import." });
      return null;
    }
    if (file.size === 0) {
      setFailure({ ok: false, message: `${file.name}: the file is empty; nothing was imported.` });
      return null;
    }
    const body = new FormData();
    body.set("file", file);
    body.set("mode", mode);
    if (acceptUnassigned) body.set("acceptUnassigned", "on");
    if (strict) body.set("strict", "on");
    if (token) body.set("token", token);
    const res = await fetch(url, { method: "POST", body });
    return res.json();
  }

  async function onPreview(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    setPreview(null);
    try {
      const json = (await send("preview")) as PreviewResult | null;
      if (json && json.ok) setPreview(json.preview);
      else if (json) setFailure(json);
    } catch {
      setFailure({ ok: false, message: "The upload did not reach the server; nothing was imported." });
    } finally {
      setBusy(false);
    }
  }

  async function onConfirm() {
    if (!preview) return;
    setBusy(true);
    setFailure(null);
    try {
      const json = (await send("confirm", preview.token)) as ImportStarted | null;
      if (json && json.ok) {
        add(json.job);
        setPreview(null);
        if (fileRef.current) fileRef.current.value = "";
        router.refresh();
      } else if (json) setFailure(json);
    } catch {
      setFailure({ ok: false, message: "The upload did not reach the server; nothing was imported." });
    } finally {
      setBusy(false);
    }
  }

  const stale = preview !== null && (preview.acceptUnassigned !== acceptUnassigned || preview.strict !== strict);
  return (
    <>
      <ResponsesDownload url={url} responses={responses} />
      <form method="post" action={url} encType="multipart/form-data" onSubmit={onPreview}>
        <div className="field">
          <label htmlFor="responses-file">Responses TSV file</label>
          <input id="responses-file" ref={fileRef} type="file" name="file" accept=".tsv,.txt,text/tab-separated-values,text/plain" onChange={() => setPreview(null)} />
          <div className="muted small">
            Columns <code>annotator lexelt instance answer multiword</code>, tab-separated; the answer is up to three substitutes
            joined by <code>;</code>, or <code>NAME</code>, or <code>NIL</code>. Answers people already gave are kept as written, even those the
            workspace refuses for new typing (the target word itself, one letter, punctuation), and counted by the rule they break; a few lines the
            format cannot read are left out and listed. You see what it would change before anything is written.
          </div>
        </div>
        <div className="field">
          <label style={{ fontWeight: 400 }}>
            <input type="checkbox" name="acceptUnassigned" checked={acceptUnassigned} onChange={(e) => setAcceptUnassigned(e.target.checked)} /> Accept answers for unassigned lexelts
          </label>
        </div>
        <div className="field">
          <label style={{ fontWeight: 400 }}>
            <input type="checkbox" name="strict" checked={strict} onChange={(e) => setStrict(e.target.checked)} /> Strict: refuse the whole file if any line is odd or
            any answer breaks the workspace&apos;s rules
          </label>
        </div>
        <button type="submit" disabled={busy || importing} className={preview ? "secondary" : undefined}>
          {busy && !preview ? "Checking…" : preview ? "Preview again" : "Preview import"}
        </button>
      </form>
      <div aria-live="polite">
        {!preview && !failure && jobs[0] && <JobNotice job={jobs[0]} onCancel={cancel} unit="responses" />}
        {failure && (
          <div className="notice error" role="alert">
            {failure.message}
            {failure.details && failure.details.length > 1 && (
              <details className="repairs">
                <summary>All {failure.details.length} problems</summary>
                <pre>{failure.details.join("\n")}</pre>
              </details>
            )}
          </div>
        )}
        {preview && (
          <ImportPreview url={url} preview={preview} stale={stale} busy={busy} scripted={scripted} onConfirm={() => void onConfirm()} onDiscard={() => setPreview(null)} />
        )}
      </div>
    </>
  );
}

/** The download of every response, with how many there are and by whom. */
function ResponsesDownload({ url, responses }: { url: string; responses: { count: number; annotators: number; formerMembers: number } }) {
  return (
    <p style={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: "0.4rem 0.75rem", marginTop: 0 }}>
      {responses.count === 0 ? (
        <span className="muted">No responses yet.</span>
      ) : (
        <>
          <a className="button secondary" href={url} download>
            Download responses (TSV)
          </a>
          <span className="muted small" data-testid="responses-count">
            {counted(responses.count, "response")} by {counted(responses.annotators, "annotator")}
            {responses.formerMembers > 0 && ` (${nf.format(responses.formerMembers)} by accounts no longer on the team)`}
          </span>
        </>
      )}
    </p>
  );
}
