/**
 * A model server on loopback for tests, e2e and benchmarks: it speaks OpenAI-compatible chat completions
 * (POST {base}/v1/chat/completions, answering `response_format: {type: "json_schema"}` with the JSON in
 * choices[0].message.content and usage's tokens) and Ollama's POST /api/chat (`format: <schema>`, a
 * stream of NDJSON lines unless `stream: false`, then one object with message.content and the eval
 * counts), as those servers do, request checks and error bodies included. No test calls a real service.
 *
 * What it answers is set per request by a queue of behaviours (`server.next(...)`) or a default
 * (`server.behave(...)`): a valid answer (from `answers`, keyed by the marked target word), malformed JSON,
 * a schema violation, a reply that is not a chat completion, slow, 429 with Retry-After, 500, a truncated
 * body (the connection closed halfway), a huge reply, a redirect. It records every request (path, headers,
 * body) and the most calls it had in flight at once.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

type Behaviour =
  | { kind: "valid" }
  | { kind: "malformed" }
  | { kind: "schema" }
  | { kind: "envelope" }
  | { kind: "slow"; ms: number }
  | { kind: "429"; retryAfter?: string }
  | { kind: "500" }
  | { kind: "truncated" }
  | { kind: "huge"; bytes: number }
  | { kind: "redirect"; to: string }
  | { kind: "hang" };

interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

interface AnswerLike {
  answer: "substitutes" | "NAME" | "NIL";
  substitutes: string[];
  multiword: string | null;
}

export interface ModelServerOptions {
  /** The annotate answer for a target word (as marked [[…]] in the prompt); `fallback` otherwise. */
  answers?: Record<string, AnswerLike>;
  fallback?: AnswerLike;
  /** Ranked candidates for a target word (candidates calls). */
  candidates?: Record<string, string[]>;
  /** Every valid answer waits this long first (benchmarks: 200). */
  latencyMs?: number;
  /** Models the server knows; a request for another is answered 404 as Ollama does. Default: any. */
  models?: string[];
}

export interface ModelServer {
  /** http://127.0.0.1:PORT (Ollama's base URL); `openaiBase` is it + "/v1". */
  url: string;
  openaiBase: string;
  requests: Recorded[];
  /** The most requests in flight at once so far. */
  maxInFlight: number;
  /** Requests answered so far. */
  answered: number;
  /** Requests in flight now. */
  inFlight: number;
  next(...b: Behaviour[]): void;
  behave(b: Behaviour): void;
  close(): Promise<void>;
}

const DEFAULT_FALLBACK: AnswerLike = { answer: "substitutes", substitutes: ["alpha", "beta"], multiword: null };

function targetOf(body: { messages?: { role: string; content: string }[] }): string {
  const user = body.messages?.find((m) => m.role === "user")?.content ?? "";
  // The sentence's mark is the last one (a template may show the marking first: "[[like this]]").
  const marks = [...user.matchAll(/\[\[([^\]]+)\]\]/g)];
  return marks.length ? marks[marks.length - 1][1] : "";
}

function isCandidates(schema: unknown): boolean {
  return !!schema && typeof schema === "object" && "properties" in schema && !!(schema as { properties: Record<string, unknown> }).properties.candidates;
}

function openaiError(res: http.ServerResponse, status: number, message: string, type = "invalid_request_error", headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ error: { message, type, param: null, code: null } }));
}

function ollamaError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify({ error: message }));
}

export async function startModelServer(opts: ModelServerOptions = {}): Promise<ModelServer> {
  const queue: Behaviour[] = [];
  let fallbackBehaviour: Behaviour = { kind: "valid" };
  let inFlight = 0;
  const sockets = new Set<import("node:net").Socket>();
  const state = { maxInFlight: 0, answered: 0 };
  const requests: Recorded[] = [];

  const contentFor = (body: { messages?: { role: string; content: string }[] }, schema: unknown): string => {
    const target = targetOf(body);
    if (isCandidates(schema)) return JSON.stringify({ candidates: opts.candidates?.[target] ?? ["alpha", "beta", "gamma"] });
    return JSON.stringify(opts.answers?.[target] ?? opts.fallback ?? DEFAULT_FALLBACK);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, inFlight);
      res.on("close", () => {
        inFlight--;
        state.answered++;
      });
      let body: Record<string, unknown> = {};
      const text = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0];
      try {
        body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        requests.push({ method: req.method ?? "", path, headers: req.headers, body: text });
        return path.startsWith("/api/") ? ollamaError(res, 400, "invalid character in request body") : openaiError(res, 400, "We could not parse the JSON body of your request.");
      }
      requests.push({ method: req.method ?? "", path, headers: req.headers, body });
      const b = queue.shift() ?? fallbackBehaviour;
      void respond(path, req.method ?? "", body, b, res);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });

  async function respond(path: string, method: string, body: Record<string, unknown>, b: Behaviour, res: http.ServerResponse) {
    const openai = path === "/v1/chat/completions";
    const ollama = path === "/api/chat";
    if (!openai && !ollama) return void res.writeHead(404, { "content-type": "text/plain" }).end("404 page not found");
    if (method !== "POST") return res.writeHead(405).end();
    // The request as the real servers check it.
    if (typeof body.model !== "string" || body.model === "") return openai ? openaiError(res, 400, "you must provide a model parameter") : ollamaError(res, 400, "model is required");
    if (opts.models && !opts.models.includes(body.model)) return openai ? openaiError(res, 404, `The model \`${body.model}\` does not exist.`, "not_found_error") : ollamaError(res, 404, `model "${body.model}" not found, try pulling it first`);
    if (!Array.isArray(body.messages) || body.messages.some((m: { role?: unknown; content?: unknown }) => typeof m?.role !== "string" || typeof m?.content !== "string")) {
      return openai ? openaiError(res, 400, "Invalid 'messages': expected an array of {role, content}.") : ollamaError(res, 400, "invalid message format");
    }
    let schema: unknown = null;
    if (openai) {
      const rf = body.response_format as { type?: string; json_schema?: { name?: string; schema?: unknown; strict?: boolean } } | undefined;
      if (rf !== undefined) {
        if (rf.type !== "json_schema" && rf.type !== "json_object" && rf.type !== "text") return openaiError(res, 400, `Invalid value for 'response_format.type': '${String(rf.type)}'.`);
        if (rf.type === "json_schema" && (!rf.json_schema || typeof rf.json_schema.name !== "string" || typeof rf.json_schema.schema !== "object")) return openaiError(res, 400, "Missing required parameter: 'response_format.json_schema.name' or '.schema'.");
        schema = rf.json_schema?.schema ?? null;
      }
    } else {
      if (body.format !== undefined && body.format !== "json" && typeof body.format !== "object") return ollamaError(res, 400, "invalid format");
      schema = typeof body.format === "object" ? body.format : null;
    }

    switch (b.kind) {
      case "429":
        return openai ? openaiError(res, 429, "Rate limit reached.", "rate_limit_exceeded", { "retry-after": b.retryAfter ?? "1" }) : ollamaError(res, 429, "too many requests", { "retry-after": b.retryAfter ?? "1" });
      case "500":
        return openai ? openaiError(res, 500, "The server had an error while processing your request.", "server_error") : ollamaError(res, 500, "llama runner process has terminated");
      case "redirect":
        res.writeHead(307, { location: b.to });
        return res.end();
      case "hang":
        return; // never answers (the client's timeout ends it)
      case "slow":
        await new Promise((r) => setTimeout(r, b.ms));
        break;
    }
    if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
    if (res.destroyed) return;
    let content = contentFor(body as never, schema);
    if (b.kind === "malformed") content = '{"answer": "substitutes", "substitutes": ["alpha", ';
    if (b.kind === "schema") content = JSON.stringify({ answer: "maybe", substitutes: "alpha", extra: 1 });
    if (b.kind === "huge") content = JSON.stringify({ answer: "substitutes", substitutes: ["x".repeat(b.bytes)], multiword: null });
    const tokensIn = JSON.stringify(body.messages).length >> 2;
    const tokensOut = content.length >> 2;
    const created = Math.floor(Date.now() / 1000);
    let payload: string;
    if (b.kind === "envelope") payload = JSON.stringify(openai ? { object: "chat.completion", choices: [] } : { done: true });
    else if (openai) {
      payload = JSON.stringify({
        id: `chatcmpl-${state.answered}`,
        object: "chat.completion",
        created,
        model: body.model,
        choices: [{ index: 0, message: { role: "assistant", content, refusal: null }, logprobs: null, finish_reason: "stop" }],
        usage: { prompt_tokens: tokensIn, completion_tokens: tokensOut, total_tokens: tokensIn + tokensOut },
        system_fingerprint: "fp_loopback",
      });
    } else if (body.stream !== false) {
      // Ollama streams by default: one NDJSON object per piece, the last with done: true.
      res.writeHead(200, { "content-type": "application/x-ndjson" });
      for (const piece of content.match(/.{1,8}/gs) ?? []) res.write(JSON.stringify({ model: body.model, created_at: new Date().toISOString(), message: { role: "assistant", content: piece }, done: false }) + "\n");
      return res.end(JSON.stringify({ model: body.model, created_at: new Date().toISOString(), message: { role: "assistant", content: "" }, done: true, done_reason: "stop", prompt_eval_count: tokensIn, eval_count: tokensOut }) + "\n");
    } else {
      payload = JSON.stringify({
        model: body.model,
        created_at: new Date().toISOString(),
        message: { role: "assistant", content },
        done_reason: "stop",
        done: true,
        total_duration: 1_000_000,
        load_duration: 1000,
        prompt_eval_count: tokensIn,
        prompt_eval_duration: 1000,
        eval_count: tokensOut,
        eval_duration: 1000,
      });
    }
    const bytes = Buffer.from(payload, "utf8");
    if (b.kind === "truncated") {
      // Headers promise the whole body; half of it comes, then the connection drops.
      res.writeHead(200, { "content-type": "application/json", "content-length": String(bytes.length) });
      res.write(bytes.subarray(0, bytes.length >> 1));
      setTimeout(() => res.socket?.destroy(), 10);
      return;
    }
    res.writeHead(200, { "content-type": "application/json", "content-length": String(bytes.length) });
    res.end(bytes);
  }

  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    openaiBase: `${url}/v1`,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    get answered() {
      return state.answered;
    },
    get inFlight() {
      return inFlight;
    },
    next: (...b) => queue.push(...b),
    behave: (b) => {
      fallbackBehaviour = b;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  } as ModelServer;
}
