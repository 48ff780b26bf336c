/**
 * What a save records of a model's suggestions (issue #41; lib/server/models suggests them): whether
 * they were shown before this save and which of them the annotator accepted, kept with the response
 * (responses.suggestions, and its history row) so that agreement and gold can be split by it.
 *
 * Nothing is taken on the browser's word alone: "shown" holds only when the project suggests (a mode
 * and a model), the annotator may see them (a crowd participant only when their study allows it), the
 * model has an answer for the instance, and, in "after" mode, the save revises an answer (suggestions
 * appear only once the instance was saved); the accepted words are kept only when they are among the
 * model's suggestions and the saved substitutes. Read with a few indexed lookups, only when the
 * workspace sent a suggestions record (it does when the project suggests).
 */
import "server-only";
import type { Db } from "../../../db/client";
import { modelCalls, modelSamples, participants, projects, responses, studies } from "../../../db/schema";
import { named } from "../../../db/sql-names";
import { foldCase } from "../../lexsub/language";
import { get } from "../kernel/statements";

const P = named(projects);
const MS = named(modelSamples);
const R = named(responses);
const MC = named(modelCalls);
const PA = named(participants, "pa");
const ST = named(studies, "st");

/** What the workspace says it showed and which suggestions the annotator took (with a key or a click). */
export interface SuggestionsClaim {
  shown?: unknown;
  accepted?: unknown;
}

/** The model's suggested words for an instance: its first sample's answer, else its latest ok annotate call; null when none. */
export function suggestedWords(db: Pick<Db, "$client">, modelId: number, instanceRef: number): string[] | null {
  const sample = get<{ userId: number }>(db, `select ${MS.userId} as userId from ${MS.$} where ${MS.modelId} = ? and ${MS.sample} = 1`, modelId);
  if (sample) {
    const r = get<{ kind: string; substitutes: string }>(db, `select ${R.kind} as kind, ${R.substitutes} as substitutes from ${R.$} where ${R.instanceRef} = ? and ${R.userId} = ?`, instanceRef, sample.userId);
    if (r) return r.kind === "substitutes" ? (JSON.parse(r.substitutes) as string[]) : [r.kind];
  }
  const c = get<{ answer: string }>(
    db,
    `select ${MC.answer} as answer from ${MC.$} where ${MC.modelId} = ? and ${MC.instanceRef} = ? and ${MC.sample} = 1 and ${MC.purpose} = 'annotate' and ${MC.outcome} = 'ok' order by ${MC.id} desc limit 1`,
    modelId,
    instanceRef,
  );
  if (!c) return null;
  const a = JSON.parse(c.answer) as { answer?: string; substitutes?: unknown };
  return a.answer === "substitutes" && Array.isArray(a.substitutes) ? a.substitutes.filter((s): s is string => typeof s === "string") : a.answer ? [a.answer] : null;
}

/**
 * The record to store with a save (JSON), or null when the project suggests nothing. `revising`: the
 * annotator had answered the instance before this save.
 */
export function suggestionsRecord(
  db: Pick<Db, "$client">,
  projectId: number,
  user: { userId: number; role: string },
  instanceRef: number,
  claim: SuggestionsClaim,
  saved: { kind: string; substitutes: readonly string[] },
  revising: boolean,
  language: string,
): string | null {
  const s = get<{ mode: string; modelId: number | null }>(db, `select ${P.suggestionMode} as mode, ${P.suggestionModelId} as modelId from ${P.$} where ${P.id} = ?`, projectId);
  if (!s || s.mode === "off" || s.modelId === null) return null;
  if (user.role === "participant") {
    const allowed = get<{ ok: number }>(db, `select ${ST.allowSuggestions} as ok from ${PA.$} join ${ST.$} on ${ST.id} = ${PA.studyId} where ${PA.userId} = ?`, user.userId);
    if (!allowed?.ok) return null;
  }
  const words = suggestedWords(db, s.modelId, instanceRef);
  const shown = claim.shown === true && words !== null && (s.mode === "assist" || revising);
  const fold = (w: string) => foldCase(w.trim(), language);
  const offered = new Set((words ?? []).map(fold));
  const given = new Set([...(saved.kind === "substitutes" ? saved.substitutes : [saved.kind])].map(fold));
  const accepted = shown && Array.isArray(claim.accepted) ? [...new Set(claim.accepted.filter((w): w is string => typeof w === "string").map(fold))].filter((w) => offered.has(w) && given.has(w)) : [];
  return JSON.stringify({ mode: s.mode, model: s.modelId, shown, accepted });
}
