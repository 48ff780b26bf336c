import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireUserPage } from "@/lib/auth/session";
import { AuthError, requireProject, NotFoundError } from "@/lib/server/kernel";
import { getDb } from "@/lib/db";
import { redirect } from "next/navigation";
import { participantView, workspace, type WorkspaceView } from "@/lib/server/annotate";
import { participantMayWork } from "../../completion";
import { trainingPendingFor } from "@/lib/server/quality";
import { Workspace } from "../../workspace";
import { workspaceSuggestionMode } from "@/lib/server/models";

export const metadata: Metadata = { title: "Annotate" };
export const dynamic = "force-dynamic";

/** One instance of the annotator's queue; the URL names it, so reload and back/forward work. */
export default async function InstancePage({ params }: { params: Promise<{ projectId: string; instanceId: string }> }) {
  const actor = await requireUserPage();
  const { projectId, instanceId } = await params;
  const pid = Number(projectId);
  let view: WorkspaceView;
  try {
    // Not a project of theirs (or none at all): a real 404, linking to their projects.
    requireProject(getDb(), actor, pid);
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  // A study participant whose work has ended: their end screen.
  const participant = participantView(getDb(), actor);
  if (participant && !participantMayWork(participant)) redirect(`/annotate/${pid}`);
  try {
    if (trainingPendingFor(getDb(), actor, pid)) redirect(`/annotate/${pid}/training`);
    view = workspace(getDb(), actor, pid, Number(instanceId));
  } catch (e) {
    if (!(e instanceof NotFoundError || e instanceof AuthError)) throw e;
    return (
      <>
        <h1>Annotate</h1>
        <p className="notice warn">{e.message}</p>
        <p>
          <Link href={`/annotate/${pid}`}>Continue where you left off</Link> · <Link href="/annotate">Your projects</Link>
        </p>
      </>
    );
  }
  const v = view as WorkspaceView & { instance: NonNullable<WorkspaceView["instance"]> };
  return <Workspace key={v.instance.ref} view={v} userId={actor.userId} suggest={workspaceSuggestionMode(getDb(), actor, pid)} />;
}
