import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/server/kernel";
import Link from "next/link";
import { type JobView, listJobs } from "@/lib/server/jobs";
import { type TeamMember, teamOverview, type TeamView } from "@/lib/server/people";
import { answerOf, pageOutcome } from "@/app/_ui/native-answer";
import { ResponsesPanel } from "./responses-panel";
import { addMemberAction, createAnnotatorAction, removeMemberAction, setAssignmentAction, setGuidelinesAction, setMemberRoleAction, setRequiredAction, splitAction } from "./actions";
import { AddMemberForm, AssignmentForm, CreateAnnotatorForm, GuidelinesForm, MemberRoleForm, RemoveMemberForm, RequiredAnnotatorsForm, SplitForm } from "./team-forms";
import styles from "./team.module.css";

export const metadata: Metadata = { title: "Team" };
export const dynamic = "force-dynamic";

/** Lexelts per page of the assignment editor: the page stays bounded whatever the corpus. */
const PAGE_SIZE = 50;

interface Search {
  /** The annotator whose assignment is being edited, the lexelt search and page. */
  assign?: string;
  lq?: string;
  lpage?: string;
  /** A responses file posted without JavaScript: the route's answer (app/_ui/native-answer.ts). */
  outcome?: string;
}

function annotates(t: TeamView, assigned: TeamMember["assigned"]): string {
  if (!assigned) return t.lexeltCount === 0 ? "All lexelts (none loaded yet)" : `All ${t.lexeltCount} lexelts`;
  const shown = assigned.first.slice(0, 4).join(", ") + (assigned.count > 4 ? ", …" : "");
  return `${assigned.count} of ${t.lexeltCount}: ${shown}`;
}

export default async function TeamPage({ params, searchParams }: { params: Promise<{ projectId: string }>; searchParams: Promise<Search> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  const sp = await searchParams;
  let t: TeamView;
  let responseJobs: JobView[];
  try {
    t = teamOverview(getDb(), actor, Number(projectId), { editing: Number(sp.assign), lq: sp.lq, lpage: Number(sp.lpage ?? 1), pageSize: PAGE_SIZE });
    responseJobs = listJobs(getDb(), actor, t.project.id, { kinds: ["responses-import"], limit: 3 });
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  // Annotators are the members who annotate here (their project role): judges only label in judgement rounds.
  const annotators = t.members.filter((m) => m.projectRole === "annotator");
  const judges = t.members.filter((m) => m.projectRole === "judge").length;
  const base = `/projects/${t.project.id}/members`;
  const outcome = await pageOutcome(base, sp.outcome);
  // The actions bound to the project here, on the server: the forms then work before the page's script runs (#38).
  const id = t.project.id;
  const act = {
    create: createAnnotatorAction.bind(null, id),
    add: addMemberAction.bind(null, id),
    role: setMemberRoleAction.bind(null, id),
    remove: removeMemberAction.bind(null, id),
    assign: setAssignmentAction.bind(null, id),
    split: splitAction.bind(null, id),
    required: setRequiredAction.bind(null, id),
    guidelines: setGuidelinesAction.bind(null, id),
  };
  const editing = annotators.find((m) => String(m.id) === sp.assign);
  const lq = (sp.lq ?? "").trim();
  const lexeltPage = t.lexeltPage;
  const pageHref = (n: number) => `${base}?${new URLSearchParams({ assign: String(editing?.id ?? ""), ...(lq ? { lq } : {}), lpage: String(n) })}#editor`;
  return (
    <>
      <h1>Team</h1>
      <p className="muted">
        {t.project.name} · {annotators.length} annotator{annotators.length === 1 ? "" : "s"} ·{" "}
        {judges > 0 && `${judges} judge${judges === 1 ? "" : "s"} · `}
        {t.project.requiredAnnotators === null
          ? "every instance goes to everyone assigned"
          : `${t.project.requiredAnnotators} annotator${t.project.requiredAnnotators === 1 ? "" : "s"} per instance`}
      </p>

      <h2 id="members-heading">Members</h2>
      <div className="table-wrap">
        <table aria-labelledby="members-heading">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Annotates</th>
              <th scope="col" className="num">Responses</th>
              <th scope="col">Membership</th>
            </tr>
          </thead>
          <tbody>
            {t.members.map((m) => (
              <tr key={m.id}>
                <th scope="row" className={styles.name}>{m.name}</th>
                <td>
                  {m.projectRole === "coordinator" ? (
                    <span className="tag">coordinator</span>
                  ) : (
                    <MemberRoleForm action={act.role} userId={m.id} name={m.name} role={m.projectRole} />
                  )}
                </td>
                <td>
                  {m.projectRole === "annotator" ? (
                    annotates(t, m.assigned)
                  ) : m.projectRole === "judge" ? (
                    <span className="muted">Nothing: judges the rounds they are given</span>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td className="num">{m.responses}</td>
                <td>{m.role === "annotator" && <RemoveMemberForm action={act.remove} userId={m.id} name={m.name} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {t.participants > 0 && (
        <p className="small">
          And {t.participants.toLocaleString("en")} study participant{t.participants === 1 ? "" : "s"}, who joined by a study link: see the{" "}
          <Link href={`/projects/${t.project.id}/crowd`}>Crowd</Link> tab.
        </p>
      )}
      <p className="muted small">
        An annotator answers in the workspace and counts in Progress and the gold; a judge only labels candidates in the judgement rounds
        they are given, and never appears in the queue, Progress or the gold.
      </p>
      <p className="muted small">
        Reset a password or disable an account on the <a href="/accounts">Accounts</a> page, which also lists failed sign-ins.
      </p>

      <h2>Add people</h2>
      <div className={styles.columns}>
        <div className="panel">
          <CreateAnnotatorForm action={act.create} />
        </div>
        <div className="panel">
          <AddMemberForm action={act.add} others={t.others} />
        </div>
      </div>

      <h2 id="assign-heading">Assignment</h2>
      <p className="muted small">By default every annotator annotates every lexelt. Split the lexelts over annotators by rule, or restrict one annotator by hand.</p>
      {annotators.length === 0 ? (
        <p className="muted">No annotators in this project yet.</p>
      ) : t.lexeltCount === 0 ? (
        <p className="muted">Load lexelt XML on the Corpus tab first.</p>
      ) : (
        <>
          <div className="panel">
            <SplitForm action={act.split} annotators={annotators.map((m) => ({ id: m.id, name: m.name }))} />
          </div>
          <h3 id="by-hand-heading">By hand</h3>
          <ul className={styles.assignees} aria-labelledby="by-hand-heading">
            {annotators.map((m) => (
              <li key={m.id}>
                <Link href={`${base}?assign=${m.id}#editor`} aria-current={editing?.id === m.id ? "true" : undefined}>
                  <strong>{m.name}</strong>
                </Link>{" "}
                <span className="muted small">— {annotates(t, m.assigned)}</span>
              </li>
            ))}
          </ul>
          {editing && (
            <section id="editor" className="panel" aria-labelledby="editor-heading">
              <h3 id="editor-heading">Lexelts for {editing.name}</h3>
              <form method="get" action={base} className={styles.search} role="search" aria-label="Lexelts">
                <input type="hidden" name="assign" value={editing.id} />
                <label>
                  Find lexelt <input type="search" name="lq" defaultValue={lq} />
                </label>
                <button type="submit" className="secondary">Find</button>
              </form>
              {/* The key resets the form's ticks when the page or search changes. */}
              <AssignmentForm
                key={`${editing.id}:${lexeltPage.page}:${lq}`}
                action={act.assign}
                userId={editing.id}
                name={editing.name}
                restricted={editing.assigned !== null}
                lexelts={lexeltPage.rows}
              />
              {lexeltPage.total === 0 && <p className="muted">No lexelt matches “{lq}”.</p>}
              {lexeltPage.pages > 1 && (
                <nav aria-label="Lexelt pages" className={styles.pager}>
                  {lexeltPage.page > 1 ? <Link href={pageHref(lexeltPage.page - 1)} rel="prev">← Previous</Link> : <span className="muted">← Previous</span>}
                  <span className="muted small">Page {lexeltPage.page} of {lexeltPage.pages} · {lexeltPage.total} lexelts</span>
                  {lexeltPage.page < lexeltPage.pages ? <Link href={pageHref(lexeltPage.page + 1)} rel="next">Next →</Link> : <span className="muted">Next →</span>}
                </nav>
              )}
            </section>
          )}
        </>
      )}

      <h2>Annotation settings</h2>
      <div className={styles.columns}>
        <div className="panel">
          <RequiredAnnotatorsForm action={act.required} value={t.project.requiredAnnotators} />
        </div>
        <div className="panel">
          <GuidelinesForm action={act.guidelines} value={t.project.guidelines} />
        </div>
      </div>

      <h2 id="responses">Responses</h2>
      <div className="panel">
        <ResponsesPanel projectId={t.project.id} responses={t.responses} initialJobs={responseJobs} outcome={answerOf(outcome)} />
      </div>
    </>
  );
}
