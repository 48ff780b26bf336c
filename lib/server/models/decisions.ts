/**
 * What a coordinator decides about a model's answers (issue #41), each logged in the review log
 * (gold_review_log, kind "model") and undoable:
 * - counting a model as an annotator: its samples' answers join the gold, mwgold and agreement
 *   (gold-responses.ts reads model_decisions; the data version rises with the decision, drizzle/0028),
 *   never the queue or Progress, which are the people's;
 * - discarding a model's answers (to run it again with another template or settings): refused while it
 *   is counted. Its calls stay, so a run with the same prompt takes them from the cache.
 */
import "server-only";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { goldReviewLog, modelDecisions, modelSamples } from "../../../db/schema";
import { type Actor, actorUserId, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { deleteModelUsers, modelUserIds } from "../kernel/model-users";
import { parseOrThrow } from "../kernel/validate";
import { isCounted, modelNamed } from "./connections";

const reasonSchema = z.string().trim().max(500, "A reason has at most 500 characters.").default("");

/** Count the model as an annotator (or stop counting it): one decision row, one log row, in one transaction. */
export function setModelCounted(db: Db, actor: Actor, projectId: number, name: string, counted: boolean, reason?: unknown): { name: string; counted: boolean } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const why = parseOrThrow(reasonSchema, reason ?? "", "Cannot record the decision");
  const userId = actor && actor.kind === "user" ? actorUserId(actor) : null;
  return db.transaction(() => {
    const m = modelNamed(db, p.id, name);
    const now = new Date();
    if (counted === isCounted(db, m.id)) throw new InputError(`"${m.name}" is ${counted ? "counted as an annotator already" : "not counted as an annotator"}.`, { name: counted ? "Counted already." : "Not counted." });
    if (counted) db.insert(modelDecisions).values({ projectId: p.id, modelId: m.id, reason: why, decidedBy: userId, decidedAt: now }).run();
    else db.update(modelDecisions).set({ undoneAt: now, undoneBy: userId }).where(and(eq(modelDecisions.modelId, m.id), isNull(modelDecisions.undoneAt))).run();
    db.insert(goldReviewLog).values({ projectId: p.id, kind: "model", target: m.name, value: JSON.stringify({ counted, reason: why }), userId, at: now }).run();
    return { name: m.name, counted };
  });
}

/** Delete a model's answers (its samples and their pseudo-annotators): refused while it is counted. */
export function discardModelAnswers(db: Db, actor: Actor, projectId: number, name: string): { name: string; samples: number } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  return db.transaction(() => {
    const m = modelNamed(db, p.id, name);
    if (isCounted(db, m.id)) throw new InputError(`"${m.name}" is counted as an annotator: its answers are in the gold. Stop counting it first.`, { name: "Counted as an annotator." });
    const users = modelUserIds(db, p.id, m.id);
    const r = db.delete(modelSamples).where(eq(modelSamples.modelId, m.id)).run();
    deleteModelUsers(db, users);
    return { name: m.name, samples: r.changes };
  });
}
