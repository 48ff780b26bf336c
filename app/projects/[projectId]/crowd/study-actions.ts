"use server";
/**
 * The crowd studies' server actions (issue #32): lib/server/crowd checks the actor (coordinator
 * of this project) and validates the form; this only reads it.
 */
import { revalidatePath } from "next/cache";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { createStudy, setStudyState } from "@/lib/server/crowd";

export type StudyFormState = { ok?: boolean; message?: string; errors?: Record<string, string>; values?: Record<string, string> } | null;

const FIELDS = ["name", "platform", "batchSize", "overlap", "minutes", "completionCode", "screenOutCode", "consent"] as const;

export async function createStudyAction(projectId: number, _prev: StudyFormState, form: FormData): Promise<StudyFormState> {
  // React resets the form after the action: a refused form is filled again with what was typed.
  const values = Object.fromEntries(FIELDS.map((f) => [f, String(form.get(f) ?? "")]));
  const refused = (err: NonNullable<StudyFormState>) => ({ ...err, values });
  return withActor((actor) => {
    const s = createStudy(getDb(), actor, projectId, {
      platform: form.get("platform"),
      batchSize: form.get("batchSize"),
      overlap: form.get("overlap"),
      minutes: form.get("minutes"),
      completionCode: form.get("completionCode"),
      screenOutCode: form.get("screenOutCode"),
      consent: form.get("consent"),
      name: form.get("name"),
    });
    revalidatePath(`/projects/${projectId}/crowd`);
    return { ok: true, message: `Opened${s.name ? ` “${s.name}”` : " the study"}: ${s.instances.toLocaleString("en")} instances, batches of ${s.batchSize}, ${s.overlap} answers each. Its link is above.` };
  }, refused);
}

export type StudyChangeState = { ok?: boolean; message?: string } | null;

const SAID = { open: "open: participants can join", paused: "paused: no one new joins, those in go on", closed: "closed: no one joins, no answers are taken" } as const;

/** Open, pause or close a study (form field `state`). */
export async function setStudyStateAction(projectId: number, studyId: number, _prev: StudyChangeState, form: FormData): Promise<StudyChangeState> {
  return withActor((actor) => {
    const s = setStudyState(getDb(), actor, studyId, form.get("state"), projectId);
    revalidatePath(`/projects/${projectId}/crowd`);
    return { ok: true, message: `${s.name ? `“${s.name}”` : `Study ${s.id}`} is ${SAID[s.state]}.` };
  });
}
