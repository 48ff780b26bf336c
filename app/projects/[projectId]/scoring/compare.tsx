"use client";
import { useState } from "react";
import type { RunSummary } from "@/lib/server/scoring";
import { exact, figure, type Measure, measuresOf, pct, ranked } from "./format";
import styles from "./scoring.module.css";

type Kind = "best" | "oot" | "mw";

/**
 * Systems side by side, ranked by a chosen measure (as the task paper's
 * Tables 1 and 4): one column per system, best first; rows for all items and,
 * for best and oot, each part of speech. The best figure of each row is bold.
 */
export function Compare({ runs }: { runs: RunSummary[] }) {
  const kinds = (["best", "oot", "mw"] as const).filter((k) => runs.some((r) => r.run.type === k && r.figures));
  const [kind, setKind] = useState<Kind>(kinds[0] ?? "best");
  const k = kinds.includes(kind as never) ? kind : (kinds[0] ?? "best");
  const measures = measuresOf(k);
  const [measure, setMeasure] = useState<Measure>("recall");
  const m = measures.some((x) => x.key === measure) ? measure : measures[1].key;
  if (kinds.length === 0) return null;
  const cols = ranked(
    runs.filter((r) => r.figures),
    k,
    m,
  );
  const groups: string[] = [];
  for (const r of cols) for (const g of r.byPos) if (!groups.includes(g.group)) groups.push(g.group);
  const rows: { label: string; values: (number | null)[] }[] = [
    { label: "All items", values: cols.map((r) => figure(r.figures, m)) },
    ...groups.map((g) => ({
      label: g === "" ? "(no PoS)" : `PoS ${g}`,
      values: cols.map((r) => figure(r.byPos.find((x) => x.group === g)?.figures ?? null, m)),
    })),
  ];
  return (
    <section aria-labelledby="compare-heading">
      <h2 id="compare-heading">Compare systems</h2>
      <div className={`panel ${styles.compareTools}`}>
        <div className="field">
          <label htmlFor="compare-type">Task</label>
          <select id="compare-type" value={k} onChange={(e) => setKind(e.target.value as Kind)}>
            {kinds.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="compare-measure">Ranked by</label>
          <select id="compare-measure" value={m} onChange={(e) => setMeasure(e.target.value as Measure)}>
            {measures.map((x) => (
              <option key={x.key} value={x.key}>
                {x.label}
              </option>
            ))}
          </select>
        </div>
        <p className="muted small">
          {cols.length} system{cols.length === 1 ? "" : "s"}, best first on all items; the best figure in each row is in bold.
        </p>
      </div>
      <div className="table-wrap">
        <table className={styles.compare} aria-labelledby="compare-heading">
          <thead>
            <tr>
              <th scope="col">{measures.find((x) => x.key === m)!.label}</th>
              {cols.map((r, i) => (
                <th key={r.run.id} scope="col" className="num">
                  <span className="muted">{i + 1}.</span> {r.run.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const top = Math.max(...row.values.map((v) => (v === null ? -Infinity : v)));
              return (
                <tr key={row.label}>
                  <th scope="row" className={styles.rowHead}>
                    {row.label}
                  </th>
                  {row.values.map((v, i) => (
                    <td key={cols[i].run.id} className={`num ${v !== null && v === top ? styles.top : ""}`} title={exact(v)}>
                      {pct(v)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
