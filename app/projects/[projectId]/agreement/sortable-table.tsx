"use client";
import { useMemo, useState } from "react";
import { type Kind, formatCell } from "./format";
import styles from "./agreement.module.css";

export interface Column {
  key: string;
  label: string;
  kind: Kind;
  /** What the column means, shown on hover. */
  title?: string;
  /** Draw a bar under proportions (0–1). */
  bar?: boolean;
  /** The row's header cell (first column). */
  rowHeader?: boolean;
  /** Show in monospace (lexelt items). */
  code?: boolean;
}

export type Row = Record<string, string | number | null>;

/**
 * A table the reader can sort by any column (click the heading; again to
 * reverse). Undefined figures ("—") always sort last. Server-rendered in the
 * initial order, so it reads the same without JavaScript.
 */
export function SortableTable({
  columns,
  rows,
  labelledBy,
  initialSort,
  rowKey,
  footer,
  pageSize,
  server,
}: {
  columns: Column[];
  rows: Row[];
  labelledBy: string;
  initialSort?: { key: string; dir: "asc" | "desc" };
  rowKey: string;
  footer?: Row;
  /** Rows shown at a time (all when absent): sorting still covers every row. */
  pageSize?: number;
  /**
   * Sorted and paged on the server: `rows` is one page in order, headings link
   * to `sortHrefs[key]`, the pager to `previous` / `next`.
   */
  server?: { sort: string; dir: "asc" | "desc"; sortHrefs: Record<string, string>; previous: string | null; next: string | null; label: string };
}) {
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState<{ key: string; dir: "asc" | "desc" } | null>(initialSort ?? null);
  const sorted = useMemo(() => {
    if (!sort || server) return rows;
    const col = columns.find((c) => c.key === sort.key);
    const sign = sort.dir === "asc" ? 1 : -1;
    return rows
      .map((r, i) => ({ r, i }))
      .sort((x, y) => {
        const a = x.r[sort.key];
        const b = y.r[sort.key];
        if (a === null || b === null) return a === b ? x.i - y.i : a === null ? 1 : -1;
        const c = col?.kind === "text" ? String(a).localeCompare(String(b), "en", { numeric: true }) : Number(a) - Number(b);
        return c !== 0 ? sign * c : x.i - y.i;
      })
      .map((e) => e.r);
  }, [rows, sort, columns]);

  const pages = pageSize && !server ? Math.max(1, Math.ceil(sorted.length / pageSize)) : 1;
  const at = Math.min(page, pages - 1);
  const visible = pageSize ? sorted.slice(at * pageSize, (at + 1) * pageSize) : sorted;

  const toggle = (key: string, kind: Kind) =>
    setSort((s) => (s && s.key === key ? { key, dir: s.dir === "asc" ? "desc" : "asc" } : { key, dir: kind === "text" ? "asc" : "desc" }));

  return (
    <div className="table-wrap">
      <table aria-labelledby={labelledBy} className={styles.sortable}>
        <thead>
          <tr>
            {columns.map((c) => (
              <HeadCell key={c.key} c={c} server={server} sort={sort} onToggle={() => toggle(c.key, c.kind)} />
            ))}
          </tr>
        </thead>
        <tbody>
          {visible.map((r) => (
            <tr key={String(r[rowKey])}>{columns.map((c) => cellOf(c, r))}</tr>
          ))}
        </tbody>
        {footer && (
          <tfoot>
            <tr>
              {columns.map((c) =>
                c.rowHeader ? (
                  <th key={c.key} scope="row" className={`${styles.rowHead} ${styles.total}`}>
                    {formatCell(c.kind, footer[c.key] ?? null)}
                  </th>
                ) : (
                  cellOf(c, footer, true)
                ),
              )}
            </tr>
          </tfoot>
        )}
      </table>
      {server && (server.previous || server.next) && <ServerPager server={server} />}
      {pages > 1 && (
        <nav aria-label="Table pages" className={styles.pager}>
          <button type="button" className="secondary" disabled={at === 0} onClick={() => setPage(at - 1)}>← Previous</button>
          <span className="muted small">
            Page {at + 1} of {pages} · {sorted.length} rows
          </span>
          <button type="button" className="secondary" disabled={at >= pages - 1} onClick={() => setPage(at + 1)}>Next →</button>
        </nav>
      )}
    </div>
  );
}

type ServerOrder = NonNullable<Parameters<typeof SortableTable>[0]["server"]>;

/** A column's heading: a link to the page sorted by it (sorted on the server), or a button that sorts the rows here. */
function HeadCell({ c, server, sort, onToggle }: { c: Column; server?: ServerOrder; sort: { key: string; dir: "asc" | "desc" } | null; onToggle: () => void }) {
  const active = server ? server.sort === c.key : sort?.key === c.key;
  const dir = server ? server.dir : sort?.dir;
  const mark = (
    <span className={styles.sortMark} aria-hidden="true">
      {active ? (dir === "asc" ? "▴" : "▾") : "↕"}
    </span>
  );
  return (
    <th
      scope="col"
      className={c.kind !== "text" ? "num" : undefined}
      aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined}
      title={c.title}
    >
      {server ? (
        <a href={server.sortHrefs[c.key]} className={styles.sortButton}>
          {c.label}
          {mark}
        </a>
      ) : (
        <button type="button" className={styles.sortButton} onClick={onToggle}>
          {c.label}
          {mark}
        </button>
      )}
    </th>
  );
}

/** A row's cell for one column: its figure formatted, a bar under a proportion, the row's header in the first column. */
function cellOf(c: Column, r: Row, footerRow = false) {
  const v = r[c.key] ?? null;
  const text = formatCell(c.kind, v);
  const body = (
    <>
      {c.code ? <code>{text}</code> : text}
      {c.bar && typeof v === "number" && (
        <span className={styles.cellBar} aria-hidden="true">
          <span style={{ width: `${Math.max(0, Math.min(1, v)) * 100}%` }} />
        </span>
      )}
    </>
  );
  const num = c.kind !== "text";
  if (c.rowHeader)
    return (
      <th key={c.key} scope="row" className={`${styles.rowHead} ${num ? "num" : ""}`}>
        {body}
      </th>
    );
  return (
    <td key={c.key} className={`${num ? "num" : ""} ${c.bar ? styles.barCell : ""} ${footerRow ? styles.total : ""}`} title={v === null ? "Undefined: nothing to compare here" : undefined}>
      {body}
    </td>
  );
}

/** The pages of a table sorted and paged on the server: links to the previous and next page. */
function ServerPager({ server }: { server: ServerOrder }) {
  return (
    <nav aria-label="Table pages" className={styles.pager}>
      {server.previous ? (
        <a className="button secondary" href={server.previous}>← Previous</a>
      ) : (
        <button type="button" className="secondary" disabled>← Previous</button>
      )}
      <span className="muted small">{server.label}</span>
      {server.next ? (
        <a className="button secondary" href={server.next}>Next →</a>
      ) : (
        <button type="button" className="secondary" disabled>Next →</button>
      )}
    </nav>
  );
}
