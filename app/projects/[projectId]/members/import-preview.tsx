"use client";
/** A responses import previewed: the counts, the first lines of each kind, the rules broken, and the confirmation (with or without JavaScript). */
import type { PreviewRow, ResponseImportPreview } from "@/lib/server/annotate";

export const nf = new Intl.NumberFormat("en");
export const counted = (n: number, word: string) => `${nf.format(n)} ${word}${n === 1 ? "" : "s"}`;

export function ImportPreview({
  url,
  preview,
  stale,
  busy,
  scripted,
  onConfirm,
  onDiscard,
}: {
  url: string;
  preview: ResponseImportPreview;
  /** The options changed since the preview. */
  stale: boolean;
  busy: boolean;
  scripted: boolean;
  onConfirm: () => void;
  onDiscard: () => void;
}) {
  return (
      <section className="notice job" aria-label="Import preview">
        <p style={{ margin: 0 }}>{preview.message}</p>
        <ul className="preview-counts">
          <li>
            <strong>{nf.format(preview.add)}</strong> to add
          </li>
          <li>
            <strong>{nf.format(preview.update)}</strong> to update (overwriting the stored answer)
          </li>
          <li>
            <strong>{nf.format(preview.unchanged)}</strong> unchanged
          </li>
          <li>
            <strong>{nf.format(preview.refuse)}</strong> refused
          </li>
        </ul>
        <PreviewTable title="To add" rows={preview.first.add} total={preview.add} />
        <PreviewTable title="To update" rows={preview.first.update} total={preview.update} extra="Replaces" />
        <PreviewTable title="Refused" rows={preview.first.refuse} total={preview.refuse} extra="Why" />
        <RuleBreaks rules={preview.rules} />
        {preview.skipped.length > 0 && (
          <details className="repairs" open={preview.skipped.length <= 5}>
            <summary>Left out: {counted(preview.skipped.length, "line")} the import cannot read</summary>
            <pre>{preview.skipped.map((d) => `${d.file}:${d.line}: ${d.message}`).join("\n")}</pre>
          </details>
        )}
        {preview.warnings.length > 0 && (
          <details className="repairs" open={preview.warnings.length <= 5}>
            <summary>Reported: {counted(preview.warnings.length, "note")} on answers kept as written</summary>
            <pre>{preview.warnings.map((d) => (d.line > 0 ? `${d.file}:${d.line}: ${d.message}` : `${d.file}: ${d.message}`)).join("\n")}</pre>
          </details>
        )}
        {stale && <p className="small">You changed the option: preview again before importing.</p>}
        {scripted ? (
          <div style={{ display: "flex", gap: "0.5rem", flexWrap: "wrap" }}>
            <button type="button" onClick={onConfirm} disabled={busy || stale || preview.add + preview.update === 0}>
              {busy ? "Importing…" : `Import ${counted(preview.add + preview.update, "change")}`}
            </button>
            <button type="button" className="secondary" onClick={onDiscard} disabled={busy}>
              Discard
            </button>
          </div>
        ) : (
          <ConfirmWithoutScript url={url} preview={preview} />
        )}
      </section>
  );
}

/**
 * Without JavaScript the page cannot hold the file between the preview and its confirmation: the same file is
 * chosen again and sent with the preview's token and options; the server applies it only if it would do exactly
 * what was previewed.
 */
function ConfirmWithoutScript({ url, preview }: { url: string; preview: ResponseImportPreview }) {
  if (preview.add + preview.update === 0) return null;
  return (
    <form method="post" action={url} encType="multipart/form-data" aria-label="Import the previewed file">
      <input type="hidden" name="mode" value="confirm" />
      <input type="hidden" name="token" value={preview.token} />
      {preview.acceptUnassigned && <input type="hidden" name="acceptUnassigned" value="on" />}
      {preview.strict && <input type="hidden" name="strict" value="on" />}
      <div className="field">
        <label htmlFor="responses-file-again">The same file again</label>
        <input id="responses-file-again" type="file" name="file" required accept=".tsv,.txt,text/tab-separated-values,text/plain" />
      </div>
      <div style={{ display: "flex", gap: "0.5rem", flexWrap: "wrap", alignItems: "center" }}>
        <button type="submit">Import {counted(preview.add + preview.update, "change")}</button>
        <a href="?#responses">Discard</a>
      </div>
    </form>
  );
}

/** Answers kept as written that break a rule of the workspace: how many per rule, with the first few. */
function RuleBreaks({ rules }: { rules: ResponseImportPreview["rules"] }) {
  if (rules.length === 0) return null;
  const total = rules.reduce((n, c) => n + c.count, 0);
  return (
    <div className="table-wrap">
      <table>
        <caption style={{ textAlign: "left" }}>
          Kept as written, breaking the workspace&apos;s rules ({nf.format(total)}; the Gold tab lists them after the import)
        </caption>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Answers</th>
            <th scope="col">First lines</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((c) => (
            <tr key={c.rule}>
              <td>{c.rule}</td>
              <td>{nf.format(c.count)}</td>
              <td>{c.examples.map((e) => `line ${e.line}: ${e.value}`).join(" · ")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function PreviewTable({ title, rows, total, extra }: { title: string; rows: PreviewRow[]; total: number; extra?: "Replaces" | "Why" }) {
  if (rows.length === 0) return null;
  return (
    <div className="table-wrap">
      <table>
        <caption style={{ textAlign: "left" }}>
          {title} {total > rows.length ? `(first ${rows.length} of ${nf.format(total)})` : `(${total})`}
        </caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Annotator</th>
            <th scope="col">Lexelt</th>
            <th scope="col">Instance</th>
            <th scope="col">Answer</th>
            {extra && <th scope="col">{extra}</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.line}>
              <td>{r.line}</td>
              <td>{r.annotator}</td>
              <td>{r.lexelt}</td>
              <td>{r.instanceId}</td>
              <td>{r.answer}</td>
              {extra && <td>{extra === "Replaces" ? r.was : r.reason}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
