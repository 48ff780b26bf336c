"use server";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { getActor } from "@/lib/auth/session";
import { toActionError } from "@/lib/server/kernel";
import { createProject } from "@/lib/server/corpus";

export type FormState = { ok?: boolean; message?: string; errors?: Record<string, string> } | null;

export async function createProjectAction(_prev: FormState, form: FormData): Promise<FormState> {
  let id: number;
  try {
    const p = createProject(getDb(), await getActor(), { name: String(form.get("name") ?? "") });
    id = p.id;
  } catch (e) {
    return toActionError(e);
  }
  revalidatePath("/projects");
  redirect(`/projects/${id}`);
}
