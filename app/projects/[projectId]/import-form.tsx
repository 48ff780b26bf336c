"use client";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { formatDiagnostic, type Diagnostic } from "@/lib/scoring/diagnostics";

type Result =
  | { ok: true; report: { message: string; repairs: Diagnostic[] } }
  | { ok: false; message: string; details?: string[] };

export function ImportForm({ projectId }: { projectId: number }) {
  const router = useRouter();
  const fileRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setResult({ ok: false, message: "Choose a lexelt XML file to import." });
      return;
    }
    setBusy(true);
    setResult(null);
    const body = new FormData();
    body.set("file", file);
    try {
      const res = await fetch(`/api/projects/${projectId}/import`, { method: "POST", body });
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
    <form onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor="lexelt-file">Lexelt XML file</label>
        <input id="lexelt-file" ref={fileRef} type="file" name="file" accept=".xml,text/xml,application/xml" />
        <div className="muted small">The task&rsquo;s format (&lt;corpus&gt;&lt;lexelt item=&hellip;&gt;&lt;instance id=&hellip;&gt;). Broken character references are repaired and listed.</div>
      </div>
      <button type="submit" disabled={busy}>
        {busy ? "Importing…" : "Import"}
      </button>
      <div aria-live="polite">
        {result && result.ok && (
          <div className="notice ok" role="status">
            {result.report.message}
            {result.report.repairs.length > 0 && (
              <details className="repairs">
                <summary>{result.report.repairs.length} repairs</summary>
                <pre>{result.report.repairs.map(formatDiagnostic).join("\n")}</pre>
              </details>
            )}
          </div>
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
  );
}
