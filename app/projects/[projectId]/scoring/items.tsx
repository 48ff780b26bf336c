"use client";
import { useEffect, useMemo, useRef, useState } from "react";
import { perlNumber } from "@/lib/scorers/semeval2007/report";
import type { ItemRow, ItemsPage, RunDetail } from "@/lib/server/scoring";
import { listAnswers } from "@/app/_ui/answer-text";
import { call } from "./client";
import styles from "./scoring.module.css";

const PAGE = 50;

function matches(i: ItemRow, q: string): boolean {
  if (q === "") return true;
  const hay = i.kind === "mw" ? `${i.id} ${i.lexelt} ${i.answer} ${i.mode ?? ""}` : `${i.id} ${i.lexelt} ${i.guesses.join(" ")} ${i.mode ?? ""}`;
  return hay.toLowerCase().includes(q);
}

/** What the table shows: one page of rows, its place, how many the filter finds, how many were attempted. */
interface Shown {
  rows: ItemRow[];
  page: number;
  pages: number;
  found: number;
  attempted: number;
}

/** A whole scoring's items (every one at hand), filtered and paged here. */
function useLocalItems(items: ItemRow[], q: string, missed: boolean, only: string | null, page: number): Shown {
  const found = useMemo(
    () => (only !== null ? items.filter((i) => i.id === only) : items.filter((i) => matches(i, q) && (!missed || (i.kind === "mw" ? !i.matched : i.credit === 0)))),
    [items, q, missed, only],
  );
  const pages = Math.max(1, Math.ceil(found.length / PAGE));
  const p = Math.min(page, pages);
  return { rows: found.slice((p - 1) * PAGE, p * PAGE), page: p, pages, found: found.length, attempted: items.length };
}

/** A page of items from the kept outcomes (the route's `paged`), asked for again as the filter or the page changes. */
function useServerItems(first: { items: ItemRow[]; paged: ItemsPage } | null, url: string, q: string, missed: boolean, only: string | null, page: number) {
  const [got, setGot] = useState(first);
  const [error, setError] = useState<string | null>(null);
  const asked = useRef(`1\u0000\u0000false\u0000`);
  const enabled = first !== null;
  useEffect(() => {
    if (!enabled) return;
    const key = `${page}\u0000${q}\u0000${missed}\u0000${only ?? ""}`;
    if (key === asked.current) return;
    asked.current = key;
    const u = new URL(url, window.location.href);
    u.searchParams.set("page", String(page));
    if (q) u.searchParams.set("q", q);
    if (missed) u.searchParams.set("missed", "1");
    if (only !== null) u.searchParams.set("item", only);
    // A filter typed is asked for once the typing pauses.
    const t = setTimeout(async () => {
      const r = await call<{ detail: RunDetail & { paged: ItemsPage } }>(u.pathname + u.search);
      if (asked.current !== key) return;
      if (r.ok) {
        setGot({ items: r.detail.items, paged: r.detail.paged });
        setError(null);
      } else setError(r.message);
    }, q ? 250 : 0);
    return () => clearTimeout(t);
  }, [enabled, url, q, missed, only, page]);
  const shown: Shown | null = got && { rows: got.items, page: got.paged.page, pages: Math.max(1, Math.ceil(got.paged.found / got.paged.pageSize)), found: got.paged.found, attempted: got.paged.attempted };
  return { shown, error };
}

/**
 * The run's attempted items, filtered and 50 rows at a time: from a whole scoring (every item at
 * hand) or, for score.pl's figures from the kept outcomes, a page asked of the server each time.
 */
export function Items({ detail, url, only, onShowAll }: { detail: RunDetail & { paged?: ItemsPage }; url: string; only: string | null; onShowAll: () => void }) {
  const type = detail.run.type;
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(1);
  const [onlyMissed, setOnlyMissed] = useState(false);
  const q = query.trim().toLowerCase();
  const paged = detail.paged ? { items: detail.items, paged: detail.paged } : null;
  const local = useLocalItems(detail.items, q, onlyMissed, only, page);
  const server = useServerItems(paged, url, q, onlyMissed, only, only !== null ? 1 : page);
  const s = paged ? (server.shown ?? local) : local;
  const first = (s.page - 1) * PAGE;
  return (
    <>
      <h3 id="items-heading">Items</h3>
      <div className={styles.itemTools}>
        <div>
          <label htmlFor="item-filter">Filter</label>
          <input
            id="item-filter"
            type="text"
            value={query}
            placeholder={paged ? "id, lexelt or word of the line" : "id, lexelt or word"}
            onChange={(e) => {
              setQuery(e.target.value);
              setPage(1);
              onShowAll();
            }}
          />
        </div>
        <label className={styles.check}>
          <input
            type="checkbox"
            checked={onlyMissed}
            onChange={(e) => {
              setOnlyMissed(e.target.checked);
              setPage(1);
            }}
          />{" "}
          {type === "mw" ? "Only items not matched" : "Only items without credit"}
        </label>
        <span className="muted small" aria-live="polite">
          {only !== null ? (
            <>
              Item {only} only{" "}
              <button type="button" className={styles.idLink} onClick={onShowAll}>
                show all items
              </button>
            </>
          ) : (
            <>
              {s.found === 0 ? "No items" : `Items ${first + 1}–${first + s.rows.length} of ${s.found}`}
              {s.found !== s.attempted && ` (of ${s.attempted} attempted)`}
            </>
          )}
        </span>
      </div>
      {paged && server.error && (
        <div className="notice error" role="alert">
          {server.error}
        </div>
      )}
      <ItemTable rows={s.rows} type={type} />
      {s.pages > 1 && (
        <nav className={styles.pager} aria-label="Item pages">
          <button type="button" className="secondary" disabled={s.page <= 1} onClick={() => setPage(s.page - 1)}>
            ← Previous
          </button>
          <span className="small">
            Page {s.page} of {s.pages}
          </span>
          <button type="button" className="secondary" disabled={s.page >= s.pages} onClick={() => setPage(s.page + 1)}>
            Next →
          </button>
        </nav>
      )}
    </>
  );
}

function ItemTable({ rows, type }: { rows: ItemRow[]; type: "best" | "oot" | "mw" }) {
  return (
    <div className="table-wrap">
      <table className={styles.compact} aria-labelledby="items-heading">
        <thead>
          {type === "mw" ? (
            <tr>
              <th scope="col" className="num">Line</th>
              <th scope="col">Lexelt</th>
              <th scope="col">Id</th>
              <th scope="col">Answer</th>
              <th scope="col">Gold multiword</th>
              <th scope="col">Detected</th>
              <th scope="col">Identified</th>
            </tr>
          ) : (
            <tr>
              <th scope="col" className="num">Line</th>
              <th scope="col">Lexelt</th>
              <th scope="col">Id</th>
              <th scope="col">Guesses</th>
              <th scope="col">Mode</th>
              <th scope="col" className="num">|H|</th>
              <th scope="col" className="num">Credit</th>
              <th scope="col" className="num">Score</th>
            </tr>
          )}
        </thead>
        <tbody>
          {rows.map((i) =>
            i.kind === "mw" ? (
              <tr key={i.line}>
                <td className="num">{i.line}</td>
                <td>{i.lexelt}</td>
                <td>{i.id}</td>
                <td>{i.answer}</td>
                <td>{i.mode ?? <span className="muted">none</span>}</td>
                <td>{i.genuine ? "yes" : <span className="muted">no</span>}</td>
                <td>{i.matched ? "yes" : <span className="muted">no</span>}</td>
              </tr>
            ) : (
              <tr key={i.line}>
                <td className="num">{i.line}</td>
                <td>{i.lexelt}</td>
                <td>{i.id}</td>
                <td className={styles.guesses}>
                  {listAnswers(i.guesses)}
                  {i.truncated && <span className="muted small"> (first ten scored)</span>}
                </td>
                <td>
                  {i.mode === null ? (
                    <span className="muted">none</span>
                  ) : (
                    <>
                      {i.mode} <span className={i.modeHit ? styles.hit : styles.miss}>{i.modeHit ? "✓ found" : "✗ missed"}</span>
                    </>
                  )}
                </td>
                <td className="num">{i.humanResponses}</td>
                <td className="num" title={String(i.credit)}>{perlNumber(i.credit)}</td>
                <td className="num" title={String(i.score)}>{perlNumber(i.score)}</td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}
