import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/server/kernel";
import Link from "next/link";
import { type ProgressChartData, type ProgressPageView, type StudyProgress, progressPageView } from "@/lib/server/annotate";
import { catchUpFigures } from "@/lib/server/derived";
import { derive } from "@/lib/server/jobs";
import { ProgressCharts } from "@/app/_ui/charts/progress-charts";
import styles from "./progress.module.css";
import { absoluteTime, formatSeconds, relativeTime } from "@/app/_ui/time";

export const metadata: Metadata = { title: "Progress" };
export const dynamic = "force-dynamic";


interface Search {
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
function hrefWith(base: string, sp: Search, change: Partial<Search>): string {
  const merged: Record<string, string | undefined> = { ...sp, ...change };
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(merged)) if (v !== undefined && v !== "") qs.set(k, v);
  const s = qs.toString();
  return s ? `${base}?${s}` : base;
}

function Pager({ label, page, pages, total, href }: { label: string; page: number; pages: number; total: number; href: (page: number) => string }) {
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

function Bar({ done, total, label }: { done: number; total: number; label: string }) {
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

export default async function ProgressPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  const sp = await searchParams;
  let p: ProgressPageView;
  let charts: ProgressChartData;
  const num = (v: string | undefined) => (v === undefined || v === "" || !Number.isFinite(Number(v)) ? undefined : Number(v));
  try {
    // Read from counters kept as answers change (#39): nothing here grows with the responses; of the lexelts × annotators grid only the cells shown.
    const db = getDb();
    await catchUpFigures(db, actor, Number(projectId));
    p = progressPageView(db, actor, Number(projectId), {
      q: sp.q,
      page: num(sp.page),
      who: sp.who,
      apage: num(sp.apage),
      lexelt: num(sp.lexelt),
      annotator: num(sp.annotator),
      lpage: num(sp.lpage),
      dpage: num(sp.dpage),
    });
    charts = await derive(getDb(), { op: "progressCharts", actor, projectId: Number(projectId) });
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const base = `/projects/${p.project.id}/progress`;
  const now = new Date();
  const required = p.project.requiredAnnotators;
  const who = (sp.who ?? "").trim();
  const q = (sp.q ?? "").trim();
  const { annotatorPage, lexeltPage, short } = p;
  const focusLexelt = p.focusLexelt?.lexelt;
  const focusCells = p.focusLexelt?.cells ?? { rows: [], page: 1, pages: 1, total: 0 };
  const annotatorIndex = new Map(p.annotators.map((a, k) => [a.userId, k]));
  const { crowd } = p;
  const hasCrowd = crowd.studies.length > 0 || crowd.imported !== null;
  const crowdJoined = hasCrowd ? crowd.studies.reduce((n, s) => n + s.joined, 0) + (crowd.imported?.participants ?? 0) : null;

  return (
    <>
      <h1>Progress</h1>
      <p className="muted">
        {p.project.name} · {required === null ? "each instance needs everyone assigned to its lexelt" : `each instance needs ${required} response${required === 1 ? "" : "s"}`}
      </p>

      {required === null && hasCrowd && (
        <p className="notice warn">
          Crowd participants are annotators of every lexelt here, so with no number set an instance is complete only once every one of them has answered it. Set{" "}
          <Link href={`/projects/${p.project.id}/members`}>Annotators per instance</Link> on the Team tab (a study&apos;s overlap) for the count to mean something.
        </p>
      )}

      {short.total > 0 && (
        <p className="notice warn">
          Each instance needs {required} response{required === 1 ? "" : "s"}, but fewer annotators are assigned to{" "}
          {short.rows.map((l, k) => (
            <span key={l.id}>
              {k > 0 && ", "}
              <code>{l.item}</code> ({l.assignedAnnotators})
            </span>
          ))}
          {short.total > short.rows.length && ` and ${short.total - short.rows.length} more`}: their instances cannot be completed. Assign more annotators on the Team tab, or lower the number.
        </p>
      )}

      <div className={styles.summary}>
        <section className="panel" aria-labelledby="complete-label">
          <div className="muted small" id="complete-label">Instances complete</div>
          <div className={styles.big}>
            {p.complete} <span className="muted">of {p.instances}</span>
          </div>
          <Bar done={p.complete} total={p.instances} label="Instances complete" />
          {p.trainingOut > 0 && (
            <div className="muted small">
              {p.trainingOut === 1 ? "1 training item is" : `${p.trainingOut} training items are`} left out of the queue and of these counts (Training tab)
            </div>
          )}
        </section>
        <section className="panel" aria-labelledby="responses-label">
          <div className="muted small" id="responses-label">Responses</div>
          <div className={styles.big}>{p.responses}</div>
        </section>
        <section className="panel" aria-labelledby="annotator-count-label">
          <div className="muted small" id="annotator-count-label">Annotators</div>
          <div className={styles.big}>{p.annotators.filter((a) => a.member).length}</div>
        </section>
        {crowdJoined !== null && (
          <section className="panel" aria-labelledby="crowd-count-label">
            <div className="muted small" id="crowd-count-label">Crowd participants</div>
            <div className={styles.big}>{crowdJoined.toLocaleString("en")}</div>
          </section>
        )}
      </div>

      {focusLexelt && (
        <section aria-labelledby="lexelt-focus-heading">
          <h2 id="lexelt-focus-heading">
            Annotators of <code>{focusLexelt.item}</code>
          </h2>
          <p className="muted small">
            {focusLexelt.complete} of {focusLexelt.instances} instances complete · <Link href={hrefWith(base, sp, { lexelt: undefined, dpage: undefined })}>Close</Link>
          </p>
          <div className="table-wrap">
            <table aria-labelledby="lexelt-focus-heading" className={styles.grid}>
              <thead>
                <tr>
                  <th scope="col">Annotator</th>
                  <th scope="col" className="num">Done</th>
                </tr>
              </thead>
              <tbody>
                {focusCells.rows.map((c) => {
                  const a = p.annotators[annotatorIndex.get(c.userId)!];
                  return (
                    <tr key={c.userId}>
                      <th scope="row" className={styles.rowHead}>{a.name}</th>
                      <td className={`num ${c.assigned && c.done >= focusLexelt.instances ? styles.full : ""}`}>
                        {c.assigned ? `${c.done} / ${focusLexelt.instances}` : <span className="muted" title={c.done > 0 ? `${c.done} given before the assignment changed` : "not assigned"}>{c.done > 0 ? `(${c.done})` : "—"}</span>}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager label={`Pages of ${focusLexelt.item}'s annotators`} {...focusCells} href={(n) => hrefWith(base, sp, { dpage: String(n) })} />
        </section>
      )}

      {p.focusAnnotator && <AnnotatorLexelts focus={p.focusAnnotator} sp={sp} base={base} />}

      <h2 id="annotators-heading">Annotators</h2>
      {p.annotators.length === 0 ? (
        <p className="muted">{hasCrowd ? "No annotators of the team in this project: the crowd's participants are summed below." : "No annotators in this project yet: add them on the Team tab."}</p>
      ) : (
        <>
          <form method="get" className={styles.search} role="search" aria-label="Annotators">
            {sp.q && <input type="hidden" name="q" value={sp.q} />}
            <label>
              Find annotator <input type="search" name="who" defaultValue={who} />
            </label>
            <button type="submit">Find</button>
          </form>
          <div className="table-wrap">
            <table aria-labelledby="annotators-heading" className={styles.annotators}>
              <thead>
                <tr>
                  <th scope="col">Annotator</th>
                  <th scope="col" className="num">Done</th>
                  <th scope="col" className={styles.barCol}>Progress</th>
                  <th scope="col">Last activity</th>
                  <th scope="col" className="num">Median time per item</th>
                </tr>
              </thead>
              <tbody>
                {annotatorPage.rows.map((a) => (
                  <tr key={a.userId}>
                    <th scope="row" className={styles.rowHead}>
                      <Link href={hrefWith(base, sp, { annotator: String(a.userId), lpage: undefined, lexelt: undefined, dpage: undefined })}>{a.name}</Link>
                      {!a.member && <span className="muted small"> (not an annotator here)</span>}
                      {a.restricted && <div className="muted small">some lexelts only</div>}
                    </th>
                    <td className="num">
                      {a.done} / {a.assigned}
                      {a.outside > 0 && <div className="muted small">+{a.outside} elsewhere</div>}
                    </td>
                    <td className={styles.barCol}>
                      <Bar done={a.done} total={a.assigned} label={`${a.name}: ${a.done} of ${a.assigned} done`} />
                    </td>
                    <td>
                      {a.lastActivity ? (
                        <>
                          <time dateTime={a.lastActivity.toISOString()}>{relativeTime(a.lastActivity, now)}</time>
                          <div className="muted small">{absoluteTime(a.lastActivity)}</div>
                        </>
                      ) : (
                        <span className="muted">never</span>
                      )}
                    </td>
                    <td className="num">
                      {a.medianSeconds === null ? (
                        <span className="muted" title="No timed responses (imported responses carry no time)">—</span>
                      ) : (
                        <>
                          {formatSeconds(a.medianSeconds)}
                          <div className="muted small">over {a.timed}</div>
                          {a.tooFast && (
                            <div className="notice warn small" role="status">
                              Too fast: median {formatSeconds(a.medianSeconds)} under {formatSeconds(p.speedThresholdSeconds)}
                            </div>
                          )}
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager label="Annotator pages" {...annotatorPage} href={(n) => hrefWith(base, sp, { apage: String(n) })} />
        </>
      )}

      {hasCrowd && <Crowd crowd={crowd} projectId={p.project.id} now={now} />}

      <ProgressCharts data={charts} />

      <h2 id="grid-heading">By lexelt</h2>
      {p.lexeltCount === 0 ? (
        <p className="muted">No lexelts yet: load lexelt XML on the Corpus tab.</p>
      ) : (
        <>
          <form method="get" className={styles.search} role="search" aria-label="Lexelts">
            {sp.who && <input type="hidden" name="who" value={sp.who} />}
            <label>
              Find lexelt <input type="search" name="q" defaultValue={q} />
            </label>
            <button type="submit">Find</button>
          </form>
          <p className="muted small">Complete instances, responses and assigned annotators per lexelt; open a lexelt for its annotators.</p>
          <div className="table-wrap">
            <table aria-labelledby="grid-heading" className={styles.grid}>
              <thead>
                <tr>
                  <th scope="col">Lexelt</th>
                  <th scope="col" className="num">Complete</th>
                  <th scope="col" className="num">Responses</th>
                  <th scope="col" className="num">Annotators assigned</th>
                </tr>
              </thead>
              <tbody>
                {lexeltPage.rows.map((l) => (
                  <tr key={l.id}>
                    <th scope="row" className={styles.rowHead}>
                      <Link href={hrefWith(base, sp, { lexelt: String(l.id), dpage: undefined, annotator: undefined, lpage: undefined })}><code>{l.item}</code></Link>
                    </th>
                    <td className={`num ${l.instances > 0 && l.complete >= l.instances ? styles.full : ""}`}>{l.complete} / {l.instances}</td>
                    <td className="num">{l.responses}</td>
                    <td className="num">{l.assignedAnnotators}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {lexeltPage.total === 0 && <p className="muted">No lexelt matches “{q}”.</p>}
          <Pager label="Lexelt pages" {...lexeltPage} href={(n) => hrefWith(base, sp, { page: String(n) })} />
        </>
      )}
    </>
  );
}

const PLATFORM: Record<StudyProgress["platform"], string> = { prolific: "Prolific", mturk: "Mechanical Turk", link: "Link" };

function LastActivity({ at, now }: { at: Date | null; now: Date }) {
  if (!at) return <span className="muted">never</span>;
  return (
    <time dateTime={at.toISOString()} title={absoluteTime(at)}>
      {relativeTime(at, now)}
    </time>
  );
}

/**
 * The crowd, one row per study (however many joined): each participant's figures, review and
 * payment are on the Crowd tab.
 */
function Crowd({ crowd, projectId, now }: { crowd: ProgressPageView["crowd"]; projectId: number; now: Date }) {
  const tab = `/projects/${projectId}/crowd`;
  return (
    <section aria-labelledby="crowd-heading">
      <h2 id="crowd-heading">Crowd</h2>
      <p className="muted small">
        Study participants are summed per study; their answers count in the totals and the lexelts below. Each participant&apos;s figures, review and payment: <Link href={tab}>Crowd tab</Link>.
      </p>
      <div className="table-wrap">
        <table aria-labelledby="crowd-heading" className={styles.annotators}>
          <thead>
            <tr>
              <th scope="col">Study</th>
              <th scope="col" className="num">Joined</th>
              <th scope="col" className="num">Finished</th>
              <th scope="col" className="num">Answers</th>
              <th scope="col">Last activity</th>
            </tr>
          </thead>
          <tbody>
            {crowd.studies.map((s) => (
              <tr key={s.id}>
                <th scope="row" className={styles.rowHead}>
                  <Link href={`${tab}?study=${s.id}`}>{s.name || `Study ${s.id}`}</Link>
                  <div className="muted small">
                    {PLATFORM[s.platform]} · {s.state}
                  </div>
                </th>
                <td className="num">{s.joined.toLocaleString("en")}</td>
                <td className="num">{s.finished.toLocaleString("en")}</td>
                <td className="num">{s.answers.toLocaleString("en")}</td>
                <td>
                  <LastActivity at={s.lastActivity} now={now} />
                </td>
              </tr>
            ))}
            {crowd.imported && (
              <tr>
                <th scope="row" className={styles.rowHead}>
                  Imported
                  <div className="muted small">participants of other projects&apos; studies</div>
                </th>
                <td className="num">{crowd.imported.participants.toLocaleString("en")}</td>
                <td className="num">
                  <span className="muted">—</span>
                </td>
                <td className="num">{crowd.imported.answers.toLocaleString("en")}</td>
                <td>
                  <LastActivity at={crowd.imported.lastActivity} now={now} />
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** One annotator's lexelts, a page at a time. */
function AnnotatorLexelts({ focus, sp, base }: { focus: NonNullable<ProgressPageView["focusAnnotator"]>; sp: Search; base: string }) {
  const { name, lexelts: paged } = focus;
  return (
    <section aria-labelledby="annotator-focus-heading">
      <h2 id="annotator-focus-heading">Lexelts of {name}</h2>
      <p className="muted small">
        Done / instances; — where the lexelt is not assigned to them · <Link href={hrefWith(base, sp, { annotator: undefined, lpage: undefined })}>Close</Link>
      </p>
      <div className="table-wrap">
        <table aria-labelledby="annotator-focus-heading" className={styles.grid}>
          <thead>
            <tr>
              <th scope="col">Lexelt</th>
              <th scope="col" className="num">Done</th>
            </tr>
          </thead>
          <tbody>
            {paged.rows.map(({ lexelt: l, cell: c }) => (
              <tr key={l.id}>
                <th scope="row" className={styles.rowHead}><code>{l.item}</code></th>
                <td className={`num ${c.assigned && c.done >= l.instances ? styles.full : ""}`}>
                  {c.assigned ? `${c.done} / ${l.instances}` : <span className="muted" title={c.done > 0 ? `${c.done} given before the assignment changed` : "not assigned"}>{c.done > 0 ? `(${c.done})` : "—"}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager label={`Pages of ${name}'s lexelts`} {...paged} href={(n) => hrefWith(base, sp, { lpage: String(n) })} />
    </section>
  );
}
