import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { requireUserPage } from "@/lib/auth/session";
import { AuthError, requireProject, NotFoundError } from "@/lib/server/kernel";
import { getDb } from "@/lib/db";
import { participantView, workspace, type WorkspaceView } from "@/lib/server/annotate";
import { trainingPendingFor } from "@/lib/server/quality";
import { ParticipantEnd, participantMayWork } from "../completion";
import { Bar } from "../progress-bar";
import { RefreshIfChanged } from "../refresh-if-changed";

export const metadata: Metadata = { title: "Annotate" };
export const dynamic = "force-dynamic";

/**
 * Resume where the annotator left off (or, with ?lexelt=ID, jump to that target's
 * first unanswered instance, else its first); when everything is answered, say so.
 */
export default async function ResumePage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<{ lexelt?: string | string[] }>;
}) {
  const actor = await requireUserPage();
  const { projectId } = await params;
  const { lexelt } = await searchParams;
  let view: WorkspaceView;
  try {
    // Not a project of theirs (or none at all): a real 404, linking to their projects.
    requireProject(getDb(), actor, Number(projectId));
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  // A study participant whose work has ended sees their end screen (code, the platform's return).
  const participant = participantView(getDb(), actor);
  if (participant && !participantMayWork(participant)) return <ParticipantEnd view={participant} reviewHref={null} />;
  try {
    if (trainingPendingFor(getDb(), actor, Number(projectId))) redirect(`/annotate/${Number(projectId)}/training`);
    view = workspace(getDb(), actor, Number(projectId), undefined, typeof lexelt === "string" ? { lexeltId: Number(lexelt) } : {});
  } catch (e) {
    // Outside their queue, or an archived project: say so.
    if (e instanceof NotFoundError || e instanceof AuthError) return <Refused message={e.message} />;
    throw e;
  }
  if (view.instance) redirect(`/annotate/${view.project.id}/${view.instance.ref}`);
  // A participant's batch answered: the completion screen, with a way back to their answers while the study is open.
  if (participant?.state === "finished") {
    return <ParticipantEnd view={participant} reviewHref={view.firstRef !== null ? `/annotate/${view.project.id}/${view.firstRef}` : null} />;
  }
  const { progress } = view;
  return (
    <>
      <RefreshIfChanged />
      <h1>{view.project.name}</h1>
      <div className="panel">
        {progress.total === 0 ? (
          <p>There is nothing for you to annotate in this project yet.</p>
        ) : (
          <>
            <p>
              <strong>All done.</strong> You have answered all {progress.total} instances. Thank you!
            </p>
            <Bar label="Overall progress" done={progress.done} total={progress.total} />
            <p className="small muted">You can still go back and change any answer.</p>
            <Link className="button secondary" href={`/annotate/${view.project.id}/${view.firstRef}`}>
              Review from the first instance
            </Link>
          </>
        )}
      </div>
      <p>
        <Link href="/annotate">← Your projects</Link>
      </p>
    </>
  );
}

function Refused({ message }: { message: string }) {
  return (
    <>
      <h1>Annotate</h1>
      <p className="notice warn">{message}</p>
      <p>
        <Link href="/annotate">← Your projects</Link>
      </p>
    </>
  );
}
