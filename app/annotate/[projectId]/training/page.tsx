import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { requireUserPage } from "@/lib/auth/session";
import { AuthError, requireProject, NotFoundError } from "@/lib/server/kernel";
import { getDb } from "@/lib/db";
import { trainingView } from "@/lib/server/quality";
import { participantView } from "@/lib/server/annotate";
import { Training } from "../../training";

export const metadata: Metadata = { title: "Training" };
export const dynamic = "force-dynamic";

/** The training phase: known-answer items first, with feedback; real instances after a pass. */
export default async function TrainingPage({ params }: { params: Promise<{ projectId: string }> }) {
  const actor = await requireUserPage();
  const { projectId } = await params;
  try {
    // Not a project of theirs (or none at all): a real 404, as on the other pages.
    requireProject(getDb(), actor, Number(projectId));
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  // A study participant takes the training once: after it (or once their work has ended), their own screens.
  const participant = participantView(getDb(), actor);
  if (participant && participant.state !== "active") redirect(`/annotate/${Number(projectId)}`);
  try {
    const view = trainingView(getDb(), actor, Number(projectId));
    return <Training view={view} userId={actor.userId} />;
  } catch (e) {
    if (!(e instanceof NotFoundError || e instanceof AuthError)) throw e;
    return (
      <>
        <h1>Training</h1>
        <p className="notice warn">{e.message}</p>
        <p>
          <Link href="/annotate">← Your projects</Link>
        </p>
      </>
    );
  }
}
