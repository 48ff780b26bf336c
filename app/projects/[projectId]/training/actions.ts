"use server";
/**
 * The Training tab's actions. Each reads the form and hands it, with the session's
 * actor, to lib/server/quality/training.ts, which checks the coordinator and the input;
 * the outcome comes back to the page in its URL (?ok= / ?error=), so the forms
 * work without JavaScript too.
 */
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import type { Actor } from "@/lib/server/kernel";
import { InputError } from "@/lib/server/kernel";
import { importKnownAnswers, knownAnswersFromGold, removeKnownAnswer, setKnownAnswer, setLexeltNote, setQualitySettings } from "@/lib/server/quality";
import { setGuidelines } from "@/lib/server/people";

async function run(projectId: number, work: (actor: Actor) => Promise<string> | string): Promise<never> {
  const to = await withActor(
    async (actor) => {
      const ok = await work(actor);
      revalidatePath(`/projects/${projectId}/training`);
      return `?ok=${encodeURIComponent(ok)}`;
    },
    (err, e) => {
      const detail = e instanceof InputError && e.details.length > 1 ? ` (${e.details.slice(1, 4).join(" ")})` : "";
      return `?error=${encodeURIComponent(err.message + detail)}`;
    },
  );
  redirect(`/projects/${projectId}/training${to}`);
}

export async function saveSettingsAction(projectId: number, form: FormData) {
  await run(projectId, async (actor) => {
    setQualitySettings(getDb(), actor, projectId, {
      trainingRequired: form.get("trainingRequired") === "on",
      trainingInQueue: form.get("trainingInQueue") === "on",
      trainingThreshold: String(form.get("trainingThreshold") ?? ""),
      speedThresholdSeconds: String(form.get("speedThresholdSeconds") ?? ""),
    });
    return "Settings saved.";
  });
}

export async function setKnownAnswerAction(projectId: number, form: FormData) {
  await run(projectId, async (actor) => {
    const k = setKnownAnswer(getDb(), actor, projectId, {
      instanceId: form.get("instanceId"),
      role: form.get("role"),
      accepted: form.get("accepted"),
    });
    return `${k.instanceId} is now ${k.role === "training" ? "a training item" : "an attention check"}.`;
  });
}

export async function importKnownAnswersAction(projectId: number, form: FormData) {
  await run(projectId, async (actor) => {
    const file = form.get("file");
    if (!(file instanceof File) || file.name === "") throw new InputError("Choose a TSV file to upload.");
    if (file.size === 0) throw new InputError(`${file.name}: the file is empty; nothing was imported.`);
    const r = importKnownAnswers(getDb(), actor, projectId, { role: form.get("role"), fileName: file.name, text: await file.text() });
    return `Imported ${r.added} item${r.added === 1 ? "" : "s"}.`;
  });
}

export async function fromGoldAction(projectId: number, form: FormData) {
  await run(projectId, async (actor) => {
    const r = knownAnswersFromGold(getDb(), actor, projectId, { role: form.get("role"), instanceIds: form.get("instanceIds") });
    return `Marked ${r.added} item${r.added === 1 ? "" : "s"} with their current gold.`;
  });
}

export async function removeKnownAnswerAction(projectId: number, form: FormData) {
  await run(projectId, async (actor) => {
    removeKnownAnswer(getDb(), actor, projectId, form.get("instanceId"));
    return `${String(form.get("instanceId"))} is an ordinary instance again.`;
  });
}

export async function saveNoteAction(projectId: number, form: FormData) {
  await run(projectId, async (actor) => {
    setLexeltNote(getDb(), actor, projectId, Number(form.get("lexeltId")), String(form.get("note") ?? ""));
    return "Note saved.";
  });
}

export async function saveGuidelinesAction(projectId: number, form: FormData) {
  await run(projectId, async (actor) => {
    setGuidelines(getDb(), actor, projectId, String(form.get("guidelines") ?? ""));
    return "Guidelines saved.";
  });
}
