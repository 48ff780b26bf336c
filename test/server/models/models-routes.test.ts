/**
 * The model routes (issue #41): a run started by a script (202 with the job, or the report with ?wait=1),
 * a model's answers as a system file, and the workspace's suggestions route under the page limit (429 with
 * Retry-After past it, before anything is read).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { resetRateLimits } from "../../../lib/server/kernel/rate-limit";
import { addModel } from "../../../lib/server/models/connections";
import { setSuggestions } from "../../../lib/server/models/suggestion-settings";
import { goldFixture } from "../../support/gold-fixture";
import { type ModelServer, startModelServer } from "../../support/model-server";

const session = vi.hoisted(() => ({ actor: null as unknown, db: null as unknown }));
vi.mock("@/lib/auth/session", () => ({ getActor: async () => session.actor }));
vi.mock("@/lib/db", () => ({ getDb: () => session.db }));
const run = await import("../../../app/api/projects/[projectId]/models/run/route");
const file = await import("../../../app/api/projects/[projectId]/models/file/route");
const suggestions = await import("../../../app/api/projects/[projectId]/suggestions/route");

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const BASE = "http://localhost:3000";
const ctx = (projectId: number) => ({ params: Promise.resolve({ projectId: String(projectId) }) });

describe("the model routes", () => {
  it("a script starts a run and waits for its report; then downloads the best file", async () => {
    const f = goldFixture();
    await addModel(f.db, SYSTEM, f.project.id, { name: "loop", kind: "ollama", baseUrl: server.url, model: "x" });
    Object.assign(session, { db: f.db, actor: f.coord });
    const post = (body: string, query = "") =>
      run.POST(new Request(`${BASE}/api/projects/${f.project.id}/models/run${query}`, { method: "POST", headers: { Origin: BASE, Host: "localhost:3000", "Content-Type": "application/json" }, body }), ctx(f.project.id));
    const bad = await post('{"model":"loop","samples":"99"}');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/At most 10 samples/);
    const res = await post('{"model":"loop","instances":2}', "?wait=1");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { report: { answered: number } }).report.answered).toBe(2);
    const best = await file.GET(new Request(`${BASE}/api/projects/${f.project.id}/models/file?model=loop&type=best`), ctx(f.project.id));
    expect(best.headers.get("content-disposition")).toMatch(/loop\.best/);
    expect(await best.text()).toBe("calm.a c1 :: alpha\ncalm.a c2 :: alpha\n");
    // An annotator is refused both.
    Object.assign(session, { actor: f.ann });
    expect((await post('{"model":"loop"}')).status).toBe(403);
    expect((await file.GET(new Request(`${BASE}/api/projects/${f.project.id}/models/file?model=loop&type=best`), ctx(f.project.id))).status).toBe(403);
  });

  it("the suggestions route takes a token of the page limit each time: past it, 429 with Retry-After", async () => {
    process.env.LEXGOLD_PAGE_RATE = "1,2";
    resetRateLimits();
    try {
      const f = goldFixture();
      await addModel(f.db, SYSTEM, f.project.id, { name: "loop", kind: "ollama", baseUrl: server.url, model: "x" });
      setSuggestions(f.db, f.coord, f.project.id, { mode: "assist", model: "loop" });
      Object.assign(session, { db: f.db, actor: f.ann });
      const get = () => suggestions.GET(new Request(`${BASE}/api/projects/${f.project.id}/suggestions?refs=1,2`), ctx(f.project.id));
      const first = await get();
      expect(first.status).toBe(200);
      expect(((await first.json()) as { mode: string }).mode).toBe("assist");
      expect((await get()).status).toBe(200);
      const third = await get();
      expect(third.status).toBe(429);
      expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    } finally {
      delete process.env.LEXGOLD_PAGE_RATE;
      resetRateLimits();
    }
  });
});
