"use client";
/** Ranked outputs scored: the runs ranked by the benchmark's headline measure, the diagnostics, and each run's report as the reference scripts print it. */
import type { RankingOutcome } from "@/lib/server/scoring";
import { formatFigure } from "@/lib/scorers/ranking/format";
import { Diagnostics } from "../detail";
import styles from "../scoring.module.css";

export function RankingResult({ result }: { result: RankingOutcome }) {
  const t = result.table;
  return (
    <div className="panel" aria-label="Ranking result">
      <h2>
        {t.benchmark.toUpperCase()} — runs ranked by {t.rankedBy}
      </h2>
      <p className="muted small">
        Against {t.gold}; {t.settings.join("; ")}.
      </p>
      <div className="table-wrap">
        <table className={styles.results}>
          <thead>
            <tr>
              <th scope="col" className="num">
                Rank
              </th>
              <th scope="col">Run</th>
              <th scope="col" className="num">
                Items
              </th>
              {t.columns.map((c) => (
                <th key={c} scope="col" className={`num${c === t.rankedBy ? ` ${styles.sorted}` : ""}`}>
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {t.rows.map((r, i) => (
              <tr key={r.run}>
                <td className="num">{i + 1}</td>
                <th scope="row" className={styles.rowHead}>
                  {r.run} <span className="muted small">({r.format})</span>
                </th>
                <td className="num">{r.items}</td>
                {r.values.map((v, j) => (
                  <td key={t.columns[j]} className={`num${t.columns[j] === t.rankedBy ? ` ${styles.sorted}` : ""}`} title={v === null ? undefined : String(v)}>
                    {formatFigure(v, t.digits)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {result.diagnostics.length > 0 && <Diagnostics list={result.diagnostics} />}
      <details>
        <summary>As the reference scripts print it</summary>
        {t.rows.map((r) => (
          <pre key={r.run} className={styles.report} aria-label={`${r.run} report`}>
            {`# ${r.run}\n${r.report}`}
          </pre>
        ))}
      </details>
    </div>
  );
}
