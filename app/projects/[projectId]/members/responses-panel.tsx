"use client";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";

type Result =
  | { ok: true; report: { message: string } }
  | { ok: false; message: string; details?: string[] };

/** Bulk responses: download the TSV, or upload one (all or nothing). */
export function ResponsesPanel({ projectId, responses }: { projectId: number; responses: number }) {
  const router = useRouter();
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const url = `/api/projects/${projectId}/responses`;

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setResult({ ok: false, message: "Choose a responses TSV file to import." });
      return;
    }
    setBusy(true);
    setResult(null);
    const body = new FormData();
    body.set("file", file);
    try {
      const res = await fetch(url, { method: "POST", body });
      const json = (await res.json()) as Result;
      setResult(json);
      if (json.ok) {
        if (fileRef.current) fileRef.current.value = "";
        router.refresh();
      }
    } catch {
      setResult({ ok: false, message: "The upload did not reach the server; nothing was imported." });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <p>
        {responses === 0 ? (
          <span className="muted">No responses yet.</span>
        ) : (
          <a className="button secondary" href={url} download>
            Download responses (TSV, {responses})
          </a>
        )}
      </p>
      <form onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="responses-file">Responses TSV file</label>
          <input id="responses-file" ref={fileRef} type="file" name="file" accept=".tsv,.txt,text/tab-separated-values,text/plain" />
          <div className="muted small">
            Columns <code>annotator lexelt instance answer multiword</code>, tab-separated; the answer is up to three substitutes
            joined by <code>;</code>, or <code>NAME</code>, or <code>NIL</code>. Any bad line refuses the whole file.
          </div>
        </div>
        <button type="submit" disabled={busy}>{busy ? "Importing…" : "Import responses"}</button>
        <div aria-live="polite">
          {result && result.ok && (
            <div className="notice ok" role="status">{result.report.message}</div>
          )}
          {result && !result.ok && (
            <div className="notice error" role="alert">
              {result.message}
              {result.details && result.details.length > 1 && (
                <details className="repairs">
                  <summary>All {result.details.length} problems</summary>
                  <pre>{result.details.join("\n")}</pre>
                </details>
              )}
            </div>
          )}
        </div>
      </form>
    </>
  );
}
