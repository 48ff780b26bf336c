import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/server/errors";
import { projectProgress, type ProjectProgress } from "@/lib/server/progress";
import styles from "./progress.module.css";
import { absoluteTime, formatSeconds, relativeTime } from "./time";

export const metadata: Metadata = { title: "Progress" };
export const dynamic = "force-dynamic";

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

export default async function ProgressPage({ params }: { params: Promise<{ projectId: string }> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  let p: ProjectProgress;
  try {
    p = projectProgress(getDb(), actor, Number(projectId));
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const now = new Date();
  const required = p.project.requiredAnnotators;
  const short = required === null ? [] : p.lexelts.filter((l) => l.instances > 0 && l.assignedAnnotators < required);
  return (
    <>
      <h1>Progress</h1>
      <p className="muted">
        {p.project.name} · {required === null ? "each instance needs everyone assigned to its lexelt" : `each instance needs ${required} response${required === 1 ? "" : "s"}`}
      </p>

      {short.length > 0 && (
        <p className="notice warn">
          Each instance needs {required} response{required === 1 ? "" : "s"}, but fewer annotators are assigned to{" "}
          {short.slice(0, 6).map((l, k) => (
            <span key={l.id}>
              {k > 0 && ", "}
              <code>{l.item}</code> ({l.assignedAnnotators})
            </span>
          ))}
          {short.length > 6 && ` and ${short.length - 6} more`}: their instances cannot be completed. Assign more annotators on the Team tab, or lower the number.
        </p>
      )}

      <div className={styles.summary}>
        <section className="panel" aria-labelledby="complete-label">
          <div className="muted small" id="complete-label">Instances complete</div>
          <div className={styles.big}>
            {p.complete} <span className="muted">of {p.instances}</span>
          </div>
          <Bar done={p.complete} total={p.instances} label="Instances complete" />
        </section>
        <section className="panel" aria-labelledby="responses-label">
          <div className="muted small" id="responses-label">Responses</div>
          <div className={styles.big}>{p.responses}</div>
        </section>
        <section className="panel" aria-labelledby="annotator-count-label">
          <div className="muted small" id="annotator-count-label">Annotators</div>
          <div className={styles.big}>{p.annotators.filter((a) => a.member).length}</div>
        </section>
      </div>

      <h2 id="annotators-heading">Annotators</h2>
      {p.annotators.length === 0 ? (
        <p className="muted">No annotators in this project yet: add them on the Team tab.</p>
      ) : (
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
              {p.annotators.map((a) => (
                <tr key={a.userId}>
                  <th scope="row" className={styles.rowHead}>
                    {a.name}
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
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <h2 id="grid-heading">By lexelt</h2>
      {p.lexelts.length === 0 ? (
        <p className="muted">No lexelts yet: load lexelt XML on the Corpus tab.</p>
      ) : (
        <>
          <p className="muted small">Done / instances for each annotator; — where the lexelt is not assigned to them.</p>
          <div className="table-wrap">
            <table aria-labelledby="grid-heading" className={styles.grid}>
              <thead>
                <tr>
                  <th scope="col">Lexelt</th>
                  <th scope="col" className="num">Complete</th>
                  {p.annotators.map((a) => (
                    <th key={a.userId} scope="col" className="num">{a.name}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {p.lexelts.map((l) => (
                  <tr key={l.id}>
                    <th scope="row" className={styles.rowHead}><code>{l.item}</code></th>
                    <td className="num">{l.complete} / {l.instances}</td>
                    {l.cells.map((c) => (
                      <td key={c.userId} className={`num ${c.assigned && c.done >= l.instances ? styles.full : ""}`}>
                        {c.assigned ? `${c.done} / ${l.instances}` : <span className="muted" title={c.done > 0 ? `${c.done} given before the assignment changed` : "not assigned"}>{c.done > 0 ? `(${c.done})` : "—"}</span>}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}
