/** The Progress page's head: what an instance needs, what cannot be completed, and the totals. */
import Link from "next/link";
import type { ProgressPageView } from "@/lib/server/annotate";
import { Bar } from "./parts";
import styles from "./progress.module.css";

/** The warnings above the totals: no number set under a crowd, and lexelts with too few annotators. */
export function Warnings({ p, hasCrowd }: { p: ProgressPageView; hasCrowd: boolean }) {
  const required = p.project.requiredAnnotators;
  const { short } = p;
  return (
    <>
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
    </>
  );
}

/** Instances complete, responses, annotators and (with a crowd) its participants. */
export function Summary({ p, crowdJoined }: { p: ProgressPageView; crowdJoined: number | null }) {
  return (
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
  );
}
