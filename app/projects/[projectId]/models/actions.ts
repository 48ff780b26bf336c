"use server";
/**
 * The Models tab's server actions (issue #41): lib/server/models checks the actor (a coordinator of this
 * project) and validates the form; this only reads it. Each works as a native form post too.
 */
import { revalidatePath } from "next/cache";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { cancelJob, getJob, startJob } from "@/lib/server/jobs";
import { addModel, addModelRuns, discardModelAnswers, modelRunInput, removeModel, setModelCounted, setModelTemplate, setStudySuggestions, setSuggestions } from "@/lib/server/models";

export type ModelFormState = { ok?: boolean; message?: string; errors?: Record<string, string>; values?: Record<string, string> } | null;

const REGISTER_FIELDS = ["name", "kind", "baseUrl", "model", "maxConcurrency", "timeoutS"] as const;

const path = (projectId: number) => `/projects/${projectId}/models`;

export async function registerModelAction(projectId: number, _prev: ModelFormState, form: FormData): Promise<ModelFormState> {
  // React resets the form after its action: a refused form is filled again with what was typed (never the key).
  const values = Object.fromEntries(REGISTER_FIELDS.map((f) => [f, String(form.get(f) ?? "")]));
  return withActor(
    async (actor) => {
      const m = await addModel(getDb(), actor, projectId, { ...values, apiKey: form.get("apiKey") ?? undefined });
      revalidatePath(path(projectId));
      return { ok: true, message: `Registered “${m.name}” (${m.kind} ${m.model}). Run it over the project below.` };
    },
    (err) => ({ ...err, values }),
  );
}

export async function removeModelAction(projectId: number, name: string, _prev: ModelFormState, form: FormData): Promise<ModelFormState> {
  if (form.get("confirm") !== "on") return { ok: false, message: `Tick the box to remove “${name}” with its answers and calls.`, errors: { confirm: "Tick to confirm." } };
  return withActor((actor) => {
    const r = removeModel(getDb(), actor, projectId, name);
    revalidatePath(path(projectId));
    return { ok: true, message: `Removed “${r.name}” with its ${r.answers.toLocaleString("en")} answers and ${r.calls.toLocaleString("en")} calls.` };
  });
}

export async function startRunAction(projectId: number, name: string, _prev: ModelFormState, form: FormData): Promise<ModelFormState> {
  const values = { samples: String(form.get("samples") ?? ""), temperature: String(form.get("temperature") ?? ""), instances: String(form.get("instances") ?? "") };
  return withActor(
    (actor) => {
      const db = getDb();
      const purpose = form.get("purpose") === "candidates" ? "candidates" : "annotate";
      const input = modelRunInput(db, actor, projectId, { model: name, purpose, ...values });
      startJob(db, actor, projectId, "model-run", input as unknown as Record<string, unknown>);
      revalidatePath(path(projectId));
      return { ok: true, message: purpose === "candidates" ? `Asking “${name}” for ranked candidates…` : `“${name}” is annotating the project…` };
    },
    (err) => ({ ...err, values }),
  );
}

export async function cancelRunAction(projectId: number, jobId: number, _prev: ModelFormState): Promise<ModelFormState> {
  return withActor((actor) => {
    const db = getDb();
    const j = getJob(db, actor, jobId);
    if (j.projectId !== projectId || j.kind !== "model-run") return { ok: false, message: "No such run." };
    cancelJob(db, actor, jobId);
    revalidatePath(path(projectId));
    return { ok: true, message: "Stopping the run: what it answered is kept." };
  });
}

export async function countModelAction(projectId: number, name: string, counted: boolean, _prev: ModelFormState, form: FormData): Promise<ModelFormState> {
  return withActor((actor) => {
    const r = setModelCounted(getDb(), actor, projectId, name, counted, form.get("reason") ?? "");
    revalidatePath(path(projectId));
    revalidatePath(`/projects/${projectId}/gold`);
    revalidatePath(`/projects/${projectId}/agreement`);
    return { ok: true, message: r.counted ? `“${r.name}” counts as an annotator: its answers are in the gold, mwgold and agreement.` : `“${r.name}” no longer counts as an annotator.` };
  });
}

export async function discardAnswersAction(projectId: number, name: string, _prev: ModelFormState, form: FormData): Promise<ModelFormState> {
  if (form.get("confirm") !== "on") return { ok: false, message: `Tick the box to discard the answers of “${name}”.`, errors: { confirm: "Tick to confirm." } };
  return withActor((actor) => {
    const r = discardModelAnswers(getDb(), actor, projectId, name);
    revalidatePath(path(projectId));
    return { ok: true, message: `Discarded the answers of “${r.name}”; its calls stay cached, so a run with the same prompt calls nothing again.` };
  });
}

export async function addRunsAction(projectId: number, _prev: ModelFormState, form: FormData): Promise<ModelFormState> {
  const name = String(form.get("model") ?? "");
  return withActor((actor) => {
    const runs = addModelRuns(getDb(), actor, projectId, name, form.get("sample") ?? 1);
    revalidatePath(`/projects/${projectId}/scoring`);
    revalidatePath(path(projectId));
    return { ok: true, message: `Scoring now has “model:${name}” as ${runs.map((r) => `a ${r.type} run (${r.lines.toLocaleString("en")} items)`).join(" and ")}.` };
  });
}

export async function templateAction(projectId: number, purpose: "annotate" | "candidates", _prev: ModelFormState, form: FormData): Promise<ModelFormState> {
  const text = String(form.get(form.get("reset") === "on" ? "none" : "text") ?? "");
  return withActor(
    (actor) => {
      const t = setModelTemplate(getDb(), actor, projectId, purpose, text);
      revalidatePath(path(projectId));
      return { ok: true, message: t.version === 0 ? "The built-in template is in use." : `Saved as version ${t.version}: new calls use it (discard a model's answers to run it again with it).` };
    },
    (err) => ({ ...err, values: { text } }),
  );
}

export async function suggestionsAction(projectId: number, _prev: ModelFormState, form: FormData): Promise<ModelFormState> {
  return withActor((actor) => {
    const s = setSuggestions(getDb(), actor, projectId, { mode: form.get("mode"), model: form.get("model") });
    revalidatePath(path(projectId));
    return { ok: true, message: s.mode === "off" ? "Suggestions are off." : `Annotators see “${s.model}”'s answers ${s.mode === "after" ? "after they save an instance" : "as candidates to accept"}.` };
  });
}

export async function studySuggestionsAction(projectId: number, studyId: number, allow: boolean, _prev: ModelFormState): Promise<ModelFormState> {
  return withActor((actor) => {
    setStudySuggestions(getDb(), actor, projectId, studyId, allow);
    revalidatePath(path(projectId));
    return { ok: true, message: allow ? "This study's participants see the suggestions." : "This study's participants see no suggestions." };
  });
}
