import { headers } from "next/headers";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { listStudies, MAX_BATCH, MAX_MINUTES, MAX_OVERLAP, platformLink, publicOrigin } from "@/lib/server/crowd";
import { CopyLink, NewStudy, StudyStateButtons } from "./study-forms";
import { createStudyAction, setStudyStateAction } from "./study-actions";

const PLATFORM = { prolific: "Prolific", mturk: "Mechanical Turk", link: "Plain link" } as const;
const STATE = { open: "open", paused: "paused", closed: "closed" } as const;

/**
 * The coordinator's crowd studies of one project (issue #32): each study with its link (to
 * paste into Prolific or the ExternalQuestion), its counts and its open / pause / close buttons,
 * then the form that opens a new one (behind a button once the project has a study). lib/server/crowd checks that the viewer coordinates the
 * project. docs/crowdsourcing.md says how to set a study up on each platform.
 */
export async function StudyControls({ projectId }: { projectId: number }) {
  const db = getDb();
  const studies = listStudies(db, await getActor(), projectId);
  const origin = publicOrigin(await headers());
  return (
    <section aria-labelledby="study-links-heading">
      <h2 id="study-links-heading">Study links</h2>
      <p className="muted small">
        A study is a link participants join by from Prolific, Mechanical Turk or anywhere: each gets a batch of instances, and every instance ends with as many answers as the overlap says.
        See docs/crowdsourcing.md for the platform&rsquo;s side.
      </p>
      {studies.length === 0 && <p className="muted">No study yet.</p>}
      {studies.map((s) => {
        const label = s.name || `Study ${s.id}`;
        return (
          <article key={s.id} className="panel" aria-label={label}>
            <h3>
              {label} <span className="tag">{STATE[s.state]}</span> <span className="small muted">{PLATFORM[s.platform]}</span>
            </h3>
            <p className="small">
              Batches of {s.batchSize}, {s.overlap} answers an instance, {s.minutes} minutes a batch. {s.participants.toLocaleString("en")} participant{s.participants === 1 ? "" : "s"};{" "}
              {s.placesTaken.toLocaleString("en")} of {(s.instances * s.overlap).toLocaleString("en")} places taken; {s.full.toLocaleString("en")} of {s.instances.toLocaleString("en")} instances full.
              {s.completionCode && <> Completion code {s.completionCode}.</>}
              {s.screenOutCode && <> Screen-out code {s.screenOutCode}.</>}
              {s.consent.trim() && <> With a consent text.</>}
            </p>
            <CopyLink link={platformLink(origin, s.token, s.platform)} label={`Link of ${label}`} />
            {s.platform === "mturk" && <p className="small muted">Put this link in the ExternalQuestion&rsquo;s ExternalURL (write each &amp; as &amp;amp;); Mechanical Turk adds the worker&rsquo;s ids.</p>}
            <StudyStateButtons change={setStudyStateAction.bind(null, projectId, s.id)} name={label} state={s.state} />
          </article>
        );
      })}
      <NewStudy create={createStudyAction.bind(null, projectId)} limits={{ batch: MAX_BATCH, overlap: MAX_OVERLAP, minutes: MAX_MINUTES }} initiallyOpen={studies.length === 0} />
    </section>
  );
}
