/**
 * A chart on a page (lib/charts): the SVG drawn on the server (no script needed to see it; a
 * narrower drawing of it on a phone, chosen by CSS, the other hidden from everyone), its
 * title as the figure's caption, and its numbers in a table that screen readers read (the SVG's
 * own title and description name it for them too). The SVG text comes from Observable Plot, which
 * writes every label as escaped text.
 */
import type { Chart } from "@/lib/charts/render";
import styles from "./charts.module.css";

export function ChartFigure({ chart, note }: { chart: Chart; note?: string }) {
  return (
    <figure className={styles.figure} aria-labelledby={`${chart.id}-caption`}>
      <figcaption id={`${chart.id}-caption`} className={styles.caption}>
        {chart.title}
        {note ? <span className={styles.note}> {note}</span> : null}
      </figcaption>
      <div className={`${styles.scroll} ${chart.narrow ? styles.wide : ""}`}>
        <div className={styles.svg} data-chart="" dangerouslySetInnerHTML={{ __html: chart.svg }} />
      </div>
      {chart.narrow && (
        <div className={`${styles.scroll} ${styles.narrow}`}>
          <div className={styles.svg} data-chart="" dangerouslySetInnerHTML={{ __html: chart.narrow }} />
        </div>
      )}
      <table className={styles.srOnly}>
        {/* Named by the figure it sits in (its caption is the chart's title), so it never shares a name with the page's own tables. */}
        <caption>The chart&apos;s numbers</caption>
        <thead>
          <tr>
            {chart.table.columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {chart.table.rows.map((r, i) => (
            <tr key={i}>
              {r.map((v, j) => (j === 0 ? <th key={j} scope="row">{v}</th> : <td key={j}>{v}</td>))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
