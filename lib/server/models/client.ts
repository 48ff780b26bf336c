/**
 * One call to a model, whichever its kind, and what came of it (issue #41):
 * - `openai`: OpenAI-compatible chat completions (OpenAI, vLLM, llama.cpp's server, LM Studio, Ollama's
 *   /v1) through the `openai` package, with `response_format: {type: "json_schema", json_schema: {name,
 *   strict: true, schema}}`;
 * - `ollama`: Ollama's own POST /api/chat with `format: <schema>` and `stream: false`, by plain fetch.
 * Both go through the model's channel (net.ts: only its base URL, its reach, timeout, reply size,
 * connections). The package never reads the environment for us: its key, organisation, project, base URL
 * and log level are given explicitly, and it retries nothing (the caller retries with back-off).
 * Every envelope and every answer is validated with zod; the outcome is one of model_calls.outcome.
 */
import "server-only";
import OpenAI from "openai";
import { z } from "zod";
import type { Channel } from "./net";
import { ModelNetError } from "./net";
import { type Messages, type ModelAnswer, type ModelCandidates, type Purpose, readReply, SCHEMAS } from "./prompt";

export type Outcome = "ok" | "malformed" | "schema" | "rate-limited" | "server-error" | "http-error" | "timeout" | "too-large" | "network" | "refused" | "cancelled";

export interface CallSettings {
  temperature: number;
  /** Sent as the request's seed (OpenAI's `seed`, Ollama's `options.seed`): the sample's number. */
  seed: number;
}

export interface CallResult {
  outcome: Outcome;
  httpStatus: number | null;
  /** What went wrong, in one line; "" when ok. Never the reply's text. */
  detail: string;
  answer: ModelAnswer | ModelCandidates | null;
  tokensIn: number | null;
  tokensOut: number | null;
  latencyMs: number;
  /** A 429's or 503's Retry-After, in ms. */
  retryAfterMs: number | null;
}

export interface ModelTarget {
  kind: "openai" | "ollama";
  baseUrl: string;
  model: string;
}

/** Whether another try may succeed: rate limits, server errors, time-outs and dropped connections. */
export function retryable(o: Outcome): boolean {
  return o === "rate-limited" || o === "server-error" || o === "timeout" || o === "network";
}

/** Retry-After as ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - now);
}

function statusOutcome(status: number): Outcome {
  return status === 429 ? "rate-limited" : status >= 500 ? "server-error" : "http-error";
}

const chatEnvelope = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }).passthrough() }).passthrough()).min(1),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).passthrough().nullish(),
});

const ollamaEnvelope = z.object({
  message: z.object({ content: z.string() }).passthrough(),
  prompt_eval_count: z.number().optional(),
  eval_count: z.number().optional(),
});

type Reply = { status: number; content: string | null | undefined; tokensIn: number | null; tokensOut: number | null } | { envelope: string; status: number };

async function openaiCall(channel: Channel, t: ModelTarget, key: string | null, purpose: Purpose, messages: Messages, s: CallSettings, timeoutMs: number): Promise<Reply> {
  const client = new OpenAI({
    baseURL: t.baseUrl,
    // A key is required by the package; without one no Authorization header is sent (defaultHeaders below).
    apiKey: key ?? "no-key",
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    defaultHeaders: key ? undefined : { Authorization: null },
    fetch: channel.fetch as never,
    maxRetries: 0,
    // The channel's own limit ends the call first; this one only backs it up.
    timeout: timeoutMs + 1000,
    logLevel: "off",
  });
  const schema = SCHEMAS[purpose];
  const { data, response } = await client.chat.completions
    .create({
      model: t.model,
      messages: [
        { role: "system", content: messages.system },
        { role: "user", content: messages.user },
      ],
      temperature: s.temperature,
      seed: s.seed,
      response_format: { type: "json_schema", json_schema: { name: schema.name, strict: true, schema: schema.json as unknown as Record<string, unknown> } },
    })
    .withResponse();
  const env = chatEnvelope.safeParse(data);
  if (!env.success) return { envelope: "the reply is not a chat completion (no choices[0].message)", status: response.status };
  return { status: response.status, content: env.data.choices[0].message.content, tokensIn: env.data.usage?.prompt_tokens ?? null, tokensOut: env.data.usage?.completion_tokens ?? null };
}

async function ollamaCall(channel: Channel, t: ModelTarget, key: string | null, purpose: Purpose, messages: Messages, s: CallSettings): Promise<Reply> {
  const res = await channel.fetch(`${t.baseUrl}/api/chat`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({
      model: t.model,
      messages: [
        { role: "system", content: messages.system },
        { role: "user", content: messages.user },
      ],
      format: SCHEMAS[purpose].json,
      stream: false,
      options: { temperature: s.temperature, seed: s.seed },
    }),
  });
  if (!res.ok) throw new HttpFailure(res.status, res.headers.get("retry-after"));
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    return { envelope: "the reply is not JSON", status: res.status };
  }
  const env = ollamaEnvelope.safeParse(body);
  if (!env.success) return { envelope: "the reply is not an Ollama chat answer (no message.content)", status: res.status };
  return { status: res.status, content: env.data.message.content, tokensIn: env.data.prompt_eval_count ?? null, tokensOut: env.data.eval_count ?? null };
}

class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: string | null,
  ) {
    super(`HTTP ${status}`);
  }
}

/** The ModelNetError behind an error the package wrapped (APIConnectionError's cause), if any. */
function netCause(e: unknown): ModelNetError | null {
  for (let c: unknown = e, depth = 0; c && depth < 4; c = (c as { cause?: unknown }).cause, depth++) if (c instanceof ModelNetError) return c;
  return null;
}

/** One call and its outcome; never throws. */
export async function callModel(channel: Channel, t: ModelTarget, key: string | null, purpose: Purpose, messages: Messages, s: CallSettings, timeoutMs: number): Promise<CallResult> {
  const t0 = performance.now();
  const done = (r: Omit<CallResult, "latencyMs">): CallResult => ({ ...r, latencyMs: Math.round(performance.now() - t0) });
  const fail = (outcome: Outcome, detail: string, httpStatus: number | null = null, retryAfter: number | null = null) =>
    done({ outcome, httpStatus, detail, answer: null, tokensIn: null, tokensOut: null, retryAfterMs: retryAfter });
  try {
    const reply = t.kind === "openai" ? await openaiCall(channel, t, key, purpose, messages, s, timeoutMs) : await ollamaCall(channel, t, key, purpose, messages, s);
    if ("envelope" in reply) return fail("malformed", reply.envelope, reply.status);
    const read = readReply(purpose, reply.content);
    if (!read.ok) return done({ outcome: read.outcome, httpStatus: reply.status, detail: read.detail, answer: null, tokensIn: reply.tokensIn, tokensOut: reply.tokensOut, retryAfterMs: null });
    return done({ outcome: "ok", httpStatus: reply.status, detail: "", answer: read.value, tokensIn: reply.tokensIn, tokensOut: reply.tokensOut, retryAfterMs: null });
  } catch (e) {
    if (e instanceof HttpFailure) return fail(statusOutcome(e.status), `the model's server answered ${e.status}`, e.status, retryAfterMs(e.retryAfter));
    if (e instanceof OpenAI.APIError && typeof e.status === "number") {
      const ra = e.headers?.get?.("retry-after") ?? null;
      return fail(statusOutcome(e.status), `the model's server answered ${e.status}`, e.status, retryAfterMs(ra));
    }
    const net = netCause(e);
    if (net) return fail(net.outcome, net.message);
    if (e instanceof SyntaxError) return fail("malformed", "the reply is not JSON");
    return fail("network", `the call failed: ${(e as Error).message}`);
  }
}
