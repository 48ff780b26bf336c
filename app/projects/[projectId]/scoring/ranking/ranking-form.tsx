"use client";
import { useState } from "react";
import type { RankingOutcome } from "@/lib/server/scoring";
import { useScripted } from "@/app/_ui/scripted";
import { base, call } from "../client";
import styles from "../scoring.module.css";
import { RankingResult } from "./ranking-result";

const BENCHMARKS = [
  { value: "tsar", label: "TSAR-2022 / MLSP", gold: "Gold TSV: sentence, complex word, annotations…", runs: "sentence<TAB>complex word<TAB>substitutes, best first" },
  { value: "swords", label: "SWORDS", gold: "SWORDS dataset JSON (.json or .json.gz)", runs: '{"substitutes": {target id: [[substitute, score], …]}}' },
  { value: "gap", label: "GAP, P@1, P@3, R@10", gold: "Gold file (lexelt id :: sub n;…) or TSAR gold TSV; leave empty for the project's gold", runs: "oot, lst (RESULT lines), GermEval rank (lexelt id :::: a;b;…), TSV or SWORDS JSON" },
] as const;

type Benchmark = (typeof BENCHMARKS)[number]["value"];

type Answer = { ok: true; result: RankingOutcome } | { ok: false; message: string; errors?: Record<string, string>; details?: string[] };

/**
 * Upload ranked outputs and a gold; the runs come back ranked by the benchmark's headline measure.
 * Without JavaScript the form posts itself to the route, which answers with this page showing the
 * ranking (`outcome`: its answer, app/_ui/native-answer.ts); every benchmark's options are offered then.
 */
export function RankingForm({ projectId, outcome }: { projectId: number; outcome?: unknown }) {
  const answer = outcome as Answer | undefined;
  const [benchmark, setBenchmark] = useState<Benchmark>("tsar");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<RankingOutcome | null>(answer?.ok ? answer.result : null);
  const [error, setError] = useState<{ message: string; errors?: Record<string, string>; details?: string[] } | null>(answer && !answer.ok ? answer : null);
  const scripted = useScripted();
  const errs = error?.errors ?? {};
  const b = BENCHMARKS.find((x) => x.value === benchmark)!;

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const runs = form.getAll("runs").filter((f) => f instanceof File && f.name !== "");
    const gold = form.get("gold");
    const missing: Record<string, string> = {};
    if (runs.length === 0) missing.runs = "Choose at least one ranked output.";
    if (benchmark !== "gap" && !(gold instanceof File && gold.name !== "")) missing.gold = "Choose the gold file.";
    if (Object.keys(missing).length > 0) {
      setError({ message: Object.values(missing).join(" "), errors: missing });
      return;
    }
    setBusy(true);
    setError(null);
    const r = await call<{ result: RankingOutcome }>(`${base(projectId)}/ranking`, { method: "POST", body: form });
    setBusy(false);
    if (r.ok) setResult(r.result);
    else {
      setResult(null);
      setError(r);
    }
  }
  return (
    <section aria-labelledby="ranking-heading">
      <h2 id="ranking-heading" className="srOnly">
        Score ranked outputs
      </h2>
      <form className="panel" method="post" action={`${base(projectId)}/ranking`} encType="multipart/form-data" onSubmit={onSubmit} noValidate>
        <div className={styles.uploadGrid}>
          <div className="field">
            <label htmlFor="rk-benchmark">Benchmark</label>
            <select id="rk-benchmark" name="benchmark" value={benchmark} onChange={(e) => setBenchmark(e.target.value as Benchmark)}>
              {BENCHMARKS.map((x) => (
                <option key={x.value} value={x.value}>
                  {x.label}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="rk-gold">Gold{benchmark === "gap" ? " (optional)" : ""}</label>
            <input id="rk-gold" type="file" name="gold" aria-invalid={errs.gold ? true : undefined} />
            {scripted ? (
              <div className="muted small">{b.gold}</div>
            ) : (
              <ul className="muted small">
                {BENCHMARKS.map((x) => (
                  <li key={x.value}>
                    {x.label}: {x.gold}
                  </li>
                ))}
              </ul>
            )}
            {errs.gold && <div className="field-error">{errs.gold}</div>}
          </div>
          <div className="field">
            <label htmlFor="rk-runs">Ranked outputs</label>
            <input id="rk-runs" type="file" name="runs" multiple aria-invalid={errs.runs ? true : undefined} />
            {scripted ? (
              <div className="muted small">
                <code>{b.runs}</code> — up to 8 files
              </div>
            ) : (
              <ul className="muted small">
                {BENCHMARKS.map((x) => (
                  <li key={x.value}>
                    {x.label}: <code>{x.runs}</code>
                  </li>
                ))}
                <li>Up to 8 files.</li>
              </ul>
            )}
            {errs.runs && <div className="field-error">{errs.runs}</div>}
          </div>
        </div>
        <div className={styles.uploadGrid}>
          {(benchmark === "tsar" || !scripted) && (
            <label className={styles.radio}>
              <input type="checkbox" name="mlsp" /> Keep the complex word in the gold (MLSP 2024{scripted ? "" : "; TSAR only"})
            </label>
          )}
          {(benchmark === "gap" || !scripted) && (
            <>
              <div className="field">
                <label htmlFor="rk-variant">GAP reference{scripted ? "" : " (GAP only)"}</label>
                <select id="rk-variant" name="variant" defaultValue="melamud">
                  <option value="melamud">melamud (lst_gap.py)</option>
                  <option value="lexsubgen">lexsubgen (gap_score)</option>
                  <option value="swords">swords (eval.py)</option>
                </select>
              </div>
              <label className={styles.radio}>
                <input type="checkbox" name="noMwe" /> no-mwe (drop multiword candidates{scripted ? "" : "; GAP only"})
              </label>
            </>
          )}
          <label className={styles.radio}>
            <input type="checkbox" name="repaired" /> Repaired (where the reference script stops or misreads)
          </label>
        </div>
        <button type="submit" disabled={busy}>
          {busy ? "Scoring…" : "Score"}
        </button>
        <div aria-live="polite">
          {error && (
            <div className="notice error" role="alert">
              {error.message}
              {error.details && error.details.length > 1 && <pre className={styles.report}>{error.details.join("\n")}</pre>}
            </div>
          )}
        </div>
      </form>
      {result && result.table && <RankingResult result={result} />}
    </section>
  );
}
