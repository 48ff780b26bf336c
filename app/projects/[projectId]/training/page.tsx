import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { requireProject, NotFoundError } from "@/lib/server/kernel";
import { checkReport, knownAnswerItems, lexeltNotes, qualitySettings } from "@/lib/server/quality";
import { Guidelines, MarkdownText } from "@/app/annotate/guidelines";
import {
  fromGoldAction,
  importKnownAnswersAction,
  removeKnownAnswerAction,
  saveGuidelinesAction,
  saveNoteAction,
  saveSettingsAction,
  setKnownAnswerAction,
} from "./actions";
import styles from "./training.module.css";
import { listAnswers } from "@/app/_ui/answer-text";

export const metadata: Metadata = { title: "Training and checks" };
export const dynamic = "force-dynamic";

type Search = { ok?: string; error?: string; lexelt?: string; find?: string };

/** Lexelts listed to choose from at once (a corpus may have tens of thousands). */
const LEXELTS_LISTED = 30;

function RoleSelect({ id }: { id: string }) {
  return (
    <div className="field">
      <label htmlFor={id}>Use as</label>
      <select id={id} name="role" defaultValue="training">
        <option value="training">Training item</option>
        <option value="check">Attention check</option>
      </select>
    </div>
  );
}

/** A server action of this page, bound to its project (a form's action, posted with or without JavaScript). */
const bound = <T,>(pid: number, f: (projectId: number, form: FormData) => T) => f.bind(null, pid);

type Settings = ReturnType<typeof qualitySettings>;
type Items = ReturnType<typeof knownAnswerItems>;
type Report = ReturnType<typeof checkReport>;
type Notes = ReturnType<typeof lexeltNotes>;

/**
 * Training and checks (coordinator): the settings, the known-answer items (one by
 * one, a TSV upload, or the current gold), the per-annotator report, the
 * guidelines and per-lexelt notes in Markdown.
 */
export default async function TrainingSetupPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const pid = Number((await params).projectId);
  const sp = await searchParams;
  const db = getDb();
  let data;
  try {
    const project = requireProject(db, actor, pid, { coordinator: true });
    data = { project, settings: qualitySettings(db, actor, pid), items: knownAnswerItems(db, actor, pid), report: checkReport(db, actor, pid), notes: lexeltNotes(db, actor, pid, { lexelt: Number(sp.lexelt), find: sp.find, limit: LEXELTS_LISTED }) };
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const { project, settings, items, report, notes } = data;
  return (
    <>
      <h1>Training and checks</h1>
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
      <div className={styles.grid}>
        <SettingsPanel pid={pid} settings={settings} />
        <AddItemsPanel pid={pid} />
      </div>

      <ItemsPanel pid={pid} items={items} trainingInQueue={settings.trainingInQueue} />

      <ReportPanel report={report} />

      <div className={styles.grid}>
        <GuidelinesPanel pid={pid} guidelines={project.guidelines} />
        <NotesPanel pid={pid} notes={notes} find={sp.find} />
      </div>
    </>
  );
}

/** The project's training and speed settings. */
function SettingsPanel({ pid, settings }: { pid: number; settings: Settings }) {
  return (
    <section className="panel" aria-labelledby="settings-h">
      <h2 id="settings-h">Settings</h2>
      <form action={bound(pid, saveSettingsAction)}>
        <div className="field">
          <label>
            <input type="checkbox" name="trainingRequired" defaultChecked={settings.trainingRequired} /> Annotators must pass the training before real
            instances
          </label>
        </div>
        <div className="field">
          <label>
            <input type="checkbox" name="trainingInQueue" defaultChecked={settings.trainingInQueue} /> Training items stay in the annotators&rsquo; queue
          </label>
          <div className="muted small">
            Off (the default): annotators never meet a training item among their real instances, and Progress does not count them. On: they meet them
            again; an answer saved after the training showed its known answers is left out of the gold.
          </div>
        </div>
        <div className="field">
          <label htmlFor="trainingThreshold">Pass mark (% of training items matched)</label>
          <input id="trainingThreshold" name="trainingThreshold" type="number" min={0} max={100} defaultValue={settings.trainingThreshold} />
          <div className="muted small">
            An item matches when one of the annotator&apos;s substitutes shares a lemma with a known answer (lemmatised as the gold is).
          </div>
        </div>
        <div className="field">
          <label htmlFor="speedThresholdSeconds">Flag annotators faster than (median seconds per instance)</label>
          <input id="speedThresholdSeconds" name="speedThresholdSeconds" type="number" min={0} max={600} step="0.5" defaultValue={settings.speedThresholdSeconds} />
        </div>
        <button type="submit">Save settings</button>
      </form>
    </section>
  );
}

/** Known-answer items added one by one, from a TSV file, or from the current gold. */
function AddItemsPanel({ pid }: { pid: number }) {
  return (
    <section className="panel" aria-labelledby="mark-h">
      <h2 id="mark-h">Add a known-answer item</h2>
      <form action={bound(pid, setKnownAnswerAction)}>
        <div className="field">
          <label htmlFor="instanceId">Instance id</label>
          <input id="instanceId" name="instanceId" required autoComplete="off" />
        </div>
        <RoleSelect id="role-one" />
        <div className="field">
          <label htmlFor="accepted">Accepted substitutes (separate with ;)</label>
          <input id="accepted" name="accepted" required autoComplete="off" />
        </div>
        <button type="submit">Save item</button>
      </form>
      <h4>Upload a TSV</h4>
      <form action={bound(pid, importKnownAnswersAction)}>
        <div className="field">
          <label htmlFor="known-file">File: instance_id⇥sub1;sub2;… one per line</label>
          <input id="known-file" name="file" type="file" accept=".tsv,.txt,text/tab-separated-values,text/plain" />
        </div>
        <RoleSelect id="role-file" />
        <button type="submit" className="secondary">
          Upload
        </button>
      </form>
      <h4>Use the current gold</h4>
      <form action={bound(pid, fromGoldAction)}>
        <div className="field">
          <label htmlFor="instanceIds">Instance ids (spaces or commas between)</label>
          <input id="instanceIds" name="instanceIds" autoComplete="off" />
        </div>
        <RoleSelect id="role-gold" />
        <button type="submit" className="secondary">
          Mark with their gold
        </button>
      </form>
    </section>
  );
}

/** The known-answer items, each with its remove button. */
function ItemsPanel({ pid, items, trainingInQueue }: { pid: number; items: Items; trainingInQueue: boolean }) {
  return (
    <section className="panel" aria-labelledby="items-h">
      <h2 id="items-h">Known-answer items ({items.length})</h2>
      <p className="muted small">
        Training items are shown to annotators first, with feedback; their answers are kept apart and never reach gold or agreement. Attention checks stay in
        the queue looking like any instance; their responses are left out of gold and agreement and scored in the report below.
      </p>
      <p className="muted small" data-testid="training-in-queue">
        {trainingInQueue ? (
          <>
            Training items stay in the annotators&rsquo; queue (see Settings): annotators meet them again after the training showed their known answers, and
            those answers are left out of the gold (answers given before count).
          </>
        ) : (
          <>
            Training items are left out of the annotators&rsquo; queue: nobody meets them among real instances, and Progress does not count them. Answers
            given to them before they became training items stay in the gold.
          </>
        )}
      </p>
      {items.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Instance</th>
                <th scope="col">Lexelt</th>
                <th scope="col">Use</th>
                <th scope="col">Accepted</th>
                <th scope="col">
                  Remove
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((k) => (
                <tr key={k.ref}>
                  <td>{k.instanceId}</td>
                  <td>{k.lexelt}</td>
                  <td>{k.role === "training" ? "Training" : "Attention check"}</td>
                  <td>{listAnswers(k.accepted)}</td>
                  <td>
                    <form action={bound(pid, removeKnownAnswerAction)}>
                      <input type="hidden" name="instanceId" value={k.instanceId} />
                      <button type="submit" className="secondary" aria-label={`Remove ${k.instanceId}`}>
                        Remove
                      </button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Each annotator's attention checks and training attempts. */
function ReportPanel({ report }: { report: Report }) {
  return (
    <section className="panel" aria-labelledby="report-h">
      <h2 id="report-h">Per-annotator report</h2>
      {report.length === 0 ? (
        <p className="muted">No training attempts or attention checks answered yet.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Annotator</th>
                <th scope="col">Checks seen</th>
                <th scope="col">Passed</th>
                <th scope="col">%</th>
                <th scope="col">Training attempts</th>
                <th scope="col">Best score</th>
                <th scope="col">Training</th>
              </tr>
            </thead>
            <tbody>
              {report.map((r) => (
                <tr key={r.userId}>
                  <td>{r.name}</td>
                  <td className="num">{r.seen}</td>
                  <td className="num">{r.passed}</td>
                  <td className="num">{r.percent === null ? "—" : `${r.percent} %`}</td>
                  <td className="num">{r.trainingAttempts}</td>
                  <td className="num">{r.trainingBest === null ? "—" : `${r.trainingBest} %`}</td>
                  <td>{r.trainingPassed ? "passed" : r.trainingAttempts > 0 ? "not passed" : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The guidelines as annotators read them, and their Markdown to edit. */
function GuidelinesPanel({ pid, guidelines }: { pid: number; guidelines: string }) {
  return (
    <section className="panel" aria-labelledby="guidelines-h">
      <h2 id="guidelines-h">Guidelines</h2>
      <p className="muted small">{guidelines.trim() ? "What annotators read:" : "No guidelines written: annotators read this default text."}</p>
      <div className={styles.preview}>
        <Guidelines text={guidelines} />
      </div>
      <form action={bound(pid, saveGuidelinesAction)}>
        <div className="field">
          <label htmlFor="guidelines-md">Edit (Markdown)</label>
          <textarea id="guidelines-md" name="guidelines" rows={8} defaultValue={guidelines} className={styles.textarea} />
        </div>
        <button type="submit" className="secondary">
          Save guidelines
        </button>
      </form>
    </section>
  );
}

/**
 * A note per lexelt: the lexelts to choose from (those matching the search, else those with a note
 * first; a page's worth, never all), and the chosen one's note to edit.
 */
function NotesPanel({ pid, notes, find: asked }: { pid: number; notes: Notes; find: string | undefined }) {
  const { chosen, listed } = notes;
  const find = (asked ?? "").trim();
  return (
    <section className="panel" aria-labelledby="notes-h">
      <h2 id="notes-h">Notes and examples per lexelt</h2>
      {notes.total === 0 || !chosen ? (
        <p className="muted">Import lexelts first.</p>
      ) : (
        <>
          <form method="get" role="search" aria-label="Find a lexelt">
            <div className="field">
              <label htmlFor="find-lexelt">Find a lexelt</label>
              <input id="find-lexelt" name="find" type="text" defaultValue={asked ?? ""} placeholder="e.g. bright" />
            </div>
            <button type="submit" className="secondary">
              Find
            </button>
          </form>
          <p className="small muted">
            {find ? `${notes.matched} matching` : `${notes.withNote} with a note, of ${notes.total}`}
            {notes.matched > listed.length ? `; the first ${listed.length} shown` : ""}
          </p>
          <ul className="plain" aria-label="Lexelts" style={{ marginBottom: "0.75rem" }}>
            {listed.map((n) => (
              <li key={n.id}>
                <a href={`?lexelt=${n.id}${asked ? `&find=${encodeURIComponent(asked)}` : ""}`} aria-current={n.id === chosen.id ? "true" : undefined}>
                  {n.item}
                </a>
                {n.hasNote ? " ✎" : ""}
              </li>
            ))}
          </ul>
          <form action={bound(pid, saveNoteAction)}>
            <input type="hidden" name="lexeltId" value={chosen.id} />
            <div className="field">
              <label htmlFor="note">Note for {chosen.item} (Markdown; shown beside the sentence)</label>
              <textarea key={chosen.id} id="note" name="note" rows={6} defaultValue={chosen.note} className={styles.textarea} />
            </div>
            <button type="submit">Save note</button>
          </form>
          {chosen.note.trim() && (
            <div className={styles.preview}>
              <MarkdownText text={chosen.note} />
            </div>
          )}
        </>
      )}
    </section>
  );
}
