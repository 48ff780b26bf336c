"use client";
import { useState } from "react";
import type { SensevalOutcome } from "@/lib/server/scoring";
import { base, call } from "./client";
import styles from "./scoring.module.css";
import { GRAINS, SensevalResult, TREATMENTS } from "./senseval-result";

type Answer = { ok: true; result: SensevalOutcome } | { ok: false; message: string; errors?: Record<string, string>; details?: string[] };

/**
 * SENSEVAL sense-tagged answers scored against a key (issue #7): scorer2's
 * output and the SENSEVAL-1 grid. Scored on submit; nothing is stored.
 * Without JavaScript the form posts itself to the route, which answers with
 * this page showing the scores (`outcome`: its answer, app/_ui/native-answer.ts).
 */
export function SensevalSection({ projectId, outcome }: { projectId: number; outcome?: unknown }) {
  const answer = outcome as Answer | undefined;
  const [busy, setBusy] = useState(false);
  const [treatment, setTreatment] = useState<(typeof TREATMENTS)[number]>("generous");
  const [result, setResult] = useState<SensevalOutcome | null>(answer?.ok ? answer.result : null);
  const [error, setError] = useState<{ message: string; errors?: Record<string, string>; details?: string[] } | null>(answer && !answer.ok ? answer : null);
  const errs = error?.errors ?? {};

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const missing = (["answers", "key"] as const).filter((f) => !((form.get(f) as File | null)?.name ?? ""));
    if (missing.length > 0) {
      setError({ message: `Choose the ${missing.join(" and ")} file${missing.length > 1 ? "s" : ""}.`, errors: Object.fromEntries(missing.map((f) => [f, "Choose a file."])) });
      return;
    }
    setBusy(true);
    setError(null);
    const r = await call<{ result: SensevalOutcome }>(`${base(projectId)}/senseval`, { method: "POST", body: form });
    setBusy(false);
    if (r.ok) setResult(r.result);
    else {
      setResult(null);
      setError(r);
    }
  }

  return (
    <section aria-labelledby="senseval-heading" className={styles.senseval}>
      <h2 id="senseval-heading">SENSEVAL sense tagging</h2>
      <p className="muted small">
        Score sense-tagged answers against a SENSEVAL key the way scorer2 does, with the grid SENSEVAL-1 planned. The files are scored when you
        submit and are not stored.
      </p>
      <form className="panel" method="post" action={`${base(projectId)}/senseval`} encType="multipart/form-data" onSubmit={onSubmit} noValidate>
        <div className={styles.uploadGrid}>
          <div className="field">
            <label htmlFor="sv-answers">Answers</label>
            <input id="sv-answers" type="file" name="answers" aria-invalid={errs.answers ? true : undefined} />
            <div className="muted small">
              <code>lexelt instance tag[/weight] …</code>
            </div>
            {errs.answers && <div className="field-error">{errs.answers}</div>}
          </div>
          <div className="field">
            <label htmlFor="sv-key">Key</label>
            <input id="sv-key" type="file" name="key" aria-invalid={errs.key ? true : undefined} />
            <div className="muted small">
              <code>lexelt instance tag [tag …]</code>
            </div>
            {errs.key && <div className="field-error">{errs.key}</div>}
          </div>
          <div className="field">
            <label htmlFor="sv-map">Sense map (optional)</label>
            <input id="sv-map" type="file" name="sensemap" aria-invalid={errs.sensemap ? true : undefined} />
            <div className="muted small">Needed for coarse and mixed, and for the grid.</div>
            {errs.sensemap && <div className="field-error">{errs.sensemap}</div>}
          </div>
        </div>
        <div className={styles.uploadGrid}>
          <div className="field">
            <label htmlFor="sv-grain">Granularity</label>
            <select id="sv-grain" name="granularity" defaultValue="fine">
              {GRAINS.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </div>
          <fieldset className={`field ${styles.treatments}`}>
            <legend>Treatment of several key tags</legend>
            {TREATMENTS.map((t) => (
              <label key={t} className={styles.radio}>
                <input type="radio" name="treatment" value={t} checked={treatment === t} onChange={() => setTreatment(t)} /> {t}
                {t === "generous" && <span className="muted small"> (scorer2)</span>}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="sv-stingy">Stingy reading</label>
            <select id="sv-stingy" name="stingy" defaultValue="product">
              <option value="product">product</option>
              <option value="overlap">overlap</option>
            </select>
            <div className="muted small">Used by stingy and by the grid.</div>
          </div>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Scoring…" : "Score"}
        </button>
        <div aria-live="polite">
          {error && (
            <div className="notice error" role="alert">
              {error.message}
              {error.details && error.details.length > 0 && <pre className={styles.report}>{error.details.join("\n")}</pre>}
            </div>
          )}
        </div>
      </form>

      {result && result.json && <SensevalResult result={result} />}
    </section>
  );
}
