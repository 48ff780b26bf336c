import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { NotFoundError } from "@/lib/server/errors";
import { teamOverview, type TeamView } from "@/lib/server/team";
import { ResponsesPanel } from "./responses-panel";
import { AddMemberForm, AssignmentForm, CreateAnnotatorForm, GuidelinesForm, RemoveMemberForm, RequiredAnnotatorsForm } from "./team-forms";
import styles from "./team.module.css";

export const metadata: Metadata = { title: "Team" };
export const dynamic = "force-dynamic";

function annotates(t: TeamView, lexeltIds: number[] | null): string {
  if (!lexeltIds) return t.lexelts.length === 0 ? "All lexelts (none loaded yet)" : `All ${t.lexelts.length} lexelts`;
  const items = t.lexelts.filter((l) => lexeltIds.includes(l.id)).map((l) => l.item);
  const shown = items.slice(0, 4).join(", ") + (items.length > 4 ? ", …" : "");
  return `${items.length} of ${t.lexelts.length}: ${shown}`;
}

export default async function TeamPage({ params }: { params: Promise<{ projectId: string }> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  let t: TeamView;
  try {
    t = teamOverview(getDb(), actor, Number(projectId));
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  const annotators = t.members.filter((m) => m.role === "annotator");
  const totalResponses = t.members.reduce((s, m) => s + m.responses, 0);
  return (
    <>
      <h1>Team</h1>
      <p className="muted">
        {t.project.name} · {annotators.length} annotator{annotators.length === 1 ? "" : "s"} ·{" "}
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
                <td><span className="tag">{m.role}</span></td>
                <td>{m.role === "annotator" ? annotates(t, m.lexeltIds) : <span className="muted">—</span>}</td>
                <td className="num">{m.responses}</td>
                <td>{m.role === "annotator" && <RemoveMemberForm projectId={t.project.id} userId={m.id} name={m.name} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <p className="muted small">
        Reset a password or disable an account on the <a href="/accounts">Accounts</a> page, which also lists failed sign-ins.
      </p>

      <h2>Add people</h2>
      <div className={styles.columns}>
        <div className="panel">
          <CreateAnnotatorForm projectId={t.project.id} />
        </div>
        <div className="panel">
          <AddMemberForm projectId={t.project.id} others={t.others} />
        </div>
      </div>

      <h2 id="assign-heading">Assignment</h2>
      <p className="muted small">By default every annotator annotates every lexelt. Restrict an annotator to some lexelts here.</p>
      {annotators.length === 0 ? (
        <p className="muted">No annotators in this project yet.</p>
      ) : t.lexelts.length === 0 ? (
        <p className="muted">Load lexelt XML on the Corpus tab first.</p>
      ) : (
        <div className={styles.assignments}>
          {annotators.map((m) => (
            <details key={m.id} className={`panel ${styles.assignment}`}>
              <summary>
                <strong>{m.name}</strong> <span className="muted">— {annotates(t, m.lexeltIds)}</span>
              </summary>
              <AssignmentForm projectId={t.project.id} userId={m.id} name={m.name} lexelts={t.lexelts} chosen={m.lexeltIds} />
            </details>
          ))}
        </div>
      )}

      <h2>Annotation settings</h2>
      <div className={styles.columns}>
        <div className="panel">
          <RequiredAnnotatorsForm projectId={t.project.id} value={t.project.requiredAnnotators} />
        </div>
        <div className="panel">
          <GuidelinesForm projectId={t.project.id} value={t.project.guidelines} />
        </div>
      </div>

      <h2>Responses</h2>
      <div className="panel">
        <ResponsesPanel projectId={t.project.id} responses={totalResponses} />
      </div>
    </>
  );
}
