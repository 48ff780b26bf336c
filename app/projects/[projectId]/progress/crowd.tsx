/** The Progress page's crowd: one row per study. */
import Link from "next/link";
import type { ProgressPageView, StudyProgress } from "@/lib/server/annotate";
import { absoluteTime, relativeTime } from "@/app/_ui/time";
import styles from "./progress.module.css";

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
export function Crowd({ crowd, projectId, now }: { crowd: ProgressPageView["crowd"]; projectId: number; now: Date }) {
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
