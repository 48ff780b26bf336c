"use client";
/** SENSEVAL scores shown: the figures, scorer2's output, its diagnostics and (with a sense map) the SENSEVAL-1 grid. */
import { cFixed } from "@/lib/scorers/shared/table";
import type { SensevalOutcome } from "@/lib/server/scoring";
import { Diagnostics } from "./detail";
import styles from "./scoring.module.css";

export const GRAINS = ["fine", "coarse", "mixed"] as const;
export const TREATMENTS = ["minimal", "generous", "stingy"] as const;

function three(x: number | null): string {
  return x === null ? "n/a" : cFixed(x, 3);
}

function share(x: number | null): string {
  return x === null ? "n/a" : cFixed(100 * x, 2);
}

export function SensevalResult({ result }: { result: SensevalOutcome }) {
  const j = result.json;
  return (
    <div className="panel" aria-label="SENSEVAL result">
      <dl className={styles.figures}>
        <div>
          <dt>Precision</dt>
          <dd title={String(j.precision)}>{three(j.precision)}</dd>
        </div>
        <div>
          <dt>Recall</dt>
          <dd title={String(j.recall)}>{three(j.recall)}</dd>
        </div>
        <div>
          <dt>Attempted</dt>
          <dd title={String(j.attempted)}>{share(j.attempted)} %</dd>
        </div>
        <div>
          <dt>Correct</dt>
          <dd>
            {cFixed(j.correct, 2)}{" "}
            <span className="muted small">
              of {cFixed(j.attemptedInstances, 2)} attempted, {j.totalInstances} in all
            </span>
          </dd>
        </div>
      </dl>
      <h3>scorer2 output</h3>
      <pre className={styles.report} aria-label="scorer2 output">
        {result.text.trim()}
      </pre>
      <Diagnostics list={result.diagnostics} />
      {result.report ? (
        <>
          <h3 id="grid-heading">SENSEVAL-1 grid</h3>
          <p className="muted small">
            Precision, recall and % attempted per treatment; minimal leaves out instances with several key tags; stingy = {result.report.stingy}.
          </p>
          <SensevalGrid report={result.report} />
          {result.reportText && (
            <details className={styles.lexelts}>
              <summary>The grid as text</summary>
              <pre className={styles.report}>{result.reportText}</pre>
            </details>
          )}
        </>
      ) : (
        <p className="muted small">Add a sense map to see the SENSEVAL-1 grid.</p>
      )}
    </div>
  );
}

/** Precision, recall and % attempted per lexelt, grain and treatment, as SENSEVAL-1 planned. */
function SensevalGrid({ report }: { report: NonNullable<SensevalOutcome["report"]> }) {
  return (
    <div className="table-wrap">
      <table className={styles.grid} aria-labelledby="grid-heading">
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>Lexelt</th>
            <th scope="col" rowSpan={2} className="num">Instances</th>
            <th scope="col" rowSpan={2}>Grain</th>
            {TREATMENTS.map((t) => (
              <th key={t} scope="colgroup" colSpan={3} className={styles.group}>
                {t}
              </th>
            ))}
          </tr>
          <tr>
            {TREATMENTS.flatMap((t) => [
              <th key={`${t}p`} scope="col" className={`num ${styles.groupStart}`}>P</th>,
              <th key={`${t}r`} scope="col" className="num">R</th>,
              <th key={`${t}a`} scope="col" className="num">Att %</th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {[...report.lexelts, report.overall].map((row) =>
            GRAINS.map((g, i) => (
              <tr key={`${row.lexelt ?? ""}-${g}`} className={i === 0 ? styles.firstGrain : undefined}>
                {i === 0 && (
                  <th scope="rowgroup" rowSpan={3} className={styles.rowHead}>
                    {row.lexelt ?? "overall"}
                  </th>
                )}
                {i === 0 && (
                  <td rowSpan={3} className="num">
                    {row.instances}
                  </td>
                )}
                <td>{g}</td>
                {TREATMENTS.flatMap((t) => {
                  const c = row.cells[g][t];
                  return [
                    <td key={`${t}p`} className={`num ${styles.groupStart}`} title={String(c.precision)}>{three(c.precision)}</td>,
                    <td key={`${t}r`} className="num" title={String(c.recall)}>{three(c.recall)}</td>,
                    <td key={`${t}a`} className="num" title={String(c.attempted)}>{share(c.attempted)}</td>,
                  ];
                })}
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}
