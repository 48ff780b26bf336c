/**
 * The model client against the loopback server (test/support/model-server.ts): the request bodies each
 * kind sends (contract), and every behaviour of a server turned into one outcome — a valid answer,
 * malformed JSON, a schema violation, a reply that is not a chat completion, 429 with Retry-After, 500,
 * a truncated body, a reply over the size limit, a redirect, a time-out — never half an answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callModel, type ModelTarget, retryAfterMs } from "../../../lib/server/models/client";
import { backoffMs } from "../../../lib/server/models/calls";
import { openChannel } from "../../../lib/server/models/net";
import { ANSWER_JSON_SCHEMA, CANDIDATES_JSON_SCHEMA, renderPrompt, SYSTEM_MESSAGE } from "../../../lib/server/models/prompt";
import { type ModelServer, startModelServer } from "../../support/model-server";

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ answers: { bright: { answer: "substitutes", substitutes: ["shining", "vivid"], multiword: null } }, candidates: { bright: ["shining", "vivid", "sunny"] } });
});
afterAll(() => server.close());

const messages = renderPrompt("Target {{target}} in {{sentence}} ({{language}}). {{guidelines}}", { guidelines: "", language: "de" }, { before: "a ", head: "bright", after: " morning" });
const settings = { temperature: 0.3, seed: 2 };

function target(kind: "openai" | "ollama"): ModelTarget {
  return { kind, baseUrl: kind === "openai" ? server.openaiBase : server.url, model: "lexsub-test" };
}

async function call(kind: "openai" | "ollama", opts: { key?: string | null; purpose?: "annotate" | "candidates"; timeoutMs?: number } = {}) {
  const t = target(kind);
  const channel = openChannel({ baseUrl: t.baseUrl, reach: { privateAllowed: true }, connections: 4, timeoutMs: opts.timeoutMs ?? 5000 });
  try {
    return await callModel(channel, t, opts.key ?? null, opts.purpose ?? "annotate", messages, settings, opts.timeoutMs ?? 5000);
  } finally {
    await channel.close();
  }
}

describe("the prompt", () => {
  it("marks the target, names the language, and says so when there are no guidelines; never the PoS", () => {
    expect(messages.system).toBe(SYSTEM_MESSAGE);
    expect(messages.user).toContain("a [[bright]] morning");
    expect(messages.user).toContain("(German)");
    expect(messages.user).toContain("(none: use your judgement");
  });
});

describe("the request each kind sends", () => {
  it("openai: POST {base}/chat/completions with the model, both messages, the settings and a strict json_schema response_format", async () => {
    server.requests.length = 0;
    const r = await call("openai", { key: "sk-test-123" });
    expect(r.outcome).toBe("ok");
    const req = server.requests[0];
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-test-123");
    expect(req.body).toEqual({
      model: "lexsub-test",
      messages: [
        { role: "system", content: messages.system },
        { role: "user", content: messages.user },
      ],
      temperature: 0.3,
      seed: 2,
      response_format: { type: "json_schema", json_schema: { name: "lexsub_answer", strict: true, schema: ANSWER_JSON_SCHEMA } },
    });
  });

  it("openai without a key sends no Authorization header", async () => {
    server.requests.length = 0;
    expect((await call("openai")).outcome).toBe("ok");
    expect(server.requests[0].headers.authorization).toBeUndefined();
  });

  it("ollama: POST /api/chat with format = the schema, stream false and the settings as options", async () => {
    server.requests.length = 0;
    const r = await call("ollama", { purpose: "candidates" });
    expect(r).toMatchObject({ outcome: "ok", answer: { candidates: ["shining", "vivid", "sunny"] } });
    const req = server.requests[0];
    expect(req.path).toBe("/api/chat");
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toEqual({
      model: "lexsub-test",
      messages: [
        { role: "system", content: messages.system },
        { role: "user", content: messages.user },
      ],
      format: CANDIDATES_JSON_SCHEMA,
      stream: false,
      options: { temperature: 0.3, seed: 2 },
    });
  });

  it("ollama with a key sends it as a bearer token (a proxy in front of Ollama)", async () => {
    server.requests.length = 0;
    await call("ollama", { key: "proxy-key" });
    expect(server.requests[0].headers.authorization).toBe("Bearer proxy-key");
  });
});

describe.each(["openai", "ollama"] as const)("%s: every behaviour of the server is one outcome", (kind) => {
  it("a valid answer, with its tokens", async () => {
    const r = await call(kind);
    expect(r).toMatchObject({ outcome: "ok", httpStatus: 200, answer: { answer: "substitutes", substitutes: ["shining", "vivid"], multiword: null } });
    expect(r.tokensIn).toBeGreaterThan(0);
    expect(r.tokensOut).toBeGreaterThan(0);
  });

  it.each([
    [{ kind: "malformed" as const }, "malformed", /not JSON/],
    [{ kind: "schema" as const }, "schema", /breaks the schema at answer/],
    [{ kind: "envelope" as const }, "malformed", /not (a chat completion|an Ollama chat answer)/],
    [{ kind: "500" as const }, "server-error", /answered 500/],
    [{ kind: "truncated" as const }, "network", /connection failed/],
    [{ kind: "huge" as const, bytes: 400_000 }, "too-large", /longer than 256 KB/],
    [{ kind: "redirect" as const, to: "http://169.254.169.254/latest" }, "refused", /redirect/],
  ])("%j → %s, no answer", async (b, outcome, detail) => {
    server.next(b);
    const r = await call(kind);
    expect(r.outcome).toBe(outcome);
    expect(r.answer).toBeNull();
    expect(r.detail).toMatch(detail);
  });

  it("429 carries its Retry-After", async () => {
    server.next({ kind: "429", retryAfter: "3" });
    const r = await call(kind);
    expect(r).toMatchObject({ outcome: "rate-limited", httpStatus: 429, retryAfterMs: 3000 });
  });

  it("a server that does not answer in time is a time-out", async () => {
    server.next({ kind: "hang" });
    const r = await call(kind, { timeoutMs: 300 });
    expect(r.outcome).toBe("timeout");
  });

  it("a model the server does not know is an HTTP error, not retried", async () => {
    const s = await startModelServer({ models: ["other"] });
    try {
      const t = { kind, baseUrl: kind === "openai" ? s.openaiBase : s.url, model: "lexsub-test" };
      const channel = openChannel({ baseUrl: t.baseUrl, reach: { privateAllowed: true }, connections: 1, timeoutMs: 5000 });
      const r = await callModel(channel, t, null, "annotate", messages, settings, 5000);
      await channel.close();
      expect(r).toMatchObject({ outcome: "http-error", httpStatus: 404 });
    } finally {
      await s.close();
    }
  });
});

describe("Retry-After", () => {
  it("reads seconds and HTTP dates", () => {
    expect(retryAfterMs("2")).toBe(2000);
    expect(retryAfterMs("Wed, 21 Oct 2015 07:28:10 GMT", Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"))).toBe(10_000);
    expect(retryAfterMs("soon")).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});

describe("back-off between tries", () => {
  it("doubles from half a second with jitter, takes a longer Retry-After, and stops at a minute", () => {
    expect(backoffMs(1, null, 1)).toBe(500);
    expect(backoffMs(1, null, 0)).toBe(250);
    expect(backoffMs(3, null, 1)).toBe(2000);
    expect(backoffMs(2, 5000, 0)).toBe(5000);
    expect(backoffMs(20, null, 1)).toBe(60_000);
    expect(backoffMs(1, 3_600_000, 1)).toBe(60_000);
  });
});
