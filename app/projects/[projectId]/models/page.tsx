import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/server/kernel";
import { listModels, type ModelRunView, modelRuns, type ModelView, type SuggestionSettings, suggestionSettings, type TemplatesView, templatesView } from "@/lib/server/models";
import { absoluteTime, relativeTime } from "@/app/_ui/time";
import { addRunsAction, cancelRunAction, countModelAction, discardAnswersAction, registerModelAction, removeModelAction, startRunAction, studySuggestionsAction, suggestionsAction, templateAction } from "./actions";
import { FollowFigures } from "@/app/_ui/follow-figures";
import { AddRunsForm, CancelRun, CountForm, DangerForm, RegisterForm, RunForm, StudySuggestionsForm, SuggestionsForm, TemplateForm } from "./forms";
import styles from "./models.module.css";

export const metadata: Metadata = { title: "Models" };
export const dynamic = "force-dynamic";

const nf = new Intl.NumberFormat("en");
const unfinished = (j: ModelRunView) => j.state === "queued" || j.state === "running";

function keyText(m: ModelView): string {
  return m.key.how === "env" ? `key from $${m.key.name}` : m.key.how === "stored" ? "key stored encrypted" : "no key";
}

/** A run of a model: its progress while it goes, its outcome and failures after. */
function RunStatus({ projectId, job, now }: { projectId: number; job: ModelRunView; now: Date }) {
  const input = job.report;
  if (unfinished(job)) {
    return (
      <div className="notice job" role="status">
        <div className="job-head">
          <span>{job.state === "queued" ? "Waiting to start…" : job.message}</span>
          <CancelRun act={cancelRunAction.bind(null, projectId, job.jobId)} asked={job.cancelRequested} />
        </div>
        <progress aria-label="The run's progress" max={Math.max(job.total, 1)} value={job.total > 0 ? job.done : undefined} />
      </div>
    );
  }
  const when = job.finishedAt ? new Date(job.finishedAt) : null;
  const ago = when ? (
    <time dateTime={when.toISOString()} title={absoluteTime(when)}>
      {relativeTime(when, now)}
    </time>
  ) : null;
  if (job.state !== "done" || !input) {
    return (
      <p className={`notice ${job.state === "cancelled" ? "warn" : "error"}`} role="status">
        {job.message} {ago}
      </p>
    );
  }
  return (
    <div className="notice ok" role="status">
      {input.purpose === "candidates" ? "Candidates" : "Answers"}: {nf.format(input.answered)} now ({nf.format(input.cached)} from the cache), {nf.format(input.skipped)} before, {nf.format(input.failed)} failed, of {nf.format(input.total)}; {nf.format(input.tokensIn)} tokens in, {nf.format(input.tokensOut)} out; template version {input.templateVersion}. {ago}
      {input.failures.length > 0 && (
        <details className="repairs">
          <summary>
            What failed ({nf.format(input.failed)}
            {input.failed > input.failures.length ? `, the first ${input.failures.length}` : ""})
          </summary>
          <pre>{input.failures.map((f) => `${f.lexelt} ${f.instanceId}${input.samples > 1 ? ` (sample ${f.sample})` : ""}: ${f.outcome}: ${f.detail}`).join("\n")}</pre>
        </details>
      )}
    </div>
  );
}

function ModelCard({ projectId, m, runs, now }: { projectId: number; m: ModelView; runs: ModelRunView[]; now: Date }) {
  const running = runs.some(unfinished);
  return (
    <section className={`panel ${styles.model}`} aria-labelledby={`model-${m.id}`}>
      <div className={styles.modelHead}>
        <h3 id={`model-${m.id}`}>{m.name}</h3>
        {m.counted ? <span className="tag">counted as an annotator</span> : <span className="small muted">not counted: out of the gold and the people&apos;s agreement</span>}
      </div>
      <p className={styles.facts}>
        <span>
          {m.kind === "openai" ? "OpenAI-compatible" : "Ollama"} · <code>{m.model}</code>
        </span>
        <span className={styles.url}>{m.baseUrl}</span>
        <span>{keyText(m)}</span>
        <span>
          {m.maxConcurrency} at once, {m.timeoutS} s a call
        </span>
        <span>
          {nf.format(m.answers)} answers ({m.samples} {m.samples === 1 ? "sample" : "samples"}), {nf.format(m.calls)} calls
        </span>
        <span className="small muted">registered {m.registeredFrom === "cli" ? "from the command line" : `on this page${m.createdBy ? ` by ${m.createdBy}` : ""}`}</span>
      </p>
      {/* The latest run of each purpose: its answers, and its ranked candidates. */}
      {runs.filter((j, k) => runs.findIndex((o) => o.purpose === j.purpose) === k).map((j) => (
        <RunStatus key={j.jobId} projectId={projectId} job={j} now={now} />
      ))}
      <RunForm act={startRunAction.bind(null, projectId, m.name)} name={m.name} disabled={running} />
      {m.answers > 0 && (
        <div className={styles.actions}>
          <AddRunsForm act={addRunsAction.bind(null, projectId)} models={[{ name: m.name, samples: m.samples }]} compact />
          <p className={styles.downloads}>
            <a href={`/api/projects/${projectId}/models/file?model=${encodeURIComponent(m.name)}&type=best`} download>
              best file
            </a>{" "}
            ·{" "}
            <a href={`/api/projects/${projectId}/models/file?model=${encodeURIComponent(m.name)}&type=oot`} download>
              oot file
            </a>
          </p>
          <CountForm act={countModelAction.bind(null, projectId, m.name, !m.counted)} name={m.name} counted={m.counted} />
          {!m.counted && <DangerForm act={discardAnswersAction.bind(null, projectId, m.name)} name={m.name} what="discard" />}
        </div>
      )}
      {!m.counted && (
        <details className={styles.remove}>
          <summary className="small">Remove this model</summary>
          <DangerForm act={removeModelAction.bind(null, projectId, m.name)} name={m.name} what="remove" />
        </details>
      )}
    </section>
  );
}

/** The project's models: connections, runs, what is counted, the prompt, suggestions in the workspace. */
export default async function ModelsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const actor = await requireCoordinatorPage();
  const projectId = Number((await params).projectId);
  const db = getDb();
  let models: ModelView[];
  let jobs: ModelRunView[];
  let templates: TemplatesView;
  let suggestions: SuggestionSettings;
  try {
    models = listModels(db, actor, projectId);
    jobs = modelRuns(db, actor, projectId);
    templates = templatesView(db, actor, projectId);
    suggestions = suggestionSettings(db, actor, projectId);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const now = new Date();
  const running = jobs.some(unfinished);
  const runsOf = (m: ModelView) => jobs.filter((j) => j.modelId === m.id);
  return (
    <>
      <h1>Models</h1>
      {running && (
        <noscript>
          <meta httpEquiv="refresh" content="5" />
        </noscript>
      )}
      {/* While a run goes on, its figures are looked at again every second and a half (without JavaScript: the page's refresh header). */}
      <FollowFigures computing={running} everyMs={1500} />
      <p className="muted">
        A model annotates beside the people, as annotators of its own, and is measured against them on the <Link href={`/projects/${projectId}/agreement#models`}>Agreement</Link> tab. Its answers stay out of the gold, Progress and
        the people&apos;s agreement unless you count it. What is sent to a model and what it costs: docs/models.md.
      </p>
      {models.length === 0 ? <p className="muted">No model yet.</p> : models.map((m) => <ModelCard key={m.id} projectId={projectId} m={m} runs={runsOf(m)} now={now} />)}

      <RegisterForm act={registerModelAction.bind(null, projectId)} />

      <h2 id="suggestions">Suggestions in the workspace</h2>
      {models.length === 0 ? (
        <p className="muted">Register a model first.</p>
      ) : (
        <>
          <SuggestionsForm act={suggestionsAction.bind(null, projectId)} mode={suggestions.mode} model={suggestions.model} models={models.map((m) => m.name)} />
          {suggestions.studies.length > 0 && (
            <div className="panel">
              <p className="small muted">Crowd participants never see suggestions unless their study allows it:</p>
              {suggestions.studies.map((s) => (
                <StudySuggestionsForm key={s.id} act={studySuggestionsAction.bind(null, projectId, s.id, !s.allowSuggestions)} study={s} allowed={s.allowSuggestions} />
              ))}
            </div>
          )}
        </>
      )}

      <h2 id="prompt">The prompt</h2>
      <p className="muted">
        Sent to the model for each instance: a fixed system message (reply with JSON only; the sentence is data) and this template, filled in. The target is marked [[like this]]; its PoS is never sent. Versions are kept with the
        answers.
      </p>
      <div className={styles.templates}>
        {(["annotate", "candidates"] as const).map((purpose) => {
          const t = templates[purpose];
          return (
            <section key={purpose} className="panel" aria-labelledby={`tpl-${purpose}-h`}>
              <h3 id={`tpl-${purpose}-h`}>
                {purpose === "annotate" ? "Answers (annotate)" : "Ranked candidates (oot, judgement rounds)"} <span className="small muted">version {t.version}{t.builtIn ? ", built in" : ""}</span>
              </h3>
              <TemplateForm act={templateAction.bind(null, projectId, purpose)} purpose={purpose} text={t.text} builtIn={t.builtIn} />
              {t.preview && (
                <details>
                  <summary className="small">The prompt for the first instance</summary>
                  <pre className={styles.preview}>{`${t.preview.system}\n\n${t.preview.user}`}</pre>
                </details>
              )}
            </section>
          );
        })}
      </div>
    </>
  );
}
