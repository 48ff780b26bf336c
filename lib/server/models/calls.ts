/**
 * Calling a project's model for one instance (issue #41): the prompt from the project's current template,
 * the answer from the cache when the same model, settings, prompt, instance and sample were answered
 * before, else a call through the model's channel (net.ts) within its concurrency (a semaphore per model
 * and process), retried with back-off on 429 (its Retry-After), 5xx, time-outs and dropped connections.
 * Every call made is one model_calls row (outcome, tokens, latency): the record and the cache.
 */
import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { modelCalls, modelTemplates } from "../../../db/schema";
import { type CallResult, type CallSettings, callModel, retryable } from "./client";
import type { ModelRow } from "./connections";
import { KeyUnreadable, resolveKey } from "./keys";
import { type Channel, openChannel, reachOf } from "./net";
import { DEFAULT_TEMPLATES, hashOf, type ModelAnswer, type ModelCandidates, type Purpose, type PromptInstance, renderPrompt, SCHEMAS } from "./prompt";

export interface Template {
  purpose: Purpose;
  /** 0: the built-in template. */
  version: number;
  text: string;
}

/** The project's current template for `purpose` (the highest version; the built-in one when none). */
export function currentTemplate(db: Db, projectId: number, purpose: Purpose): Template {
  const row = db
    .select({ version: modelTemplates.version, text: modelTemplates.text })
    .from(modelTemplates)
    .where(and(eq(modelTemplates.projectId, projectId), eq(modelTemplates.purpose, purpose)))
    .orderBy(desc(modelTemplates.version))
    .get();
  return row ? { purpose, ...row } : { purpose, version: 0, text: DEFAULT_TEMPLATES[purpose] };
}

/** A call's settings as the cache keys them: the model's kind, id and temperature (the sample is the seed). */
function settingsOf(model: ModelRow, temperature: number): { settings: { temperature: number }; hash: string } {
  const settings = { temperature };
  return { settings, hash: hashOf({ kind: model.kind, model: model.model, ...settings }) };
}

/** A call made (or taken from the cache), and the row that records it (not yet written). */
interface CallDone {
  cached: boolean;
  result: CallResult;
  row: typeof modelCalls.$inferInsert | null;
}

/** A slot per model and process: at most the model's max concurrency calls at once. */
class Semaphore {
  private waiting: (() => void)[] = [];
  private running = 0;
  constructor(public max: number) {}
  async take(): Promise<void> {
    if (this.running < this.max) {
      this.running++;
      return;
    }
    await new Promise<void>((r) => this.waiting.push(r));
  }
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
const g = globalThis as unknown as { lexgoldModelSlots?: Map<number, Semaphore> };
function slotsOf(model: ModelRow): Semaphore {
  const all = (g.lexgoldModelSlots ??= new Map());
  let s = all.get(model.id);
  if (!s) all.set(model.id, (s = new Semaphore(model.maxConcurrency)));
  s.max = model.maxConcurrency;
  return s;
}

/** Wait `ms`, or less when `signal` aborts. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Back-off before try `attempt` (1-based): the server's Retry-After when it gave one, else 0.5 s doubling, with jitter, at most 60 s. */
export function backoffMs(attempt: number, retryAfter: number | null, random = Math.random()): number {
  const base = Math.min(60_000, 500 * 2 ** (attempt - 1));
  return Math.min(60_000, Math.max(retryAfter ?? 0, Math.round(base * (0.5 + random / 2))));
}

export interface Caller {
  model: ModelRow;
  templates: Record<Purpose, Template>;
  /**
   * Answer `instance` for `purpose` and `sample`: from the cache, or by calling (up to `attempts` tries on
   * retryable outcomes). The rows of the calls made are returned to be written by the caller (a job writes
   * them with the answers, in one short transaction).
   */
  answer(purpose: Purpose, instance: PromptInstance & { ref: number }, sample: number, temperature: number, opts?: { attempts?: number; jobId?: number | null }): Promise<{ done: CallDone; rows: (typeof modelCalls.$inferInsert)[] }>;
  close(): Promise<void>;
}

/** The cached answer of an ok call with this key, if any. */
function cachedAnswer(db: Db, modelId: number, purpose: Purpose, ref: number, sample: number, promptHash: string, settingsHash: string): ModelAnswer | ModelCandidates | null {
  const row = db
    .select({ answer: modelCalls.answer })
    .from(modelCalls)
    .where(
      and(
        eq(modelCalls.modelId, modelId),
        eq(modelCalls.instanceRef, ref),
        eq(modelCalls.sample, sample),
        eq(modelCalls.promptHash, promptHash),
        eq(modelCalls.settingsHash, settingsHash),
        eq(modelCalls.purpose, purpose),
        eq(modelCalls.outcome, "ok"),
      ),
    )
    .orderBy(desc(modelCalls.id))
    .get();
  if (!row?.answer) return null;
  const parsed = SCHEMAS[purpose].zod.safeParse(JSON.parse(row.answer));
  return parsed.success ? (parsed.data as ModelAnswer | ModelCandidates) : null;
}

/**
 * A caller for one model of one project: its key resolved (KeyUnreadable says what to do when it cannot be),
 * its channel opened. `signal` ends every call in flight (a cancelled job).
 */
export function openCaller(db: Db, model: ModelRow, project: { guidelines: string; language: string }, signal?: AbortSignal): Caller {
  const key = resolveKey(model);
  const timeoutMs = model.timeoutS * 1000;
  const channel: Channel = openChannel({ baseUrl: model.baseUrl, reach: reachOf(model), connections: model.maxConcurrency, timeoutMs, signal });
  const templates = { annotate: currentTemplate(db, model.projectId, "annotate"), candidates: currentTemplate(db, model.projectId, "candidates") };
  const slots = slotsOf(model);
  return {
    model,
    templates,
    async answer(purpose, instance, sample, temperature, opts = {}) {
      const tpl = templates[purpose];
      const messages = renderPrompt(tpl.text, project, instance);
      const { settings, hash: settingsHash } = settingsOf(model, temperature);
      const promptHash = hashOf({ messages, schema: SCHEMAS[purpose].name });
      const cached = cachedAnswer(db, model.id, purpose, instance.ref, sample, promptHash, settingsHash);
      if (cached) return { done: { cached: true, result: { outcome: "ok", httpStatus: null, detail: "", answer: cached, tokensIn: null, tokensOut: null, latencyMs: 0, retryAfterMs: null }, row: null }, rows: [] };
      const rows: (typeof modelCalls.$inferInsert)[] = [];
      const attempts = Math.max(1, opts.attempts ?? 1);
      let result: CallResult | null = null;
      for (let attempt = 1; attempt <= attempts; attempt++) {
        if (signal?.aborted) break;
        await slots.take();
        try {
          result = await callModel(channel, model, key, purpose, messages, { ...settings, seed: sample } satisfies CallSettings, timeoutMs);
        } finally {
          slots.give();
        }
        rows.push({
          modelId: model.id,
          purpose,
          instanceRef: instance.ref,
          sample,
          settingsHash,
          promptHash,
          templateVersion: tpl.version,
          settings: JSON.stringify({ ...settings, seed: sample }),
          outcome: result.outcome,
          httpStatus: result.httpStatus,
          detail: result.detail,
          answer: result.answer ? JSON.stringify(result.answer) : null,
          tokensIn: result.tokensIn,
          tokensOut: result.tokensOut,
          latencyMs: result.latencyMs,
          jobId: opts.jobId ?? null,
          at: new Date(),
        });
        if (!retryable(result.outcome) || attempt === attempts) break;
        await pause(backoffMs(attempt, result.retryAfterMs), signal);
      }
      if (!result || signal?.aborted) {
        result = { outcome: "cancelled", httpStatus: null, detail: "cancelled", answer: null, tokensIn: null, tokensOut: null, latencyMs: 0, retryAfterMs: null };
      }
      return { done: { cached: false, result, row: rows[rows.length - 1] ?? null }, rows };
    },
    close: () => channel.close(),
  };
}

export { KeyUnreadable };
