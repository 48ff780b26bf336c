import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/lib/db";
import { requireCoordinatorPage } from "@/lib/auth/session";
import { NotFoundError } from "@/lib/server/kernel";
import { projectContents, type ProjectContents } from "@/lib/server/corpus";
import { DeleteProjectForm } from "./delete-form";
import { deleteProjectAction } from "../actions";

export const metadata: Metadata = { title: "Delete project" };
export const dynamic = "force-dynamic";

const n = (count: number, what: string, atLeast = false) => `${atLeast ? "more than " : ""}${count.toLocaleString("en")} ${what}${count === 1 && !atLeast ? "" : "s"}`;

export default async function DeleteProjectPage({ params }: { params: Promise<{ projectId: string }> }) {
  const actor = await requireCoordinatorPage();
  const { projectId } = await params;
  let c: ProjectContents;
  try {
    c = projectContents(getDb(), actor, Number(projectId));
  } catch (e) {
    if (e instanceof NotFoundError) notFound();
    throw e;
  }
  return (
    <>
      <h1>Delete “{c.name}”?</h1>
      <div className="panel">
        <p>Deleting the project removes, for good:</p>
        <ul>
          <li>
            {n(c.lexelts, "lexelt")} with {n(c.instances, "instance")}
          </li>
          <li>{n(c.responses, "response", c.responsesAtLeast)}, with every lemma decision, adjudication, flag, training answer and check made on them</li>
          {c.datasetEntries > 0 && <li>{n(c.datasetEntries, "imported gold entry", c.datasetEntriesAtLeast)}</li>}
          <li>
            {n(c.judgementRounds, "judgement round")} and {n(c.systemRuns, "scored run")}
          </li>
          <li>the memberships of {n(c.members, "account")} (the accounts themselves stay)</li>
        </ul>
        <p className="notice warn">
          There is no undo. Make a backup first if you may want any of it back: <code>bin/lexgold backup --dir DIR</code>.
          {c.archivedAt === null && (
            <>
              {" "}
              To keep everything but take it out of the annotators’ lists, <Link href={`/projects/${c.id}`}>archive it</Link> instead.
            </>
          )}
        </p>
        <DeleteProjectForm projectId={c.id} name={c.name} remove={deleteProjectAction.bind(null, c.id)} />
      </div>
    </>
  );
}
