"use client";
import { useRef, useState } from "react";
import type { JobView } from "@/lib/server/jobs";
import { JobNotice } from "@/app/_ui/job-notice";
import { useScripted } from "@/app/_ui/scripted";
import { useProjectJobs } from "@/app/_ui/use-jobs";

type Format = "coinco" | "swords" | "tsar";
const FORMATS: { value: Format; label: string; accept: string; hint: string }[] = [
  { value: "coinco", label: "CoInCo XML", accept: ".xml,text/xml,application/xml", hint: "<document><sent>… with <token id> targets and <subst lemma freq>; substitutes become a gold with counts, the problematic flag is kept." },
  { value: "swords", label: "SWORDS JSON", accept: ".json,.gz,application/json,application/gzip", hint: "contexts, targets with offsets, substitutes and their labels (.json or .json.gz); every label is kept." },
  { value: "tsar", label: "TSAR / MLSP TSV", accept: ".tsv,.txt,text/tab-separated-values,text/plain", hint: "sentence, complex word, annotations (a substitute given by k annotators appears k times); CSV-quoted cells (MLSP 2024's combined file) are read too." },
];

/**
 * Upload a dataset file: an import job reads and writes it in a worker thread, and this
 * form follows the project's dataset jobs (polling a small JSON route) — progress while
 * it runs, the report when done. Leaving the page does not stop the job.
 *
 * Without JavaScript the form posts itself to the same route, which answers with this page
 * (`outcome`: the route's answer, app/_ui/native-answer.ts); every format's field and file
 * types are offered then, as nothing can show them by the format chosen.
 */
export function DatasetImportForm({ projectId, initialJobs, outcome }: { projectId: number; initialJobs: JobView[]; outcome?: { ok: boolean; message?: string; details?: string[] } | null }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [format, setFormat] = useState<Format>("coinco");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; details?: string[] } | null>(outcome && !outcome.ok ? { message: outcome.message ?? "", details: outcome.details } : null);
  const { jobs, add, cancel } = useProjectJobs(projectId, "dataset", initialJobs);
  const scripted = useScripted();
  const f = FORMATS.find((x) => x.value === format)!;

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const file = fileRef.current?.files?.[0];
    if (!file) {
      setError({ message: `Choose a ${f.label} file to import.` });
      return;
    }
    if (file.size === 0) {
      setError({ message: `${file.name}: the file is empty; nothing was imported.` });
      return;
    }
    setBusy(true);
    setError(null);
    const body = new FormData(e.currentTarget);
    try {
      const res = await fetch(`/api/projects/${projectId}/datasets`, { method: "POST", body });
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

  return (
    <form method="post" action={`/api/projects/${projectId}/datasets`} encType="multipart/form-data" onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor="dataset-format">Format</label>
        <select id="dataset-format" name="format" value={format} onChange={(e) => setFormat(e.target.value as Format)}>
          {FORMATS.map((x) => (
            <option key={x.value} value={x.value}>
              {x.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="dataset-file">Dataset file</label>
        <input id="dataset-file" ref={fileRef} type="file" name="file" accept={scripted ? f.accept : FORMATS.map((x) => x.accept).join(",")} />
        {scripted ? (
          <div className="muted small">{f.hint}</div>
        ) : (
          <ul className="muted small">
            {FORMATS.map((x) => (
              <li key={x.value}>
                {x.label}: {x.hint}
              </li>
            ))}
          </ul>
        )}
      </div>
      {(format === "tsar" || !scripted) && (
        <div className="field">
          <label htmlFor="dataset-prefix">Instance id prefix{scripted ? "" : " (TSAR / MLSP)"}</label>
          <input id="dataset-prefix" type="text" name="idPrefix" placeholder="the file name" aria-describedby="dataset-prefix-hint" />
          <div id="dataset-prefix-hint" className="muted small">
            Instances are named prefix:line.
          </div>
        </div>
      )}
      {format === "tsar" && (
        <div className="field">
          <label htmlFor="dataset-language">Lines in one language only</label>
          <input id="dataset-language" type="text" name="onlyLanguage" placeholder="every line" aria-describedby="dataset-language-hint" autoComplete="off" spellCheck={false} />
          <div id="dataset-language-hint" className="muted small">
            For MLSP&rsquo;s combined files (id, language, sentence, …): a language tag such as de imports only that language&rsquo;s lines. Each line is read in its own language either way.
          </div>
        </div>
      )}
      <div className="field">
        <label>
          <input type="checkbox" name="strict" value="1" aria-describedby="dataset-strict-hint" /> Refuse the file if any entry cannot be carried
        </label>
        <div id="dataset-strict-hint" className="muted small">
          Otherwise such an entry (a CoInCo substitute holding &ldquo;;&rdquo;, which separates gold entries) is repaired or left out, and the report lists each with its line.
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
        {!error && jobs[0] && <JobNotice job={jobs[0]} onCancel={cancel} unit="targets" />}
      </div>
    </form>
  );
}

type Report = { ok: true; written: number; lost: string[] } | { ok: false; message: string };

/**
 * The gold in each dataset format: plain download links, as on the Gold tab (the server
 * derives the file in its derivation process while the link waits), and per format a
 * report of what it cannot carry, derived the same way.
 */
export function DatasetExport({ projectId }: { projectId: number }) {
  const [reports, setReports] = useState<Partial<Record<Format, Report>>>({});
  const [busy, setBusy] = useState<Format | null>(null);
  // TSAR: cells exactly as the gold has them (the shared task's files), or spreadsheet-safe (docs/datasets.md).
  const [safeCells, setSafeCells] = useState(false);
  const scripted = useScripted();
  const base = `/api/projects/${projectId}/datasets`;
  const query = (format: Format) => `format=${format}${format === "tsar" && safeCells ? "&cells=spreadsheet-safe" : ""}`;

  async function check(format: Format) {
    setBusy(format);
    try {
      const res = await fetch(`${base}?${query(format)}&report=1`);
      const json = (await res.json()) as Report;
      setReports((r) => ({ ...r, [format]: json }));
    } catch {
      setReports((r) => ({ ...r, [format]: { ok: false, message: "The server did not answer." } }));
    } finally {
      setBusy(null);
    }
  }

  return (
    <ul className="plain dataset-exports">
      {FORMATS.map((f) => {
        const r = reports[f.value];
        return (
          <li key={f.value} className="field">
            <div className="account-actions">
              <a className="button" href={`${base}?${query(f.value)}`} download>
                Download {f.label}
              </a>
              {/* Without JavaScript: the spreadsheet-safe file is a link of its own, as nothing reads the box below. */}
              {!scripted && f.value === "tsar" && (
                <a className="button secondary" href={`${base}?format=tsar&cells=spreadsheet-safe`} download>
                  Download {f.label}, spreadsheet-safe
                </a>
              )}
              {scripted && (
                <button type="button" className="secondary" onClick={() => check(f.value)} disabled={busy === f.value} aria-busy={busy === f.value}>
                  {busy === f.value ? `Working out what ${f.label} cannot carry…` : `What ${f.label} cannot carry`}
                </button>
              )}
            </div>
            {f.value === "tsar" && (
              <div className="small">
                {scripted ? (
                  <>
                    <label>
                      <input
                        type="checkbox"
                        checked={safeCells}
                        onChange={(e) => {
                          setSafeCells(e.target.checked);
                          setReports(({ tsar: _old, ...rest }) => rest);
                        }}
                        aria-describedby="tsar-cells-hint"
                      />{" "}
                      Spreadsheet-safe cells
                    </label>
                    <div id="tsar-cells-hint" className="muted">
                      A cell beginning with =, +, - or @ gets a leading apostrophe, so a spreadsheet shows it instead of running it. Off: every cell
                      exactly as the gold has it, as the shared task&rsquo;s files and scripts have it.
                    </div>
                  </>
                ) : (
                  <div className="muted">
                    Spreadsheet-safe: a cell beginning with =, +, - or @ gets a leading apostrophe, so a spreadsheet shows it instead of running it.
                    The other file has every cell exactly as the gold has it, as the shared task&rsquo;s files and scripts have it.
                  </div>
                )}
              </div>
            )}
            {r && (
              <div className={`notice ${r.ok ? "warn" : "error"} small`} role="status" aria-label={`${f.label} report`}>
                {r.ok ? (
                  <>
                    {r.written} instances written.
                    <ul>
                      {r.lost.map((l) => (
                        <li key={l}>{l}</li>
                      ))}
                    </ul>
                  </>
                ) : (
                  r.message
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
