"use server";
/**
 * The Gold page's server actions. Each gets the actor from the session and hands
 * it to lib/server/gold/gold.ts, which checks it (coordinator of this project),
 * validates the input and records the decision with who and when; these only
 * read the form and shape the result.
 */
import { revalidatePath } from "next/cache";
import { withActor } from "@/app/_ui/action";
import { getDb } from "@/lib/db";
import { InputError } from "@/lib/server/kernel";
import { adjudicate, adoptMultiword, setReviewed, undoAdjudication, acceptAllProposals, decideLemma, decideLemmasWhere, setCorrectedPos, setExclusion } from "@/lib/server/gold";

export type GoldFormState = { ok?: boolean; message?: string; errors?: Record<string, string> } | null;

function refresh(projectId: number) {
  // The gold feeds the agreement and scoring pages too.
  revalidatePath(`/projects/${projectId}/gold`);
  revalidatePath(`/projects/${projectId}/agreement`);
  revalidatePath(`/projects/${projectId}/scoring`);
}

const DONE: Record<string, string> = {
  accepted: "Accepted",
  overridden: "Overridden",
  kept: "Kept as typed",
};

/** One form's decision: the submit button gives `decision` (accepted, accepted:POS, overridden, kept, reset). */
export async function decideLemmaAction(projectId: number, _prev: GoldFormState, form: FormData): Promise<GoldFormState> {
  return withActor((actor) => {
    // "accepted:v": accept the proposal made for that PoS (forms whose proposal depends on it).
    const [decision, pos] = String(form.get("decision") ?? "").split(":", 2);
    const input: Record<string, string> = { form: String(form.get("form") ?? ""), decision };
    if (decision === "overridden") input.lemma = String(form.get("lemma") ?? "");
    if (decision === "accepted" && pos) input.pos = pos;
    const r = decideLemma(getDb(), actor, projectId, input);
    refresh(projectId);
    return { ok: true, message: r.decision === null ? `Reset: ${r.lemma} (unreviewed)` : `${DONE[r.decision]}: ${r.lemma}` };
  });
}

export async function acceptAllAction(projectId: number, _prev: GoldFormState, _form: FormData): Promise<GoldFormState> {
  return withActor((actor) => {
    const n = acceptAllProposals(getDb(), actor, projectId);
    refresh(projectId);
    return { ok: true, message: n === 0 ? "Every form is reviewed already." : `Accepted the proposal for ${n} form${n === 1 ? "" : "s"}.` };
  });
}

/** Keep every open form as typed (the gold then applies no proposal). */
export async function keepAllAction(projectId: number, _prev: GoldFormState, _form: FormData): Promise<GoldFormState> {
  return withActor((actor) => {
    const n = decideLemmasWhere(getDb(), actor, projectId, { decision: "kept", open: true });
    refresh(projectId);
    return { ok: true, message: n === 0 ? "Every form is reviewed already." : `Kept ${n} form${n === 1 ? "" : "s"} as typed.` };
  });
}

/** Exclude an instance (`reason`), or put it back (`restore` set). */
export async function exclusionAction(projectId: number, _prev: GoldFormState, form: FormData): Promise<GoldFormState> {
  return withActor(
    (actor) => {
      const instanceId = String(form.get("instanceId") ?? "");
      const restore = form.get("op") === "restore";
      const r = setExclusion(getDb(), actor, projectId, instanceId, restore ? null : String(form.get("reason") ?? ""));
      refresh(projectId);
      return { ok: true, message: r === null ? `Put ${instanceId} back into the gold.` : `Excluded ${instanceId}.` };
    },
    (err) => {
      // lib/server validates the reason on its own, so its message comes keyed "form": it belongs to the reason field.
      if (err.errors?.form) err.errors = { reason: err.errors.form };
      return err;
    },
  );
}

/** Correct an instance's PoS (`pos`: n, v, a, r), or undo the correction (`op` = undo). */
export async function correctPosAction(projectId: number, _prev: GoldFormState, form: FormData): Promise<GoldFormState> {
  return withActor((actor) => {
    const instanceId = String(form.get("instanceId") ?? "");
    const undo = form.get("op") === "undo";
    const pos = String(form.get("pos") ?? "");
    // An empty choice would read as "undo" to lib/server: refuse it here instead.
    if (!undo && pos === "") throw new InputError("Choose the PoS to correct to.", { pos: "Choose the PoS." });
    const r = setCorrectedPos(getDb(), actor, projectId, instanceId, undo ? null : pos);
    refresh(projectId);
    return { ok: true, message: r === null ? `${instanceId}: PoS as loaded.` : `${instanceId}: PoS corrected to ${r}.` };
  });
}

const ADJUDICATED: Record<string, string> = { strike: "Struck", correct: "Corrected", "strike-response": "Struck the response of", multiword: "Decided the multiword of" };

/** A decision in words: what was decided, on whose answer. */
function decisionWords(r: { action: string; annotator: string; substitute: string | null; value: string | null }): string {
  if (r.action === "strike-response") return r.annotator;
  if (r.action === "multiword") return `${r.annotator}: "${r.substitute}" ${r.value === null ? "is not a multiword" : `to "${r.value}"`}`;
  return `"${r.substitute}" (${r.annotator})${r.action === "correct" ? ` to "${r.value}"` : ""}`;
}

/**
 * Strike or correct one substitute of one annotator's response (`action` =
 * strike | correct, `substitute` as typed, `value` for a correction), strike
 * the whole response (`action` = strike-response), or decide its multiword
 * phrase (`action` = multiword with the corrected `value`, or not-multiword;
 * `substitute` = the phrase as typed), or use `value` as the phrase of every
 * response of the instance that gave another (`action` = adopt-multiword);
 * `reason` optional.
 */
export async function adjudicateAction(projectId: number, _prev: GoldFormState, form: FormData): Promise<GoldFormState> {
  return withActor((actor) => {
    const button = String(form.get("action") ?? "");
    if (button === "adopt-multiword") {
      const r = adoptMultiword(getDb(), actor, projectId, {
        instanceId: String(form.get("instanceId") ?? ""),
        phrase: String(form.get("value") ?? ""),
        reason: String(form.get("reason") ?? ""),
      });
      refresh(projectId);
      const left = r.skipped.length > 0 ? ` Left as decided: ${r.skipped.join(", ")}.` : "";
      return { ok: true, message: `"${r.decided[0].value}" used for ${r.decided.map((d) => d.annotator).join(", ")} on ${r.decided[0].instanceId}.${left}` };
    }
    const action = button === "not-multiword" ? "multiword" : button;
    const input: Record<string, string | null> = {
      action,
      instanceId: String(form.get("instanceId") ?? ""),
      annotator: String(form.get("annotator") ?? ""),
      reason: String(form.get("reason") ?? ""),
    };
    if (action !== "strike-response") input.substitute = String(form.get("substitute") ?? "");
    if (action === "correct" || button === "multiword") input.value = String(form.get("value") ?? "");
    if (button === "not-multiword") input.value = null;
    const r = adjudicate(getDb(), actor, projectId, input);
    refresh(projectId);
    return { ok: true, message: `${ADJUDICATED[r.action]} ${decisionWords(r)} on ${r.instanceId}.` };
  });
}

/** Undo one adjudication (`id`): it stays in the log, inactive. */
export async function undoAdjudicationAction(projectId: number, _prev: GoldFormState, form: FormData): Promise<GoldFormState> {
  return withActor((actor) => {
    const r = undoAdjudication(getDb(), actor, projectId, String(form.get("id") ?? ""));
    refresh(projectId);
    const what = r.action === "strike-response" ? r.annotator : r.action === "multiword" ? `${r.annotator}: "${r.substitute}"` : `"${r.substitute}" (${r.annotator})`;
    return { ok: true, message: `Undone: ${ADJUDICATED[r.action].toLowerCase()} ${what}.` };
  });
}

/** Mark an instance reviewed (`op` = mark) or not (`op` = unmark). */
export async function reviewedAction(projectId: number, _prev: GoldFormState, form: FormData): Promise<GoldFormState> {
  return withActor((actor) => {
    const instanceId = String(form.get("instanceId") ?? "");
    const op = String(form.get("op") ?? "");
    if (op !== "mark" && op !== "unmark") throw new InputError("Mark or un-mark the instance.", { op: "mark or unmark" });
    const r = setReviewed(getDb(), actor, projectId, instanceId, op === "mark");
    refresh(projectId);
    return { ok: true, message: r.reviewed ? `${instanceId} marked reviewed.` : `${instanceId} no longer marked reviewed.` };
  });
}
