/** The Progress page's tables: the annotators, the lexelts, and the drill-down of one of either. */
import Link from "next/link";
import type { ProgressPageView } from "@/lib/server/annotate";
import { absoluteTime, formatSeconds, relativeTime } from "@/app/_ui/time";
import { Bar, Pager, type Search, hrefWith } from "./parts";
import styles from "./progress.module.css";

/** One annotator's count on one lexelt: done of its instances, or (not assigned) what they gave before, in brackets. */
function DoneCell({ cell: c, instances }: { cell: { assigned: boolean; done: number }; instances: number }) {
  return (
    <td className={`num ${c.assigned && c.done >= instances ? styles.full : ""}`}>
      {c.assigned ? `${c.done} / ${instances}` : <span className="muted" title={c.done > 0 ? `${c.done} given before the assignment changed` : "not assigned"}>{c.done > 0 ? `(${c.done})` : "—"}</span>}
    </td>
  );
}

/** One lexelt's annotators, a page at a time. */
export function LexeltAnnotators({ focus, annotators, sp, base }: { focus: NonNullable<ProgressPageView["focusLexelt"]>; annotators: ProgressPageView["annotators"]; sp: Search; base: string }) {
  const focusLexelt = focus.lexelt;
  const focusCells = focus.cells;
  const annotatorIndex = new Map(annotators.map((a, k) => [a.userId, k]));
  return (
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
              const a = annotators[annotatorIndex.get(c.userId)!];
              return (
                <tr key={c.userId}>
                  <th scope="row" className={styles.rowHead}>{a.name}</th>
                  <DoneCell cell={c} instances={focusLexelt.instances} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager label={`Pages of ${focusLexelt.item}'s annotators`} {...focusCells} href={(n) => hrefWith(base, sp, { dpage: String(n) })} />
    </section>
  );
}

/** One annotator's lexelts, a page at a time. */
export function AnnotatorLexelts({ focus, sp, base }: { focus: NonNullable<ProgressPageView["focusAnnotator"]>; sp: Search; base: string }) {
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
                <DoneCell cell={c} instances={l.instances} />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager label={`Pages of ${name}'s lexelts`} {...paged} href={(n) => hrefWith(base, sp, { lpage: String(n) })} />
    </section>
  );
}

/** The annotators, found by name, a page at a time: done, a bar, last activity, median time per item. */
export function AnnotatorsSection({ p, sp, base, hasCrowd, now }: { p: ProgressPageView; sp: Search; base: string; hasCrowd: boolean; now: Date }) {
  const who = (sp.who ?? "").trim();
  const { annotatorPage } = p;
  return (
    <>
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
    </>
  );
}

/** The lexelts, found by item, a page at a time: complete, responses, annotators assigned. */
export function LexeltsSection({ p, sp, base }: { p: ProgressPageView; sp: Search; base: string }) {
  const q = (sp.q ?? "").trim();
  const { lexeltPage } = p;
  return (
    <>
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
