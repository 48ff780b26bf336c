/**
 * Whether a project's workspace shows a model's answers (issue #41), and which model's: off by default;
 * "after" (shown once the annotator has saved the instance, with a way to revise) or "assist" (shown as
 * candidates to accept with a key). Set by the project's coordinators. Crowd participants never see them
 * unless their study allows it (studies.allow_suggestions, set here too).
 */
import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { models, projects, studies } from "../../../db/schema";
import { type Actor, requireProject } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";
import { modelNamed } from "./connections";

export type SuggestionMode = "off" | "after" | "assist";

export interface SuggestionSettings {
  mode: SuggestionMode;
  /** The model's name, null when none is chosen. */
  model: string | null;
  /** The project's studies, and whether each shows suggestions to its participants. */
  studies: { id: number; name: string; allowSuggestions: boolean }[];
}

/** The project's suggestion settings (coordinators of the project). */
export function suggestionSettings(db: Db, actor: Actor, projectId: number): SuggestionSettings {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const row = db.select({ mode: projects.suggestionMode, modelId: projects.suggestionModelId }).from(projects).where(eq(projects.id, p.id)).get()!;
  const model = row.modelId === null ? null : (db.select({ name: models.name }).from(models).where(and(eq(models.id, row.modelId), eq(models.projectId, p.id))).get()?.name ?? null);
  const st = db.select({ id: studies.id, name: studies.name, allowSuggestions: studies.allowSuggestions }).from(studies).where(eq(studies.projectId, p.id)).orderBy(studies.id).all();
  return { mode: model === null ? "off" : row.mode, model, studies: st };
}

/** Turn suggestions off, or on in a mode with a model of the project (coordinators). */
export function setSuggestions(db: Db, actor: Actor, projectId: number, input: { mode: unknown; model?: unknown }): { mode: SuggestionMode; model: string | null } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const mode = input.mode;
  if (mode !== "off" && mode !== "after" && mode !== "assist") throw new InputError(`Suggestions are off, after or assist, not "${String(mode)}".`, { mode: "off, after or assist" });
  if (mode === "off") {
    db.update(projects).set({ suggestionMode: "off" }).where(eq(projects.id, p.id)).run();
    return { mode, model: null };
  }
  const name = typeof input.model === "string" ? input.model.trim() : "";
  if (name === "") throw new InputError("Choose the model whose answers are suggested.", { model: "Choose a model." });
  const m = modelNamed(db, p.id, name);
  db.update(projects).set({ suggestionMode: mode, suggestionModelId: m.id }).where(eq(projects.id, p.id)).run();
  return { mode, model: m.name };
}

/** Whether a crowd study's participants see the project's suggestions (coordinators of its project). */
export function setStudySuggestions(db: Db, actor: Actor, projectId: number, studyId: unknown, allow: boolean): { id: number; allowSuggestions: boolean } {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const id = Number(studyId);
  const s = Number.isInteger(id) ? db.select({ id: studies.id }).from(studies).where(and(eq(studies.id, id), eq(studies.projectId, p.id))).get() : undefined;
  if (!s) throw new NotFoundError("No such study in this project.");
  db.update(studies).set({ allowSuggestions: allow }).where(eq(studies.id, s.id)).run();
  return { id: s.id, allowSuggestions: allow };
}
