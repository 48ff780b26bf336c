"use server";
/**
 * The Team page's server actions. Each gets the actor from the session and hands
 * it to lib/server, which checks it (coordinator of this project) and validates the
 * input; these only read the form and shape the result.
 */
import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/auth/session";
import { getDb } from "@/lib/db";
import { removeMember } from "@/lib/server/accounts";
import { setAssignments } from "@/lib/server/assignments";
import { InputError, toActionError } from "@/lib/server/errors";
import { addExistingMember, createAnnotatorForProject, setGuidelines, setRequiredAnnotators } from "@/lib/server/team";

export type TeamFormState = {
  ok?: boolean;
  message?: string;
  errors?: Record<string, string>;
  /** Only from createAnnotatorAction, only once: the new account and its initial password. */
  created?: { name: string; password: string; generated: boolean };
} | null;

function refresh(projectId: number) {
  revalidatePath(`/projects/${projectId}/members`);
  revalidatePath(`/projects/${projectId}/progress`);
}

export async function createAnnotatorAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  try {
    const r = await createAnnotatorForProject(getDb(), await getActor(), projectId, {
      name: String(form.get("name") ?? ""),
      password: String(form.get("password") ?? ""),
    });
    refresh(projectId);
    return {
      ok: true,
      message: `Created annotator ${r.user.name} and added them to the project.`,
      created: { name: r.user.name, password: r.password, generated: r.generated },
    };
  } catch (e) {
    return toActionError(e);
  }
}

export async function addMemberAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  try {
    const r = addExistingMember(getDb(), await getActor(), projectId, String(form.get("userId") ?? ""));
    refresh(projectId);
    return { ok: true, message: r.added ? `Added ${r.user.name} to the project.` : `${r.user.name} is already in the project.` };
  } catch (e) {
    return toActionError(e);
  }
}

export async function setAssignmentAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  try {
    const userId = Number(form.get("userId"));
    const all = form.get("scope") !== "some";
    const chosen = form.getAll("lexelt").map((v) => Number(v));
    if (!all && chosen.length === 0) {
      throw new InputError("Choose at least one lexelt, or choose All lexelts.", { lexelts: "Choose at least one lexelt." });
    }
    setAssignments(getDb(), await getActor(), projectId, userId, all ? null : chosen);
    refresh(projectId);
    return { ok: true, message: all ? "Assigned every lexelt." : `Assigned ${chosen.length} lexelt${chosen.length === 1 ? "" : "s"}.` };
  } catch (e) {
    return toActionError(e);
  }
}

export async function setRequiredAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  try {
    const n = setRequiredAnnotators(getDb(), await getActor(), projectId, String(form.get("requiredAnnotators") ?? ""));
    refresh(projectId);
    return {
      ok: true,
      message: n === null ? "Each instance now needs everyone assigned to its lexelt." : `Each instance now needs ${n} annotator${n === 1 ? "" : "s"}.`,
    };
  } catch (e) {
    return toActionError(e);
  }
}

export async function setGuidelinesAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  try {
    const text = setGuidelines(getDb(), await getActor(), projectId, String(form.get("guidelines") ?? ""));
    refresh(projectId);
    return { ok: true, message: text === "" ? "Guidelines cleared." : "Guidelines saved." };
  } catch (e) {
    return toActionError(e);
  }
}

export async function removeMemberAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  try {
    const r = removeMember(getDb(), await getActor(), projectId, String(form.get("userId") ?? ""));
    refresh(projectId);
    return { ok: true, message: `Removed ${r.name} from the project; their answers stay.` };
  } catch (e) {
    return toActionError(e);
  }
}
