/**
 * The workspace's save (app/annotate/save-request.ts) honours 429: it waits as
 * Retry-After says, then sends the save again — with what the fields hold then —
 * until it is answered; nothing is taken for an answer before that. fetch and
 * the wait are stand-ins: no server, no wall time.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_WAIT_MS, postSave, retryAfterMs, type SaveBody, sleep, untilAccepted } from "../../app/annotate/save-request";

const NIL = { kind: "NIL" as const, substitutes: [], multiword: false, phrase: "" };
const OK = { ok: true, revision: 1, response: { kind: "NIL", substitutes: [], multiword: false, phrase: "", revision: 1 }, next: null, progress: { done: 1, total: 2 }, upcoming: [] };

function tooMany(retryAfter?: string) {
  return new Response(JSON.stringify({ ok: false, message: "Not saved yet: too many saves at once." }), {
    status: 429,
    headers: { "content-type": "application/json", ...(retryAfter === undefined ? {} : { "retry-after": retryAfter }) },
  });
}
const answered = () => new Response(JSON.stringify(OK), { status: 200, headers: { "content-type": "application/json" } });

afterEach(() => vi.unstubAllGlobals());

describe("postSave on 429", () => {
  it("waits Retry-After, sends again with the draft as it is then, and returns the acknowledgement", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValueOnce(tooMany("2")).mockResolvedValueOnce(tooMany("1")).mockResolvedValueOnce(answered());
    vi.stubGlobal("fetch", fetch);
    const waits: number[] = [];
    const notes: number[] = [];
    let typed = "calm";
    const build = (): SaveBody => ({ response: { ...NIL, kind: "substitutes", substitutes: [typed] }, expectedRevision: 0 });
    const res = await postSave(7, 42, build, {
      sleep: async (ms) => {
        waits.push(ms);
        typed = "quiet"; // the annotator typed while waiting
      },
      onWait: (s) => notes.push(s),
    });
    expect(res).toMatchObject({ ok: true, revision: 1 });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([2000, 1000]);
    expect(notes).toEqual([2, 1]);
    const bodies = fetch.mock.calls.map(([, init]) => JSON.parse(String(init?.body)) as SaveBody);
    expect(bodies.map((b) => b.response.substitutes)).toEqual([["calm"], ["quiet"], ["quiet"]]);
    expect(bodies.every((b) => b.expectedRevision === 0)).toBe(true);
    expect(String(fetch.mock.calls[0][0])).toBe("/api/projects/7/responses/42");
  });

  it("stops waiting when the pane goes: rejects, sends nothing more", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(tooMany("5"));
    vi.stubGlobal("fetch", fetch);
    const ctl = new AbortController();
    const done = postSave(7, 42, { response: NIL, expectedRevision: 0 }, { signal: ctl.signal, onWait: () => ctl.abort() });
    await expect(done).rejects.toThrow();
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("a save already sent is not cut off when the pane goes: its answer still comes", async () => {
    const ctl = new AbortController();
    const fetch = vi.fn<typeof globalThis.fetch>().mockImplementation(async (_url, init) => {
      ctl.abort();
      expect(init?.signal).toBeUndefined();
      return answered();
    });
    vi.stubGlobal("fetch", fetch);
    await expect(postSave(7, 42, { response: NIL, expectedRevision: 0 }, { signal: ctl.signal })).resolves.toMatchObject({ ok: true, revision: 1 });
  });

  it("503 with Retry-After (the database stayed busy, nothing stored) is waited out and sent again like 429", async () => {
    const busy = new Response(JSON.stringify({ ok: false, message: "The database is busy: nothing was saved." }), {
      status: 503,
      headers: { "content-type": "application/json", "retry-after": "1" },
    });
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValueOnce(busy).mockResolvedValueOnce(answered());
    vi.stubGlobal("fetch", fetch);
    const waits: number[] = [];
    const res = await postSave(7, 42, { response: NIL, expectedRevision: 0 }, { sleep: async (ms) => void waits.push(ms) });
    expect(res).toMatchObject({ ok: true, revision: 1 });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(waits).toEqual([1000]);
  });

  it("a 503 without Retry-After is not a save result: the draft is kept", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(new Response("Service Unavailable", { status: 503, headers: { "content-type": "text/plain" } }));
    vi.stubGlobal("fetch", fetch);
    await expect(postSave(7, 42, { response: NIL, expectedRevision: 0 }, { sleep: async () => expect.fail("no wait") })).rejects.toThrow(/503/);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("other refusals are answers, not retried", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(
      new Response(JSON.stringify({ ok: false, message: "Not saved: see the marked field.", errors: { substitute1: "x" } }), { status: 400, headers: { "content-type": "application/json" } }),
    );
    vi.stubGlobal("fetch", fetch);
    const res = await postSave(7, 42, { response: NIL, expectedRevision: 0 }, { sleep: async () => expect.fail("no wait") });
    expect(res).toMatchObject({ ok: false, errors: { substitute1: "x" } });
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe("retryAfterMs", () => {
  it("reads seconds or a date, defaults to a second, caps at a minute", () => {
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs("soon")).toBe(1000);
    expect(retryAfterMs("0")).toBe(1000);
    expect(retryAfterMs("86400")).toBe(MAX_WAIT_MS);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(new Date(now + 4000).toUTCString(), now)).toBe(4000);
  });
});

describe("untilAccepted (the flag-and-note action)", () => {
  it("waits out { ok: false, retryAfterMs } and calls again", async () => {
    const results = [{ ok: false, message: "busy", retryAfterMs: 3000 }, { ok: true }];
    const attempt = vi.fn(async () => results.shift()!);
    const waits: number[] = [];
    const r = await untilAccepted(attempt, { sleep: async (ms) => void waits.push(ms) });
    expect(r).toEqual({ ok: true });
    expect(attempt).toHaveBeenCalledTimes(2);
    expect(waits).toEqual([3000]);
  });
  it("returns any other refusal at once", async () => {
    const r = await untilAccepted(async () => ({ ok: false, message: "Not an annotator of this project." }), { sleep: async () => expect.fail("no wait") });
    expect(r.ok).toBe(false);
  });
});

describe("sleep", () => {
  it("rejects at once when aborted", async () => {
    const ctl = new AbortController();
    const p = sleep(60_000, ctl.signal);
    ctl.abort();
    await expect(p).rejects.toBeDefined();
  });
});
