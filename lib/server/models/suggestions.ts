/**
 * A model's answers in the workspace (issue #41): what the suggestions route gives the workspace for
 * the instance on screen and the next ones (prefetched), never holding it up. Each instance's
 * suggestion is the model's first sample's answer when it has annotated the project, else its cached
 * answer to the same prompt (calls.ts), else a call made now in the background: the route answers
 * "pending" at once and the workspace asks again shortly. In "after" mode an instance the annotator
 * has not answered is "hidden" (its answer is fetched meanwhile, so it is there once they save).
 *
 * Who sees what: an annotator (or coordinator) of the project, on instances of their own queue (their
 * lexelts; a crowd participant: their batch, and only when their study allows suggestions); a judge
 * never. The model's reply is data: validated, stored as text, rendered as text (never HTML).
 */
import "server-only";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { assignments, batchItems, instances, modelCalls, models, participants, projects, responses, studies } from "../../../db/schema";
import { type Actor, requireProject } from "../kernel/actor";
import { AuthError } from "../kernel/errors";
import { suggestedWords } from "../annotate/suggestions-record";
import { type Caller, currentTemplate, openCaller } from "./calls";
import type { ModelRow } from "./connections";

export type SuggestionItem =
  | { state: "ready"; kind: "substitutes" | "NAME" | "NIL"; substitutes: string[] }
  | { state: "pending" }
  | { state: "hidden" }
  | { state: "unavailable" };

export interface WorkspaceSuggestions {
  mode: "off" | "after" | "assist";
  /** The model's name (shown to the annotator as the suggestions' source). */
  model: string | null;
  items: Record<number, SuggestionItem>;
}

/** At most this many instances a request (the one on screen and the next ones). */
const MAX_REFS = 5;
/** A failed call is not made again for this long (the workspace says "unavailable" meanwhile). */
const RETRY_AFTER_FAILURE_MS = 60_000;
/** A model's caller (its channel) is closed after this long unused. */
const IDLE_MS = 5 * 60_000;

interface Held {
  caller: Caller;
  signature: string;
  used: number;
  timer: NodeJS.Timeout;
}
const g = globalThis as unknown as { lexgoldSuggesters?: Map<number, Held>; lexgoldSuggesting?: Map<string, number> };
const held = (g.lexgoldSuggesters ??= new Map());
/** In flight (`model:ref` → started at), or failed lately (negative: when it failed). */
const flights = (g.lexgoldSuggesting ??= new Map());

function callerFor(db: Db, model: ModelRow, project: { guidelines: string; language: string }): Caller {
  const signature = `${model.baseUrl}\u0000${model.model}\u0000${currentTemplate(db, model.projectId, "annotate").version}\u0000${project.guidelines}\u0000${project.language}`;
  const h = held.get(model.id);
  if (h && h.signature === signature) {
    h.used = Date.now();
    return h.caller;
  }
  if (h) {
    clearInterval(h.timer);
    void h.caller.close();
  }
  const caller = openCaller(db, model, project);
  const next: Held = {
    caller,
    signature,
    used: Date.now(),
    timer: setInterval(() => {
      if (Date.now() - next.used < IDLE_MS) return;
      clearInterval(next.timer);
      held.delete(model.id);
      void caller.close();
    }, 60_000),
  };
  next.timer.unref();
  held.set(model.id, next);
  return caller;
}

/** The instances among `refs` this annotator may see in the workspace. */
function visibleRefs(db: Db, projectId: number, userId: number, role: string, refs: number[]): Map<number, { before: string; head: string; after: string }> {
  const out = new Map<number, { before: string; head: string; after: string }>();
  const restricted = db.select({ x: assignments.lexeltId }).from(assignments).where(and(eq(assignments.projectId, projectId), eq(assignments.userId, userId))).limit(1).get() !== undefined;
  const participant = role === "participant" ? db.select({ id: participants.id }).from(participants).where(eq(participants.userId, userId)).get() : undefined;
  for (const ref of refs) {
    const i = db.select({ lexeltId: instances.lexeltId, before: instances.before, head: instances.head, after: instances.after }).from(instances).where(and(eq(instances.id, ref), eq(instances.projectId, projectId))).get();
    if (!i) continue;
    if (participant) {
      if (!db.select({ x: batchItems.instanceRef }).from(batchItems).where(and(eq(batchItems.participantId, participant.id), eq(batchItems.instanceRef, ref))).get()) continue;
    } else if (restricted && !db.select({ x: assignments.lexeltId }).from(assignments).where(and(eq(assignments.projectId, projectId), eq(assignments.userId, userId), eq(assignments.lexeltId, i.lexeltId))).get()) continue;
    out.set(ref, { before: i.before, head: i.head, after: i.after });
  }
  return out;
}

/** Ask the model for one instance in the background (once at a time per instance); the answer lands in model_calls. */
function fetchInBackground(db: Db, caller: Caller, model: ModelRow, ref: number, inst: { before: string; head: string; after: string }): void {
  const key = `${model.id}:${ref}`;
  const was = flights.get(key);
  if (was !== undefined && (was > 0 || Date.now() + was < RETRY_AFTER_FAILURE_MS)) return;
  flights.set(key, Date.now());
  void caller
    .answer("annotate", { ref, ...inst }, 1, 0, { attempts: 2 })
    .then(({ done, rows }) => {
      try {
        if (rows.length) db.insert(modelCalls).values(rows).run();
      } catch {
        /* the model or the instance went meanwhile */
      }
      if (done.result.outcome === "ok") flights.delete(key);
      else flights.set(key, -Date.now());
    })
    .catch(() => flights.set(key, -Date.now()));
}

/**
 * The suggestions for instances `refs` (the one on screen first), for the workspace. Starts the calls that
 * are missing and answers at once. Members of the project who annotate in it (never its judges).
 */
export function workspaceSuggestions(db: Db, actor: Actor, projectId: number, refs: readonly unknown[]): WorkspaceSuggestions {
  const p = requireProject(db, actor, projectId, { annotate: true });
  if (!actor || actor.kind !== "user") throw new AuthError("Suggestions are for the workspace.");
  const s = db.select({ mode: projects.suggestionMode, modelId: projects.suggestionModelId, guidelines: projects.guidelines, language: projects.language }).from(projects).where(eq(projects.id, p.id)).get()!;
  const model = s.modelId === null ? undefined : (db.select().from(models).where(and(eq(models.id, s.modelId), eq(models.projectId, p.id))).get() as ModelRow | undefined);
  const off: WorkspaceSuggestions = { mode: "off", model: null, items: {} };
  if (s.mode === "off" || !model) return off;
  if (actor.role === "participant") {
    const allowed = db
      .select({ ok: studies.allowSuggestions })
      .from(participants)
      .innerJoin(studies, eq(studies.id, participants.studyId))
      .where(eq(participants.userId, actor.userId))
      .get();
    if (!allowed?.ok) return off;
  }
  const wanted = [...new Set(refs.map(Number).filter((n) => Number.isInteger(n) && n > 0))].slice(0, MAX_REFS);
  const visible = visibleRefs(db, p.id, actor.userId, actor.role, wanted);
  const items: Record<number, SuggestionItem> = {};
  let caller: Caller | null = null;
  for (const [ref, inst] of visible) {
    const words = answerOf(db, model.id, ref);
    const answered = s.mode === "after" && db.select({ x: responses.id }).from(responses).where(and(eq(responses.instanceRef, ref), eq(responses.userId, actor.userId))).get() !== undefined;
    if (words === null) {
      try {
        caller ??= callerFor(db, model, s);
      } catch {
        items[ref] = { state: "unavailable" };
        continue;
      }
      fetchInBackground(db, caller, model, ref, inst);
      const was = flights.get(`${model.id}:${ref}`);
      items[ref] = s.mode === "after" && !answered ? { state: "hidden" } : was !== undefined && was < 0 ? { state: "unavailable" } : { state: "pending" };
      continue;
    }
    items[ref] = s.mode === "after" && !answered ? { state: "hidden" } : { state: "ready", ...words };
  }
  return { mode: s.mode, model: model.name, items };
}

/** The model's answer for an instance as the workspace shows it, or null when it has none yet. */
function answerOf(db: Db, modelId: number, ref: number): Omit<Extract<SuggestionItem, { state: "ready" }>, "state"> | null {
  const words = suggestedWords(db, modelId, ref);
  if (words === null) return null;
  if (words.length === 1 && (words[0] === "NAME" || words[0] === "NIL")) return { kind: words[0], substitutes: [] };
  return { kind: "substitutes", substitutes: words };
}

/** Whether the workspace suggests to this annotator, in which mode and whose answers (the pages pass it on); null when not. */
export function workspaceSuggestionMode(db: Db, actor: Actor, projectId: number): { mode: "after" | "assist"; model: string } | null {
  const r = workspaceSuggestions(db, actor, projectId, []);
  return r.mode === "off" || r.model === null ? null : { mode: r.mode, model: r.model };
}
