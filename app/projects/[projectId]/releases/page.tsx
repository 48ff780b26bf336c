import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError, requireProject } from "@/lib/server/kernel";
import { listJobs } from "@/lib/server/jobs";
import { DATASHEET_QUESTIONS, datasheetAnswers, listReleases, MAX_DATASHEET_ANSWER } from "@/lib/server/releases";
import { int } from "@/app/_ui/format";
import { makeReleaseAction, saveDatasheetAction } from "./actions";
import { bytesText, shortSha } from "./format";
import styles from "./releases.module.css";

export const metadata: Metadata = { title: "Releases" };
export const dynamic = "force-dynamic";

type Search = { ok?: string; error?: string; job?: string };

/** The version a new release is offered: the newest one's next minor, else 1.0.0. */
function nextVersion(versions: string[]): string {
  const m = versions.map((v) => /^(\d+)\.(\d+)\.(\d+)$/.exec(v)).find((x) => x);
  return m ? `${m[1]}.${Number(m[2]) + 1}.0` : "1.0.0";
}

/**
 * Releases (coordinator): make a frozen, citable release of the project (a job; the page follows
 * it by reloading itself, no script needed), list the releases with their checksums and
 * downloads, and edit the datasheet's own answers the next release carries.
 */
export default async function ReleasesPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const pid = Number((await params).projectId);
  const sp = await searchParams;
  const db = getDb();
  let data;
  try {
    const project = requireProject(db, actor, pid, { coordinator: true });
    const jobs = listJobs(db, actor, pid, { kinds: ["release"], limit: 5 });
    // The job this page was sent back with (the action's ?job=): one of the project's latest release jobs, else nothing.
    const asked = sp.job && /^\d+$/.test(sp.job) ? (jobs.find((j) => j.id === Number(sp.job)) ?? null) : null;
    data = { project, releases: listReleases(db, actor, pid), sheet: datasheetAnswers(db, actor, pid), jobs, asked };
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const { project, releases, sheet, jobs, asked } = data;
  const running = jobs.filter((j) => j.state === "queued" || j.state === "running");
  const shown = asked && asked.kind === "release" ? asked : null;
  const report = shown?.report as { message?: string } | null | undefined;
  const failed = shown?.state === "failed" ? (shown.report as { details?: string[] } | null)?.details : undefined;
  const bind = <T,>(f: (projectId: number, form: FormData) => T) => f.bind(null, pid);
  return (
    <>
      {running.length > 0 && <meta httpEquiv="refresh" content={`3;url=/projects/${pid}/releases${shown ? `?job=${shown.id}` : ""}`} />}
      <h1>Releases</h1>
      <p className="muted">
        A release is the gold standard as it stands now, frozen: later answers and decisions never change it. It holds the corpus as lexelt XML, gold and
        mwgold, the CoInCo, SWORDS and TSAR files, the data as JSON Lines with a dataset card, the answers under pseudonyms, the agreement report with its
        plots, the guidelines, a datasheet and CITATION.cff, each with its SHA-256.
      </p>
      {sp.ok && (
        <p className="notice ok" role="status">
          {sp.ok}
        </p>
      )}
      {sp.error && (
        <p className="notice error" role="alert">
          {sp.error}
        </p>
      )}
      {running.map((j) => (
        <p key={j.id} className="notice" role="status">
          Making the release: {j.state === "queued" ? "waiting to start" : j.message} This page reloads itself until it is done.
        </p>
      ))}
      {shown?.state === "done" && (
        <p className="notice ok" role="status">
          {report?.message ?? "The release is made."}
        </p>
      )}
      {shown?.state === "failed" && (
        <p className="notice error" role="alert">
          The release was not made: {shown.message}
          {failed && failed.length > 0 ? ` (${failed.slice(0, 3).join(" ")})` : ""}
        </p>
      )}

      <section className="panel" aria-labelledby="make-h">
        <h2 id="make-h">Make a release</h2>
        <form action={bind(makeReleaseAction)} className={styles.make}>
          <div className="field">
            <label htmlFor="version">Version</label>
            <input id="version" name="version" required defaultValue={nextVersion(releases.map((r) => r.version))} pattern="\d+\.\d+\.\d+(-[0-9A-Za-z.\-]+)?" aria-describedby="version-hint" />
            <span id="version-hint" className="small muted">
              MAJOR.MINOR.PATCH (semver.org); a version is used once.
            </span>
          </div>
          <fieldset className={styles.include}>
            <legend>Besides the pseudonyms (A001, A002, …), the same in every release</legend>
            <label>
              <input type="checkbox" name="names" /> carry the annotators&apos; account names (a crowd participant&apos;s holds their platform id)
            </label>
            <label>
              <input type="checkbox" name="notes" /> carry the annotators&apos; flags and notes
            </label>
          </fieldset>
          <button type="submit" disabled={running.length > 0}>
            Make release
          </button>
        </form>
      </section>

      <section className="panel" aria-labelledby="list-h">
        <h2 id="list-h">Releases of {project.name}</h2>
        {releases.length === 0 ? (
          <p className="muted">None yet.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Version</th>
                  <th scope="col">Made</th>
                  <th scope="col" className="num">
                    Instances
                  </th>
                  <th scope="col" className="num">
                    Gold lines
                  </th>
                  <th scope="col" className="num">
                    Answers
                  </th>
                  <th scope="col">Archive</th>
                </tr>
              </thead>
              <tbody>
                {releases.map((r) => (
                  <tr key={r.id}>
                    <th scope="row">
                      <Link href={`/projects/${pid}/releases/${r.id}`}>{r.version}</Link>
                    </th>
                    <td>
                      {r.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC{r.createdByName ? ` by ${r.createdByName}` : ""}
                    </td>
                    <td className="num">{int(r.facts.instances)}</td>
                    <td className="num">{int(r.facts.goldLines)}</td>
                    <td className="num">{int(r.facts.answers)}</td>
                    <td>
                      <a href={`/api/projects/${pid}/releases/${r.id}`} download>
                        {r.fileName}
                      </a>{" "}
                      <span className="small muted">
                        {bytesText(r.archiveBytes)}, SHA-256 <code title={r.archiveSha256}>{shortSha(r.archiveSha256)}</code>
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="small muted">
          From the command line: <code>lexgold release create --project {project.name} --version X.Y.Z</code>, <code>release list</code>,{" "}
          <code>release download</code>.
        </p>
      </section>

      <section className="panel" aria-labelledby="datasheet">
        <h2 id="datasheet">Datasheet</h2>
        <p className="muted">
          Each release carries a datasheet (Gebru et al., &ldquo;Datasheets for Datasets&rdquo;). It states what lexgold knows itself: counts, language,
          annotators, answers per instance, training and attention checks, agreement, dates. These are the questions only you can answer; the next release
          carries your answers as they are then.
          {sheet.updatedAt ? ` Last saved ${sheet.updatedAt.toISOString().slice(0, 16).replace("T", " ")} UTC${sheet.updatedBy ? ` by ${sheet.updatedBy}` : ""}.` : ""}
        </p>
        <form action={bind(saveDatasheetAction)} className={styles.sheet}>
          {DATASHEET_QUESTIONS.map((q) => (
            <div className="field" key={q.key}>
              <label htmlFor={`ds-${q.key}`}>{q.label}</label>
              <span id={`ds-${q.key}-hint`} className="small muted">
                {q.question}
              </span>
              {q.key === "title" || q.key === "licence" ? (
                <input id={`ds-${q.key}`} name={q.key} defaultValue={sheet.answers[q.key] ?? ""} maxLength={MAX_DATASHEET_ANSWER} aria-describedby={`ds-${q.key}-hint`} />
              ) : (
                <textarea id={`ds-${q.key}`} name={q.key} rows={q.key === "authors" ? 3 : 4} defaultValue={sheet.answers[q.key] ?? ""} maxLength={MAX_DATASHEET_ANSWER} aria-describedby={`ds-${q.key}-hint`} />
              )}
            </div>
          ))}
          <button type="submit">Save answers</button>
        </form>
      </section>
    </>
  );
}
