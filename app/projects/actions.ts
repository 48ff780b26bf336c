"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { withActor } from "@/app/_ui/action";
import { createProject } from "@/lib/server/corpus";

export type FormState = { ok?: boolean; message?: string; errors?: Record<string, string> } | null;

export async function createProjectAction(_prev: FormState, form: FormData): Promise<FormState> {
  const r = await withActor((actor) => ({
    ok: true as const,
    id: createProject(getDb(), actor, { name: String(form.get("name") ?? ""), language: String(form.get("language") ?? "") || undefined }).id,
  }));
  if (!r.ok) return r;
  revalidatePath("/projects");
  redirect(`/projects/${r.id}`);
}
