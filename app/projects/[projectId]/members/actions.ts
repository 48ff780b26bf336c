"use server";
/**
 * The Team page's server actions. Each gets the actor from the session and hands
 * it to lib/server, which checks it (coordinator of this project) and validates the
 * input; these only read the form and shape the result.
 */
import { revalidatePath } from "next/cache";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { removeMember, addExistingMember, createAnnotatorForProject, setGuidelines, setMemberRole, setRequiredAnnotators } from "@/lib/server/people";
import { applySplit, changeAssignments, previewSplit, setAssignments, type SplitPlan } from "@/lib/server/annotate";
import { InputError } from "@/lib/server/kernel";

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
  return withActor(async (actor) => {
    const r = await createAnnotatorForProject(getDb(), actor, projectId, {
      name: String(form.get("name") ?? ""),
      password: String(form.get("password") ?? ""),
      projectRole: String(form.get("projectRole") ?? ""),
    });
    refresh(projectId);
    return {
      ok: true,
      message: `Created ${form.get("projectRole") === "judge" ? "judge" : "annotator"} ${r.user.name} and added them to the project.`,
      created: { name: r.user.name, password: r.password, generated: r.generated },
    };
  });
}

export async function addMemberAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  return withActor((actor) => {
    const role = String(form.get("projectRole") ?? "");
    const r = addExistingMember(getDb(), actor, projectId, String(form.get("userId") ?? ""), role);
    refresh(projectId);
    return { ok: true, message: r.added ? `Added ${r.user.name} to the project${role === "judge" ? " as a judge" : ""}.` : `${r.user.name} is already in the project.` };
  });
}

export async function setMemberRoleAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  return withActor((actor) => {
    const r = setMemberRole(getDb(), actor, projectId, String(form.get("userId") ?? ""), String(form.get("projectRole") ?? ""));
    refresh(projectId);
    return { ok: true, message: `${r.name} is now ${r.role === "judge" ? "a judge" : r.role === "annotator" ? "an annotator" : "a coordinator"} in the project.` };
  });
}

export async function setAssignmentAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  return withActor((actor) => {
    const userId = Number(form.get("userId"));
    const all = form.get("scope") !== "some";
    const chosen = form.getAll("lexelt").map((v) => Number(v));
    // The editor shows a page of lexelts: only those are changed.
    const shown = form.getAll("shown").map((v) => Number(v));
    if (all) {
      setAssignments(getDb(), actor, projectId, userId, null);
      refresh(projectId);
      return { ok: true, message: "Assigned every lexelt." };
    }
    const n = changeAssignments(getDb(), actor, projectId, userId, shown, chosen);
    refresh(projectId);
    return { ok: true, message: `Assigned ${n} lexelt${n === 1 ? "" : "s"}.` };
  });
}

export async function setRequiredAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  return withActor((actor) => {
    const n = setRequiredAnnotators(getDb(), actor, projectId, String(form.get("requiredAnnotators") ?? ""));
    refresh(projectId);
    return {
      ok: true,
      message: n === null ? "Each instance now needs everyone assigned to its lexelt." : `Each instance now needs ${n} annotator${n === 1 ? "" : "s"}.`,
    };
  });
}

export async function setGuidelinesAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  return withActor((actor) => {
    const text = setGuidelines(getDb(), actor, projectId, String(form.get("guidelines") ?? ""));
    refresh(projectId);
    return { ok: true, message: text === "" ? "Guidelines cleared." : "Guidelines saved." };
  });
}

export async function removeMemberAction(projectId: number, _prev: TeamFormState, form: FormData): Promise<TeamFormState> {
  return withActor((actor) => {
    const r = removeMember(getDb(), actor, projectId, String(form.get("userId") ?? ""));
    refresh(projectId);
    return { ok: true, message: `Removed ${r.name} from the project; their answers stay.` };
  });
}

export type SplitFormState =
  | (TeamFormState & {
      plan?: SplitPlan;
      applied?: boolean;
      /** The choice sent (shown again by a page answering a post without JavaScript). */
      chosen?: { annotators: number[]; k: string };
      /** The choice the preview is for (splitKey): only that choice is applied. */
      previewed?: string;
    })
  | null;

/** The choice a preview is for: the annotators' ids in order and k as typed (team-forms.tsx has the same). */
function splitKey(ids: number[], k: string): string {
  return `${[...ids].sort((a, b) => a - b).join(",")}|${k.trim()}`;
}

/**
 * "Split the lexelts evenly over these annotators with k per instance": previewed (intent=preview), then
 * applied (intent=apply) — only the choice previewed (`previewed`): another is previewed instead.
 */
export async function splitAction(projectId: number, _prev: SplitFormState, form: FormData): Promise<SplitFormState> {
  const userIds = form.getAll("annotator").map((v) => Number(v));
  const raw = String(form.get("k") ?? "").trim();
  const chosen = { annotators: userIds, k: raw };
  const key = splitKey(userIds, raw);
  return withActor(
    (actor) => {
      const k = raw === "" ? NaN : Number(raw);
      if (form.get("intent") === "apply" && form.get("previewed") === key) {
        const plan = applySplit(getDb(), actor, projectId, userIds, k);
        refresh(projectId);
        return { ok: true, applied: true, plan, chosen, message: `Split ${plan.lexelts} lexelts over ${plan.annotators.length} annotators, ${plan.k} per instance.` };
      }
      const plan = previewSplit(getDb(), actor, projectId, userIds, k);
      const changed = form.get("intent") === "apply" ? "The choice changed since the preview: this is the new one. " : "";
      return { ok: true, plan, chosen, previewed: key, message: `${changed}Preview: nothing is saved until you confirm.` };
    },
    (err) => ({ ...err, chosen }),
  );
}
