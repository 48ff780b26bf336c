/** The load benchmark's bare route: off (404, nothing written) unless the server was started with LEXGOLD_BENCH_BARE=1. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { projectFixture } from "../../support/db";

const state = vi.hoisted(() => ({ db: null as unknown, actor: null as unknown }));
vi.mock("@/lib/db", () => ({ getDb: () => state.db }));
vi.mock("@/lib/auth/session", () => ({ getActor: async () => state.actor }));
const route = await import("../../../app/api/bench/bare/route");
const shaped = await import("../../../app/api/bench/bare/[projectId]/[instanceRef]/route");

const request = () => new Request("http://lexgold.test/api/bench/bare", { method: "POST", body: JSON.stringify({ a: 1 }), headers: { "content-type": "application/json" } });
const post = () => route.POST(request());
const postShaped = () => shaped.POST(request(), { params: Promise.resolve({ projectId: "3", instanceRef: "7" }) });
const db = () => projectFixture().db;
const benchTables = (d: ReturnType<typeof db>) => d.$client.prepare("select name from sqlite_master where name = 'bench_bare'").all();

const saved = process.env.LEXGOLD_BENCH_BARE;
afterEach(() => {
  if (saved === undefined) delete process.env.LEXGOLD_BENCH_BARE;
  else process.env.LEXGOLD_BENCH_BARE = saved;
});

describe("the benchmark's bare route", () => {
  it("is not there in a normal start, and writes nothing", async () => {
    delete process.env.LEXGOLD_BENCH_BARE;
    const d = (state.db = db());
    expect((await post()).status).toBe(404);
    state.actor = { kind: "user", userId: 1, name: "ann", role: "annotator" };
    expect((await postShaped()).status).toBe(404);
    process.env.LEXGOLD_BENCH_BARE = "0";
    expect((await post()).status).toBe(404);
    expect((await postShaped()).status).toBe(404);
    expect(benchTables(d)).toEqual([]);
  });

  it("with LEXGOLD_BENCH_BARE=1, stores each request's body in one transaction", async () => {
    process.env.LEXGOLD_BENCH_BARE = "1";
    const d = (state.db = db());
    const a = await (await post()).json();
    const b = await (await post()).json();
    expect([a, b]).toEqual([{ ok: true, id: 1 }, { ok: true, id: 2 }]);
    expect(d.$client.prepare("select body from bench_bare order by id").all()).toEqual([{ body: '{"a":1}' }, { body: '{"a":1}' }]);
  });

  it("at the save's path, checks the session as the save does: 401 and nothing written without one", async () => {
    process.env.LEXGOLD_BENCH_BARE = "1";
    const d = (state.db = db());
    state.actor = null;
    expect((await postShaped()).status).toBe(401);
    expect(benchTables(d)).toEqual([]);
    state.actor = { kind: "user", userId: 1, name: "ann", role: "annotator" };
    expect(await (await postShaped()).json()).toEqual({ ok: true, id: 1 });
    expect(d.$client.prepare("select body from bench_bare").all()).toEqual([{ body: '3/7 {"a":1}' }]);
  });
});
