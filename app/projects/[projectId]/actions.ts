"use server";
/** Renaming, archiving and deleting a project (lib/server/corpus/project-lifecycle.ts checks who may). */
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { withActor } from "@/app/_ui/action";
import { deleteProject, renameProject, setProjectArchived, setProjectLanguage } from "@/lib/server/corpus";

export type ProjectFormState = { ok?: boolean; message?: string; errors?: Record<string, string> } | null;

export async function renameProjectAction(projectId: number, _prev: ProjectFormState, form: FormData): Promise<ProjectFormState> {
  const r = await withActor((actor) => renameProject(getDb(), actor, projectId, { name: String(form.get("name") ?? "") }));
  if ("ok" in r) return r;
  revalidatePath("/projects");
  revalidatePath(`/projects/${projectId}`);
  return { ok: true, message: `Renamed to “${r.name}”.` };
}

export async function setLanguageAction(projectId: number, _prev: ProjectFormState, form: FormData): Promise<ProjectFormState> {
  const r = await withActor((actor) => setProjectLanguage(getDb(), actor, projectId, { language: String(form.get("language") ?? "") }));
  if ("ok" in r) return r;
  revalidatePath(`/projects/${projectId}`);
  return { ok: true, message: `Language set to “${r.language}”.` };
}

export async function setArchivedAction(projectId: number, archived: boolean, _prev: ProjectFormState, _form: FormData): Promise<ProjectFormState> {
  const r = await withActor((actor) => setProjectArchived(getDb(), actor, projectId, archived));
  if ("ok" in r) return r;
  revalidatePath("/projects");
  revalidatePath(`/projects/${projectId}`);
  return { ok: true, message: r.archivedAt ? "Archived: annotators no longer see it or answer in it." : "Back from the archive: annotators see it again." };
}

export async function deleteProjectAction(projectId: number, _prev: ProjectFormState, form: FormData): Promise<ProjectFormState> {
  const r = await withActor((actor) => deleteProject(getDb(), actor, projectId, String(form.get("confirm") ?? "")));
  if ("ok" in r) return r;
  revalidatePath("/projects");
  redirect(`/projects?deleted=${encodeURIComponent(r.name)}`);
}
