/**
 * A project's model connections (issue #41): registered, listed and removed by the project's
 * coordinators (and the CLI, which acts for the operator). Who may register what:
 * - from the CLI (`lexgold model add`), the operator: any address; the key as the name of an environment
 *   variable (`--api-key-env`), read where the call is made, never one of lexgold's own settings;
 * - on the page, a coordinator of the project: a public address only, unless the operator names the
 *   host in LEXGOLD_MODEL_PRIVATE_HOSTS (net.ts), checked now and at every connection; the key typed
 *   into a password field, stored encrypted under the server's secret (keys.ts). A coordinator cannot
 *   name an environment variable: that would let them send the server's keys to an address of theirs.
 * A connection is never edited (a changed address keeping a key would send the key elsewhere): remove it
 * and add it again. Nothing here ever returns the key or its ciphertext.
 */
import "server-only";
import { and, count, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client";
import { modelCalls, modelDecisions, models, modelSamples, projects, responses, users } from "../../../db/schema";
import { modelKeyVarProblem } from "../../config";
import { type Actor, actorUserId, requireProject } from "../kernel/actor";
import { InputError, NotFoundError } from "../kernel/errors";
import { deleteModelUsers, modelUserIds } from "../kernel/model-users";
import { parseOrThrow } from "../kernel/validate";
import { encryptKey } from "./keys";
import { checkReachable, operatorAllowsPrivate, parseBaseUrl } from "./net";

export type ModelRow = typeof models.$inferSelect;

/** What a page or the CLI may see of a model: never its key. */
export interface ModelView {
  id: number;
  name: string;
  kind: "openai" | "ollama";
  baseUrl: string;
  model: string;
  /** How its key is kept: none, an environment variable (named), or stored encrypted. */
  key: { how: "none" } | { how: "env"; name: string } | { how: "stored" };
  maxConcurrency: number;
  timeoutS: number;
  registeredFrom: "cli" | "page";
  /** Page-registered models at a private address the operator allowed. */
  privateAllowed: boolean;
  createdBy: string | null;
  createdAt: number;
  /** Samples with answers stored, and their answers. */
  samples: number;
  answers: number;
  calls: number;
  /** Counted as an annotator (its answers in the gold and agreement). */
  counted: boolean;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

const inputSchema = z.object({
  name: z.string().trim().regex(NAME, "A model's name: letters, digits, dot, dash or underscore (at most 40), e.g. llama3-8b."),
  kind: z.enum(["openai", "ollama"], { message: "The kind is openai (chat completions) or ollama (/api/chat)." }),
  baseUrl: z.string().trim().min(1, "Give the model's URL."),
  model: z
    .string()
    .trim()
    .min(1, "Give the model's id on its server, e.g. gpt-4o-mini or llama3.1:8b.")
    .max(200, "A model id has at most 200 characters.")
    .regex(/^[^\p{C}\s]+$/u, "A model id has no spaces or invisible characters."),
  apiKeyEnv: z.string().trim().optional(),
  apiKey: z.string().optional(),
  maxConcurrency: z.coerce.number().int("Concurrency is a whole number.").min(1, "At least 1 call at once.").max(32, "At most 32 calls at once.").default(4),
  timeoutS: z.coerce.number().int("The timeout is whole seconds.").min(1, "At least 1 second.").max(600, "At most 600 seconds.").default(60),
});

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

/**
 * Register a model for the project (coordinators of the project; the CLI). Page registrations are checked
 * for their address now (async: the host is resolved). Refused with the field at fault; writes nothing then.
 */
export async function addModel(db: Db, actor: Actor, projectId: number, input: Record<string, unknown>): Promise<ModelView> {
  const p = requireProject(db, actor, projectId, { coordinator: true });
  const cli = actor?.kind === "system";
  const data = parseOrThrow(
    inputSchema,
    Object.fromEntries(Object.entries(input).map(([k, v]) => [k, blankToUndefined(v)])),
    "Cannot register the model",
  );
  const url = parseBaseUrl(data.baseUrl);
  if ("problem" in url) throw new InputError(`Cannot register the model: ${url.problem}`, { baseUrl: url.problem });
  if (data.apiKeyEnv !== undefined) {
    if (!cli) throw new InputError("On the page, type the key itself: only the command line names an environment variable.", { apiKeyEnv: "Type the key instead." });
    const problem = modelKeyVarProblem(data.apiKeyEnv);
    if (problem) throw new InputError(`Cannot register the model: ${problem}.`, { apiKeyEnv: problem });
  }
  if (data.apiKey !== undefined) {
    if (cli) throw new InputError("From the command line, name the environment variable that holds the key (--api-key-env).", { apiKey: "Use --api-key-env." });
    if (data.apiKey.length > 500 || /[\s\p{C}]/u.test(data.apiKey)) throw new InputError("Cannot register the model: a key is one line of at most 500 characters without spaces.", { apiKey: "One line, no spaces." });
  }
  if (!cli) {
    const problem = await checkReachable(url.url, { privateAllowed: operatorAllowsPrivate(url.url) });
    if (problem) throw new InputError(`Cannot register the model: ${problem}`, { baseUrl: problem });
  }
  // The project's coordinators are checked again after the await, in the write's own transaction.
  return db.transaction(() => {
    requireProject(db, actor, p.id, { coordinator: true });
    const taken = db.select({ id: models.id }).from(models).where(and(eq(models.projectId, p.id), eq(models.name, data.name))).get();
    if (taken) throw new InputError(`Cannot register the model: "${data.name}" is taken in this project.`, { name: "That name is taken." });
    const row = db
      .insert(models)
      .values({
        projectId: p.id,
        name: data.name,
        kind: data.kind,
        baseUrl: url.url,
        model: data.model,
        apiKeyEnv: data.apiKeyEnv ?? null,
        apiKeyEncrypted: data.apiKey !== undefined ? encryptKey(data.apiKey) : null,
        maxConcurrency: data.maxConcurrency,
        timeoutS: data.timeoutS,
        registeredFrom: cli ? "cli" : "page",
        createdBy: actor && actor.kind === "user" ? actorUserId(actor) : null,
      })
      .returning({ id: models.id })
      .get();
    return viewOf(db, modelRow(db, row.id)!);
  });
}

function modelRow(db: Db, id: number): ModelRow | undefined {
  return db.select().from(models).where(eq(models.id, id)).get();
}

/** The model named `name` in the project (the caller has checked the actor), or NotFoundError. */
export function modelNamed(db: Db, projectId: number, name: string): ModelRow {
  const m = db.select().from(models).where(and(eq(models.projectId, projectId), eq(models.name, String(name).trim()))).get();
  if (!m) throw new NotFoundError(`No model named "${name}" in this project.`);
  return m;
}

/** Whether the model counts as an annotator now (an active decision). */
export function isCounted(db: Db, modelId: number): boolean {
  return db.select({ id: modelDecisions.id }).from(modelDecisions).where(and(eq(modelDecisions.modelId, modelId), isNull(modelDecisions.undoneAt))).get() !== undefined;
}

function viewOf(db: Db, m: ModelRow): ModelView {
  const samples = db.select({ userId: modelSamples.userId }).from(modelSamples).where(eq(modelSamples.modelId, m.id)).all();
  let answers = 0;
  for (const s of samples) answers += db.select({ n: count() }).from(responses).where(and(eq(responses.projectId, m.projectId), eq(responses.userId, s.userId))).get()!.n;
  const calls = db.select({ n: count() }).from(modelCalls).where(eq(modelCalls.modelId, m.id)).get()!.n;
  const creator = m.createdBy === null ? null : (db.select({ name: users.name }).from(users).where(eq(users.id, m.createdBy)).get()?.name ?? null);
  return {
    id: m.id,
    name: m.name,
    kind: m.kind,
    baseUrl: m.baseUrl,
    model: m.model,
    key: m.apiKeyEncrypted ? { how: "stored" } : m.apiKeyEnv ? { how: "env", name: m.apiKeyEnv } : { how: "none" },
    maxConcurrency: m.maxConcurrency,
    timeoutS: m.timeoutS,
    registeredFrom: m.registeredFrom,
    privateAllowed: m.registeredFrom === "page" && operatorAllowsPrivate(m.baseUrl),
    createdBy: creator,
    createdAt: m.createdAt.getTime(),
    samples: samples.length,
    answers,
    calls,
    counted: isCounted(db, m.id),
  };
}

/** The project's models, by name (coordinators of the project; the CLI). */
export function listModels(db: Db, actor: Actor, projectId: number): ModelView[] {
  requireProject(db, actor, projectId, { coordinator: true });
  return db
    .select()
    .from(models)
    .where(eq(models.projectId, projectId))
    .orderBy(models.name)
    .all()
    .map((m) => viewOf(db, m));
}

/**
 * Remove a model: its connection, its calls and its answers (its pseudo-annotators, and their responses with them). A model counted as an annotator is refused (its answers are in the gold: take
 * that back first, a logged decision). When it is the project's suggestion model, suggestions go off.
 */
export function removeModel(db: Db, actor: Actor, projectId: number, name: string): { name: string; answers: number; calls: number } {
  requireProject(db, actor, projectId, { coordinator: true });
  const m = modelNamed(db, projectId, name);
  if (isCounted(db, m.id)) throw new InputError(`"${m.name}" is counted as an annotator: its answers are in the gold. Stop counting it first (a logged decision), then remove it.`, { name: "Counted as an annotator." });
  const v = viewOf(db, m);
  db.transaction(() => {
    db.update(projects).set({ suggestionMode: "off", suggestionModelId: null }).where(and(eq(projects.id, projectId), eq(projects.suggestionModelId, m.id))).run();
    const samples = modelUserIds(db, projectId, m.id);
    db.delete(models).where(eq(models.id, m.id)).run();
    deleteModelUsers(db, samples);
  });
  return { name: m.name, answers: v.answers, calls: v.calls };
}
