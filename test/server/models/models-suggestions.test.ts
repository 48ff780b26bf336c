/**
 * A model's suggestions in the workspace (issue #41): what the route gives an annotator (ready, pending
 * while the model answers in the background, hidden before the save in "after" mode), to whom (never a
 * judge, a participant only when the study allows it, only instances of their queue), and what a save
 * records of them (checked on the server, never taken on the browser's word alone).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM, type UserActor } from "../../../lib/server/kernel/actor";
import { jobsIdle, startJob } from "../../../lib/server/jobs/jobs";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { changeAssignments } from "../../../lib/server/annotate/assignments";
import { addMember } from "../../../lib/server/people/users";
import { addModel } from "../../../lib/server/models/connections";
import { modelRunInput } from "../../../lib/server/models/run-input";
import { setStudySuggestions, setSuggestions } from "../../../lib/server/models/suggestion-settings";
import { workspaceSuggestionMode, workspaceSuggestions } from "../../../lib/server/models/suggestions";
import { computeModelMeasures } from "../../../lib/server/models/measures";
import { actorFor } from "../../support/db";
import { goldFixture } from "../../support/gold-fixture";
import { makeParticipant, makeStudy } from "../../support/crowd";
import { type ModelServer, startModelServer } from "../../support/model-server";
import { until } from "../../support/wait";

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ answers: { calm: { answer: "substitutes", substitutes: ["still", "serene"], multiword: null }, hop: { answer: "substitutes", substitutes: ["jump", "skip"], multiword: null } } });
});
afterAll(() => server.close());

async function fixture(mode: "after" | "assist", annotateFirst: boolean) {
  const f = goldFixture();
  await addModel(f.db, SYSTEM, f.project.id, { name: "loop", kind: "ollama", baseUrl: server.url, model: "x" });
  if (annotateFirst) {
    startJob(f.db, SYSTEM, f.project.id, "model-run", modelRunInput(f.db, SYSTEM, f.project.id, { model: "loop" }) as unknown as Record<string, unknown>);
    await jobsIdle();
  }
  setSuggestions(f.db, f.coord, f.project.id, { mode, model: "loop" });
  const dan = actorFor(f.db, "dan", "annotator");
  addMember(f.db, f.coord, f.project.id, "dan");
  const ref = (id: string) => (f.db.$client.prepare("select id from instances where instance_id = ?").get(id) as { id: number }).id;
  return { ...f, dan, ref };
}

const recordOf = (f: { db: { $client: import("better-sqlite3").Database } }, userId: number, ref: number) =>
  JSON.parse((f.db.$client.prepare("select suggestions as s from responses where user_id = ? and instance_ref = ?").get(userId, ref) as { s: string }).s) as { mode: string; shown: boolean; accepted: string[] };

describe("what the workspace is given", () => {
  it("assist: the model's answers at once when it has annotated; otherwise pending while it is asked in the background", async () => {
    const f = await fixture("assist", true);
    expect(workspaceSuggestionMode(f.db, f.dan, f.project.id)).toEqual({ mode: "assist", model: "loop" });
    expect(workspaceSuggestions(f.db, f.dan, f.project.id, [f.ref("c1"), f.ref("c2")]).items).toEqual({
      [f.ref("c1")]: { state: "ready", kind: "substitutes", substitutes: ["still", "serene"] },
      [f.ref("c2")]: { state: "ready", kind: "substitutes", substitutes: ["alpha", "beta"] },
    });

    const g = await fixture("assist", false);
    const calls = server.requests.length;
    expect(workspaceSuggestions(g.db, g.dan, g.project.id, [g.ref("h1")]).items[g.ref("h1")]).toEqual({ state: "pending" });
    // Asked once, however often the workspace asks meanwhile.
    workspaceSuggestions(g.db, g.dan, g.project.id, [g.ref("h1")]);
    await until(() => workspaceSuggestions(g.db, g.dan, g.project.id, [g.ref("h1")]).items[g.ref("h1")].state === "ready", "the model's answer");
    expect(server.requests.length).toBe(calls + 1);
    expect(g.db.$client.prepare("select outcome, sample, purpose from model_calls").all()).toEqual([{ outcome: "ok", sample: 1, purpose: "annotate" }]);
  });

  it("after: hidden until the annotator has saved the instance, then shown", async () => {
    const f = await fixture("after", true);
    expect(workspaceSuggestions(f.db, f.dan, f.project.id, [f.ref("c1")]).items[f.ref("c1")]).toEqual({ state: "hidden" });
    saveResponse(f.db, f.dan, f.project.id, f.ref("c1"), { kind: "substitutes", substitutes: ["peaceful"], multiword: false }, { expectedRevision: 0 });
    expect(workspaceSuggestions(f.db, f.dan, f.project.id, [f.ref("c1")]).items[f.ref("c1")]).toMatchObject({ state: "ready" });
  });

  it("only instances of the annotator's queue; never a judge; off for everyone when the project suggests nothing", async () => {
    const f = await fixture("assist", true);
    const lexelts = f.db.$client.prepare("select id, item from lexelts").all() as { id: number; item: string }[];
    const calm = lexelts.find((l) => l.item === "calm.a")!.id;
    changeAssignments(f.db, f.coord, f.project.id, f.dan.userId, lexelts.map((l) => l.id), [calm]);
    expect(Object.keys(workspaceSuggestions(f.db, f.dan, f.project.id, [f.ref("c1"), f.ref("h1"), 999999]).items)).toEqual([String(f.ref("c1"))]);
    const judge = actorFor(f.db, "jolene", "annotator");
    addMember(f.db, SYSTEM, f.project.id, "jolene", "judge");
    expect(() => workspaceSuggestions(f.db, judge, f.project.id, [f.ref("c1")])).toThrow(/judge/);
    const other = actorFor(f.db, "stranger", "annotator");
    expect(() => workspaceSuggestions(f.db, other, f.project.id, [f.ref("c1")])).toThrow(/No such project/);
    expect(() => workspaceSuggestions(f.db, null, f.project.id, [f.ref("c1")])).toThrow(/Sign in/);
    setSuggestions(f.db, f.coord, f.project.id, { mode: "off" });
    expect(workspaceSuggestions(f.db, f.dan, f.project.id, [f.ref("c1")])).toEqual({ mode: "off", model: null, items: {} });
    expect(workspaceSuggestionMode(f.db, f.dan, f.project.id)).toBeNull();
  });

  it("a crowd participant sees them only when the study allows it", async () => {
    const f = await fixture("assist", true);
    const study = makeStudy(f.db, f.project.id);
    const pp = makeParticipant(f.db, study, "pp", [f.ref("c1"), f.ref("c2")]).actor;
    expect(workspaceSuggestions(f.db, pp, f.project.id, [f.ref("c1")]).mode).toBe("off");
    setStudySuggestions(f.db, f.coord, f.project.id, study, true);
    const r = workspaceSuggestions(f.db, pp, f.project.id, [f.ref("c1"), f.ref("h1")]);
    expect(r.mode).toBe("assist");
    // Their batch only.
    expect(Object.keys(r.items)).toEqual([String(f.ref("c1"))]);
  });
});

describe("what a save records", () => {
  it("assist: shown, and the accepted words that are the model's and in the answer; the rest is dropped", async () => {
    const f = await fixture("assist", true);
    saveResponse(f.db, f.dan, f.project.id, f.ref("c1"), { kind: "substitutes", substitutes: ["Still", "quiet"], multiword: false, suggestions: { shown: true, accepted: ["still", "serene", "<script>"] } }, { expectedRevision: 0 });
    expect(recordOf(f, f.dan.userId, f.ref("c1"))).toMatchObject({ mode: "assist", shown: true, accepted: ["still"] });
    expect(f.db.$client.prepare("select suggestions from response_history where user_id = ?").get(f.dan.userId)).toEqual({ suggestions: expect.stringContaining('"shown":true') });
  });

  it("after: the first save is blind whatever the browser says; a revision after seeing them is not", async () => {
    const f = await fixture("after", true);
    const r1 = saveResponse(f.db, f.dan, f.project.id, f.ref("c1"), { kind: "substitutes", substitutes: ["peaceful"], multiword: false, suggestions: { shown: true, accepted: ["still"] } }, { expectedRevision: 0 });
    expect(recordOf(f, f.dan.userId, f.ref("c1"))).toMatchObject({ mode: "after", shown: false, accepted: [] });
    saveResponse(f.db, f.dan, f.project.id, f.ref("c1"), { kind: "substitutes", substitutes: ["peaceful", "still"], multiword: false, suggestions: { shown: true, accepted: ["still"] } }, { expectedRevision: r1.revision });
    expect(recordOf(f, f.dan.userId, f.ref("c1"))).toMatchObject({ mode: "after", shown: true, accepted: ["still"] });
  });

  it("no record when the project suggests nothing; a participant whose study does not allow them records none", async () => {
    const f = await fixture("assist", true);
    setSuggestions(f.db, f.coord, f.project.id, { mode: "off" });
    saveResponse(f.db, f.dan, f.project.id, f.ref("c1"), { kind: "NIL", substitutes: [], multiword: false, suggestions: { shown: true, accepted: [] } }, { expectedRevision: 0 });
    expect(f.db.$client.prepare("select suggestions from responses where user_id = ?").get(f.dan.userId)).toEqual({ suggestions: null });
  });

  it("the Models section splits the people's agreement with the model by it (anchoring)", async () => {
    const f = await fixture("assist", true);
    const eve: UserActor = actorFor(f.db, "eve", "annotator");
    addMember(f.db, f.coord, f.project.id, "eve");
    saveResponse(f.db, eve, f.project.id, f.ref("c1"), { kind: "substitutes", substitutes: ["still", "serene"], multiword: false, suggestions: { shown: true, accepted: ["still", "serene"] } }, { expectedRevision: 0 });
    const loop = computeModelMeasures(f.db, f.project.id).models[0];
    expect(loop.anchoring.shown).toEqual({ n: 1, value: 1 });
    expect(loop.anchoring.blind.n).toBeGreaterThan(0);
  });
});
