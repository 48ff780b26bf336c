/** The Progress page's small parts: its query, links that change it, a pager and a bar. */
import Link from "next/link";
import styles from "./progress.module.css";

export interface Search {
  /** Lexelt search. */
  q?: string;
  page?: string;
  /** Annotator search and page. */
  who?: string;
  apage?: string;
  /** Drill-downs: one lexelt's annotators, or one annotator's lexelts. */
  lexelt?: string;
  annotator?: string;
  /** Page of the annotator drill-down, and of the lexelt drill-down. */
  lpage?: string;
  dpage?: string;
}

/** A link to this page with some query parameters changed (undefined or "" removes one). */
export function hrefWith(base: string, sp: Search, change: Partial<Search>): string {
  const merged: Record<string, string | undefined> = { ...sp, ...change };
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(merged)) if (v !== undefined && v !== "") qs.set(k, v);
  const s = qs.toString();
  return s ? `${base}?${s}` : base;
}

export function Pager({ label, page, pages, total, href }: { label: string; page: number; pages: number; total: number; href: (page: number) => string }) {
  if (pages <= 1) return <p className="muted small">{total} {total === 1 ? "row" : "rows"}</p>;
  return (
    <nav aria-label={label} className={styles.pager}>
      {page > 1 ? <Link href={href(page - 1)} rel="prev">← Previous</Link> : <span className="muted">← Previous</span>}
      <span className="muted small">
        Page {page} of {pages} · {total} rows
      </span>
      {page < pages ? <Link href={href(page + 1)} rel="next">Next →</Link> : <span className="muted">Next →</span>}
    </nav>
  );
}

function percent(done: number, total: number): number {
  return total === 0 ? 0 : Math.round((100 * done) / total);
}

export function Bar({ done, total, label }: { done: number; total: number; label: string }) {
  const pct = percent(Math.min(done, total), total);
  return (
    <div className={styles.barRow}>
      <div className={styles.bar} role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={total} aria-valuenow={Math.min(done, total)} aria-valuetext={`${pct}%`}>
        <div className={styles.fill} style={{ width: `${pct}%` }} />
      </div>
      <span className={styles.pct}>{pct}%</span>
    </div>
  );
}
