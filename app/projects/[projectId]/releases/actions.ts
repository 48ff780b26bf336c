"use server";
/**
 * The Releases tab's actions: make a release (checked here, made by a job off the request
 * thread) and save the datasheet's answers. Each hands the form and the session's actor to
 * lib/server/releases, which checks the coordinator and the input; the outcome comes back in the
 * page's URL (?ok= / ?error= / ?job=), so the forms work without JavaScript too.
 */
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { startJob } from "@/lib/server/jobs";
import { checkReleaseInput, DATASHEET_QUESTIONS, saveDatasheet } from "@/lib/server/releases";

export async function makeReleaseAction(projectId: number, form: FormData) {
  const to = await withActor(
    (actor) => {
      const db = getDb();
      const input = checkReleaseInput(db, actor, projectId, { version: String(form.get("version") ?? ""), names: form.get("names") === "on", notes: form.get("notes") === "on" });
      const job = startJob(db, actor, projectId, "release", input);
      return `?job=${job.id}`;
    },
    (err) => `?error=${encodeURIComponent(err.message)}`,
  );
  redirect(`/projects/${projectId}/releases${to}`);
}

export async function saveDatasheetAction(projectId: number, form: FormData) {
  const to = await withActor(
    (actor) => {
      saveDatasheet(getDb(), actor, projectId, Object.fromEntries(DATASHEET_QUESTIONS.map((q) => [q.key, String(form.get(q.key) ?? "")])));
      revalidatePath(`/projects/${projectId}/releases`);
      return `?ok=${encodeURIComponent("The datasheet's answers are saved; the next release carries them.")}#datasheet`;
    },
    (err) => `?error=${encodeURIComponent(err.message)}#datasheet`,
  );
  redirect(`/projects/${projectId}/releases${to}`);
}
