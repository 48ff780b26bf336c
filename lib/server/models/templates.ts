/**
 * The project's prompt templates (issue #41): shown on the Models page with the prompt they make for the
 * project's first instance, changed by its coordinators. A change is a new version (model_templates); the
 * calls record the version they were built with, so answers stay tied to the prompt that made them, and a
 * changed template makes a new prompt (a new cache key): discard a model's answers and run it again.
 */
import "server-only";
import { and, asc, eq, max } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { instances, lexelts, modelTemplates } from "../../../db/schema";
import { type Actor, actorUserId, requireProject } from "../kernel/actor";
import { InputError } from "../kernel/errors";
import { currentTemplate, type Template } from "./calls";
import { DEFAULT_TEMPLATES, type Messages, PLACEHOLDERS, type Purpose, renderPrompt, unknownPlaceholders } from "./prompt";

export interface TemplatesView {
  annotate: Template & { builtIn: boolean; preview: Messages | null };
  candidates: Template & { builtIn: boolean; preview: Messages | null };
  placeholders: readonly string[];
}

const MAX_TEMPLATE = 10_000;

/** The current templates, each with the prompt it makes for the project's first instance (coordinators). */
export function templatesView(db: Db, actor: Actor, projectId: number): TemplatesView {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const first = db
    .select({ before: instances.before, head: instances.head, after: instances.after })
    .from(instances)
    .innerJoin(lexelts, eq(lexelts.id, instances.lexeltId))
    .where(eq(instances.projectId, p.id))
    .orderBy(asc(lexelts.position), asc(instances.position))
    .get();
  const view = (purpose: Purpose) => {
    const t = currentTemplate(db, p.id, purpose);
    return { ...t, builtIn: t.text === DEFAULT_TEMPLATES[purpose], preview: first ? renderPrompt(t.text, p, first) : null };
  };
  return { annotate: view("annotate"), candidates: view("candidates"), placeholders: PLACEHOLDERS };
}

/** A new version of a template (the built-in one when `text` is blank). Refused: unknown placeholders, no {{sentence}}, too long. */
export function setModelTemplate(db: Db, actor: Actor, projectId: number, purpose: unknown, text: unknown): Template {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  if (purpose !== "annotate" && purpose !== "candidates") throw new InputError(`The template is annotate or candidates, not "${String(purpose)}".`, { purpose: "annotate or candidates" });
  const raw = typeof text === "string" ? text.replace(/\r\n/g, "\n").trim() : "";
  const body = raw === "" ? DEFAULT_TEMPLATES[purpose] : raw;
  if (body.length > MAX_TEMPLATE) throw new InputError(`A template has at most ${MAX_TEMPLATE.toLocaleString("en")} characters.`, { text: "Too long." });
  const unknown = unknownPlaceholders(body);
  if (unknown.length) throw new InputError(`Unknown placeholder${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `{{${u}}}`).join(", ")}: use ${PLACEHOLDERS.map((x) => `{{${x}}}`).join(", ")}.`, { text: "Unknown placeholder." });
  if (!/\{\{\s*sentence\s*\}\}/.test(body)) throw new InputError("A template holds {{sentence}}: the sentence with its target marked.", { text: "No {{sentence}}." });
  return db.transaction(() => {
    const now = currentTemplate(db, p.id, purpose);
    if (now.text === body) return now;
    const top = db.select({ v: max(modelTemplates.version) }).from(modelTemplates).where(and(eq(modelTemplates.projectId, p.id), eq(modelTemplates.purpose, purpose))).get()?.v ?? 0;
    db.insert(modelTemplates).values({ projectId: p.id, purpose, version: top + 1, text: body, createdBy: actor && actor.kind === "user" ? actorUserId(actor) : null }).run();
    return { purpose, version: top + 1, text: body };
  });
}
