import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { InputError, NotFoundError } from "@/lib/server/kernel";
import { FLAG_KINDS, FLAG_LABELS, type FlagPage, type ReturnLogEntry, listFlags, returnLog } from "@/lib/server/annotate";
import { absoluteTime, relativeTime } from "@/app/_ui/time";
import styles from "./flags.module.css";
import { listAnswers } from "@/app/_ui/answer-text";
import { LexeltSelect } from "@/app/_ui/lexelt-select";

export const metadata: Metadata = { title: "Flags" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? "";
}

function href(base: string, params: Record<string, string | number | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `${base}?${s}` : base;
}

type Filter = { flag: string; lexelt: string; annotator: string; page: string };

/** The annotators' flags and notes, newest first, filtered by flag, lexelt and annotator, a page at a time. */
export default async function FlagsPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const id = Number((await params).projectId);
  const sp = await searchParams;
  const q = { flag: one(sp.flag), lexelt: one(sp.lexelt), annotator: one(sp.annotator), page: one(sp.page) };
  let data: FlagPage;
  let returns: ReturnLogEntry[] = [];
  let refused: string | null = null;
  try {
    returns = returnLog(getDb(), actor, id, 50);
    data = listFlags(getDb(), actor, id, q);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    if (!(e instanceof InputError)) throw e;
    refused = e.message;
    data = listFlags(getDb(), actor, id, { ...q, flag: "" });
  }
  const base = `/projects/${id}/flags`;
  const gold = `/projects/${id}/gold`;
  const hrefFor = (p: number) => href(base, { flag: q.flag, lexelt: q.lexelt, annotator: q.annotator, page: p > 1 ? p : undefined });
  const now = new Date();
  const from = data.total === 0 ? 0 : data.start + 1;
  const to = data.start + data.rows.length;
  const pager = (label: string) => (
    <nav className={styles.pager} aria-label={label}>
      <span className="small muted">{data.total === 0 ? "No flags or notes" : `${from}–${to} of ${data.total}`}</span>
      {data.pages > 1 && (
        <span className={styles.pageLinks}>
          {data.page > 1 ? <Link href={hrefFor(data.page - 1)} rel="prev">← Previous</Link> : <span className="muted">← Previous</span>}
          <span className="small">
            Page {data.page} of {data.pages}
          </span>
          {data.page < data.pages ? <Link href={hrefFor(data.page + 1)} rel="next">Next →</Link> : <span className="muted">Next →</span>}
        </span>
      )}
    </nav>
  );
  return (
    <>
      <h1>Flags</h1>
      <p className="muted">
        What annotators flagged or noted on the items, newest first, with their answer. Open an instance on the Gold tab to return it to its annotator with a comment.{" "}
        <a href={`/api/projects/${id}/flags`} download>
          Download the flags as TSV
        </a>{" "}
        ·{" "}
        <a href={`/api/projects/${id}/responses?flags=1`} download>
          all responses with their flags and notes (TSV)
        </a>
      </p>
      {refused && <p className="notice warn">{refused}</p>}
      <FlagFilters base={base} q={q} refused={refused !== null} lexelts={data.lexelts} annotators={data.annotators} />
      {pager("Flag pages")}
      <FlagsTable rows={data.rows} gold={gold} now={now} />
      {data.pages > 1 && pager("Flag pages, bottom")}

      <ReturnsSection returns={returns} gold={gold} now={now} />
    </>
  );
}

/** The filters: flag, lexelt and annotator (a plain GET form). */
function FlagFilters({ base, q, refused, lexelts, annotators }: { base: string; q: Filter; refused: boolean; lexelts: FlagPage["lexelts"]; annotators: string[] }) {
  return (
    <form method="get" action={base} className={styles.filters} aria-label="Filter flags">
      <div>
        <label htmlFor="f-flag">Flag</label>
        <select id="f-flag" name="flag" defaultValue={refused ? "" : q.flag}>
          <option value="">Any flag or note</option>
          {FLAG_KINDS.map((k) => (
            <option key={k} value={k}>
              {FLAG_LABELS[k]}
            </option>
          ))}
          <option value="note">Has a note</option>
        </select>
      </div>
      <div>
        <label htmlFor="f-lexelt">Lexelt</label>
        <LexeltSelect id="f-lexelt" lexelts={lexelts} value={q.lexelt} />
      </div>
      <div>
        <label htmlFor="f-annotator">Annotator</label>
        <select id="f-annotator" name="annotator" defaultValue={q.annotator}>
          <option value="">Everyone</option>
          {annotators.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="secondary">
        Filter
      </button>
      {(q.flag || q.lexelt || q.annotator) && <Link href={base}>Clear</Link>}
    </form>
  );
}

/** One page of flags and notes, each with its instance (on the Gold tab) and the answer. */
function FlagsTable({ rows, gold, now }: { rows: FlagPage["rows"]; gold: string; now: Date }) {
  if (rows.length === 0) return null;
  return (
    <div className="table-wrap">
      <table className={styles.table} aria-label="Flags and notes">
        <thead>
          <tr>
            <th scope="col">Instance</th>
            <th scope="col">Annotator</th>
            <th scope="col">Flag</th>
            <th scope="col">Note</th>
            <th scope="col">Answer</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.instanceId}\t${r.annotator}`}>
              <td className={styles.nowrap}>
                <Link href={href(gold, { view: "instances", instance: r.instanceId })}>
                  {r.lexelt} {r.instanceId}
                </Link>
              </td>
              <td className={styles.nowrap}>{r.annotator}</td>
              <td className={styles.nowrap}>{r.flag ? <span className={`tag ${styles.flag}`}>{FLAG_LABELS[r.flag]}</span> : <span className="muted">—</span>}</td>
              <td className={styles.note}>{r.note || <span className="muted">—</span>}</td>
              <td>{r.answers ? listAnswers(r.answers) : <span className="muted">not answered</span>}</td>
              <td className={styles.nowrap}>
                <time dateTime={r.updatedAt.toISOString()} title={absoluteTime(r.updatedAt)}>
                  {relativeTime(r.updatedAt, now)}
                </time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The answers returned to annotators from the Gold tab, and whether each was answered again. */
function ReturnsSection({ returns, gold, now }: { returns: ReturnLogEntry[]; gold: string; now: Date }) {
  return (
    <>
      <h2 id="returns-heading">Returned to annotators</h2>
      <p className="muted small">
        Answers sent back from the Gold tab with a comment, newest first{returns.length === 50 ? " (the latest 50)" : ""}: open until the annotator saves the instance again.
      </p>
      {returns.length === 0 ? (
        <p className="muted">Nothing returned yet.</p>
      ) : (
        <div className="table-wrap">
          <table className={styles.table} aria-labelledby="returns-heading">
            <thead>
              <tr>
                <th scope="col">Instance</th>
                <th scope="col">Annotator</th>
                <th scope="col">Comment</th>
                <th scope="col">Returned</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {returns.map((r, k) => (
                <tr key={k}>
                  <td className={styles.nowrap}>
                    <Link href={href(gold, { view: "instances", instance: r.instanceId })}>
                      {r.lexelt} {r.instanceId}
                    </Link>
                  </td>
                  <td className={styles.nowrap}>{r.annotator}</td>
                  <td className={styles.note}>{r.comment}</td>
                  <td className={styles.nowrap}>
                    <time dateTime={r.returnedAt.toISOString()} title={absoluteTime(r.returnedAt)}>
                      {relativeTime(r.returnedAt, now)}
                    </time>{" "}
                    by {r.by ?? "the command line"}
                  </td>
                  <td className={styles.nowrap}>
                    {r.resolvedAt === null ? (
                      <span className={`tag ${styles.flag}`}>open</span>
                    ) : r.resolvedRevision === null ? (
                      <span className="muted">replaced by a newer return</span>
                    ) : (
                      <>
                        answered again <span className="muted small">(revision {r.resolvedRevision})</span>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
