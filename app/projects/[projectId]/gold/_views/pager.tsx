import Link from "next/link";
import { plural } from "@/app/_ui/format";
import type { Paged } from "@/lib/server/gold";
import styles from "../gold.module.css";

/** "1–50 of 1,204 forms" and the previous and next page. */
export function Pager({ page, hrefFor, what, label }: { page: Paged<unknown>; hrefFor: (p: number) => string; what: [string, string]; label: string }) {
  const from = page.total === 0 ? 0 : page.start + 1;
  const to = page.start + page.rows.length;
  return (
    <nav className={styles.pager} aria-label={label}>
      <span className="muted small">
        {page.total === 0 ? `No ${what[1]}` : `${from}–${to} of ${plural(page.total, what[0], what[1])}`}
      </span>
      {page.pages > 1 && (
        <span className={styles.pageLinks}>
          {page.page > 1 ? <Link href={hrefFor(page.page - 1)} scroll={false} rel="prev">← Previous</Link> : <span className="muted">← Previous</span>}
          <span className="small">
            Page {page.page} of {page.pages}
          </span>
          {page.page < page.pages ? <Link href={hrefFor(page.page + 1)} scroll={false} rel="next">Next →</Link> : <span className="muted">Next →</span>}
        </span>
      )}
    </nav>
  );
}
