import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/server/kernel";
import { studyOverviews, MAX_REASON, type ParticipantRow, type ParticipantsPage, participantsPage, type StudyOverview } from "@/lib/server/crowd";
import { absoluteTime, formatSeconds, relativeTime } from "@/app/_ui/time";
import { shortId } from "@/app/_ui/participant-label";
import { ExclusionControls, ReviewControls } from "./review-controls";
import { excludeRejectedAction, reviewParticipantAction, setBonusAction, undoExclusionAction } from "./actions";
import { StudyControls } from "./study-controls";
import styles from "./crowd.module.css";

export const metadata: Metadata = { title: "Crowd" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

function one(v: string | string[] | undefined): string {
  return (Array.isArray(v) ? v[0] : v) ?? "";
}

const PLATFORM: Record<StudyOverview["platform"], string> = { prolific: "Prolific", mturk: "Mechanical Turk", link: "Link" };
const STATE: Record<ParticipantRow["state"], string> = { active: "working", finished: "finished", "screened-out": "screened out", "timed-out": "timed out" };

function duration(ms: number): string {
  return ms <= 0 ? "—" : formatSeconds(ms / 1000);
}

function Time({ at, now }: { at: Date | null; now: Date }) {
  if (!at) return <span className="muted">—</span>;
  return (
    <time dateTime={at.toISOString()} title={absoluteTime(at)}>
      {relativeTime(at, now)}
    </time>
  );
}

/** Crowd studies of the project and, for the chosen study, its participants and their review. */
export default async function CrowdPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const projectId = Number((await params).projectId);
  const sp = await searchParams;
  const db = getDb();
  let studies: StudyOverview[];
  let view: ParticipantsPage | null = null;
  try {
    studies = studyOverviews(db, actor, projectId);
    const chosen = studies.find((s) => String(s.id) === one(sp.study)) ?? studies[0];
    if (chosen) view = participantsPage(db, actor, projectId, chosen.id, Number(one(sp.page) || 1));
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const base = `/projects/${projectId}/crowd`;
  const now = new Date();

  return (
    <>
      <h1>Crowd</h1>
      <p className="muted">Studies on Prolific, Mechanical Turk or a plain link: who took part, what they did, and what they are paid.</p>

      {/* Each study's link, open / pause / close, and the form that opens a new one. */}
      <div className={styles.controlsSlot}>
        <StudyControls projectId={projectId} />
      </div>

      <h2 id="studies-heading">Studies</h2>
      {studies.length === 0 ? (
        <p className="muted">No studies yet.</p>
      ) : (
        <div className="table-wrap">
          <table aria-labelledby="studies-heading" className={styles.studies}>
            <thead>
              <tr>
                <th scope="col">Study</th>
                <th scope="col">Platform</th>
                <th scope="col">State</th>
                <th scope="col" className="num">Batch</th>
                <th scope="col" className="num">Overlap</th>
                <th scope="col" className="num">Minutes</th>
                <th scope="col" className="num">Joined</th>
                <th scope="col" className="num">Finished</th>
                <th scope="col" className="num">Instances complete</th>
              </tr>
            </thead>
            <tbody>
              {studies.map((s) => (
                <tr key={s.id} className={view?.study.id === s.id ? styles.current : undefined}>
                  <th scope="row">
                    <Link href={`${base}?study=${s.id}`} aria-current={view?.study.id === s.id ? "true" : undefined}>
                      {s.name || `Study ${s.id}`}
                    </Link>
                  </th>
                  <td>{PLATFORM[s.platform]}</td>
                  <td>{s.state}</td>
                  <td className="num">{s.batchSize}</td>
                  <td className="num">{s.overlap}</td>
                  <td className="num">{s.minutes}</td>
                  <td className="num">{s.joined}</td>
                  <td className="num">{s.finished}</td>
                  <td className="num">{s.complete}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      {view && <Participants projectId={projectId} view={view} base={base} now={now} />}
    </>
  );
}

function Participants({ projectId, view, base, now }: { projectId: number; view: ParticipantsPage; base: string; now: Date }) {
  const s = view.study;
  const name = s.name || `Study ${s.id}`;
  const download = (file: string) => `/api/projects/${projectId}/crowd/${s.id}/download?file=${file}`;
  const pageHref = (p: number) => `${base}?study=${s.id}${p > 1 ? `&page=${p}` : ""}`;
  // Bound once here, on the server, for every row (review-controls.tsx says why not in the browser).
  const review = { review: reviewParticipantAction.bind(null, projectId), bonus: setBonusAction.bind(null, projectId) };
  return (
    <section aria-labelledby="participants-heading">
      <h2 id="participants-heading">Participants of {name}</h2>
      <p className={`small ${styles.summary}`}>
        <span>{view.total} joined</span>
        <span className={styles.approved}>{view.reviews.approved} approved</span>
        <span className={styles.rejected}>{view.reviews.rejected} rejected</span>
        <span className="muted">{view.reviews.pending} pending</span>
      </p>

      <h3 id="downloads-heading">Downloads</h3>
      <ul className={`small ${styles.downloads}`} aria-labelledby="downloads-heading">
        {s.platform === "prolific" && (
          <>
            <li>
              <a href={download("prolific-approve")} download>Prolific: approved ids</a> <span className="muted">(bulk approve)</span>
            </li>
            <li>
              <a href={download("prolific-bonus")} download>Prolific: bonuses</a> <span className="muted">(bulk bonus, id,amount in £)</span>
            </li>
          </>
        )}
        {s.platform === "mturk" && (
          <li>
            <a href={download("mturk")} download>Mechanical Turk: approve / reject</a> <span className="muted">(batch results upload)</span>
          </li>
        )}
        <li>
          <a href={download("tsv")} download>All participants (TSV)</a>
        </li>
      </ul>

      <h3>Rejected participants and the gold</h3>
      <p className="small muted">
        {view.excluded > 0
          ? `${view.excluded} participant${view.excluded === 1 ? "'s answers are" : "s' answers are"} left out of the gold, its files, modes and agreement${view.lastExclusion ? ` (${view.lastExclusion.by ?? "command line"}, ${relativeTime(view.lastExclusion.at, now)})` : ""}.`
          : "Every participant's answers are in the gold."}{" "}
        {view.rejectedInGold > 0 && `${view.rejectedInGold} rejected participant${view.rejectedInGold === 1 ? "'s answers are" : "s' answers are"} still in it.`} The decision is in the Gold tab's review log, and can be undone.
      </p>
      <ExclusionControls actions={{ leaveOut: excludeRejectedAction.bind(null, projectId), undo: undoExclusionAction.bind(null, projectId) }} studyId={s.id} rejectedInGold={view.rejectedInGold} excluded={view.excluded} />

      <h3 id="table-heading">Participants</h3>
      <p className="small muted">
        Agreement: {view.measure} Fast: median time per item under {formatSeconds(view.speedThresholdSeconds)} (the Progress tab&apos;s speed flag). Time on task is measured on the server.
      </p>
      {view.total === 0 ? (
        <p className="muted">Nobody has joined this study yet.</p>
      ) : (
        <>
          <div className="table-wrap">
            <table aria-labelledby="table-heading" className={styles.participants}>
              <thead>
                <tr>
                  <th scope="col">Platform id</th>
                  <th scope="col">Started · finished</th>
                  <th scope="col" className="num">Time on task</th>
                  <th scope="col" className="num">Items</th>
                  <th scope="col" className="num">Checks passed</th>
                  <th scope="col" className="num">Agreement</th>
                  <th scope="col">Flags</th>
                  <th scope="col">Review</th>
                </tr>
              </thead>
              <tbody>
                {view.rows.map((r) => (
                  <tr key={r.id} data-participant={r.platformId}>
                    <th scope="row" className={styles.id}>
                      {/* Long ids shortened in the middle (where Prolific's differ is their end); the whole id on hover and in the downloads. */}
                      <span title={r.platformId}>{shortId(r.platformId)}</span>
                      {r.sessionId && (
                        <div className="muted small" title={`Session ${r.sessionId}`}>
                          {shortId(r.sessionId)}
                        </div>
                      )}
                    </th>
                    <td data-label="Started · finished" className={styles.when}>
                      <Time at={r.joinedAt} now={now} />
                      <div className="small">{r.finishedAt ? <Time at={r.finishedAt} now={now} /> : <span className="muted">{STATE[r.state]}</span>}</div>
                    </td>
                    <td className="num" data-label="Time on task">{duration(r.activeMs)}</td>
                    <td className="num" data-label="Items">
                      {r.state === "screened-out" ? <span className="muted">no batch</span> : `${r.answered} / ${r.batch}`}
                    </td>
                    <td className="num" data-label="Checks passed">{r.checksSeen === 0 ? <span className="muted">—</span> : `${r.checksPassed} / ${r.checksSeen}`}</td>
                    <td className="num" data-label="Agreement" title={r.pairs > 0 ? `over ${r.pairs} pairs` : "no answer shared with another annotator yet"}>
                      {r.agreement === null ? <span className="muted">—</span> : `${(100 * r.agreement).toFixed(1)} %`}
                    </td>
                    <td data-label="Flags">
                      {r.flags.length === 0 && !r.excluded ? <span className="muted">—</span> : r.flags.map((f) => <span key={f} className={styles.flag}>{f}</span>)}
                      {r.excluded && <span className={styles.flag}>left out of the gold</span>}
                    </td>
                    <td className={styles.review} data-label="Review">
                      {/* Screened out with nothing to review here: say so instead of "pending". */}
                      <span className={r.review === "approved" ? styles.approved : r.review === "rejected" ? styles.rejected : "muted"}>
                        {!r.canReview && r.review === "pending" ? (r.state === "screened-out" ? "screened out" : r.review) : r.review}
                      </span>
                      {r.reviewReason && <div className="small">“{r.reviewReason}”</div>}
                      {r.bonusCents !== null && <div className="small">bonus {(r.bonusCents / 100).toFixed(2)}</div>}
                      {r.reviewedAt && (
                        <div className="muted small">
                          {r.reviewedBy ?? "command line"}, <Time at={r.reviewedAt} now={now} />
                        </div>
                      )}
                      <ReviewControls
                        actions={review}
                        participantId={r.id}
                        platformId={r.platformId}
                        review={r.review}
                        bonus={r.bonusCents === null ? "" : (r.bonusCents / 100).toFixed(2)}
                        maxReason={MAX_REASON}
                        canReview={r.canReview}
                        canBonus={r.canBonus}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {view.pages > 1 && (
            <nav className={styles.pager} aria-label="Participant pages">
              {view.page > 1 ? <Link href={pageHref(view.page - 1)} rel="prev">← Previous</Link> : <span className="muted">← Previous</span>}
              <span className="muted small">
                Page {view.page} of {view.pages} · {view.total} participants
              </span>
              {view.page < view.pages ? <Link href={pageHref(view.page + 1)} rel="next">Next →</Link> : <span className="muted">Next →</span>}
            </nav>
          )}
        </>
      )}
    </section>
  );
}
