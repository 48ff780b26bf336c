/**
 * A model as a judgement round's source (`model:NAME`, issue #41): its cached candidates are pooled when
 * the round is made, a candidates run adds the rest as they come (a text another source proposed gains
 * the model's tag), judges never see sources, and Table 8 has a row for the model.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { getJob, jobsIdle, startJob } from "../../../lib/server/jobs/jobs";
import { createRound, nextJudgeItem, roundResults, saveLabel, setJudges } from "../../../lib/server/judgement/judgement";
import { addModel } from "../../../lib/server/models/connections";
import { modelRunInput, roundRunInputs } from "../../../lib/server/models/run-input";
import { goldFixture } from "../../support/gold-fixture";
import { type ModelServer, startModelServer } from "../../support/model-server";

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ candidates: { calm: ["serene", "placid", "still"], hop: ["jump", "bounce"] } });
});
afterAll(() => server.close());

const candidatesOf = (f: ReturnType<typeof goldFixture>, roundId: number) =>
  f.db.$client
    .prepare("select i.instance_id as id, c.text, c.sources from judgement_candidates c join judgement_items ji on ji.id = c.item_id join instances i on i.id = ji.instance_id where ji.round_id = ? order by i.instance_id, c.id")
    .all(roundId) as { id: string; text: string; sources: string }[];

describe("a model as a round's source", () => {
  it("pools what its cache holds, adds the rest by a candidates run, and Table 8 counts it", async () => {
    const f = goldFixture();
    await addModel(f.db, SYSTEM, f.project.id, { name: "loop", kind: "openai", baseUrl: server.openaiBase, model: "x" });
    // c1 asked before the round: cached.
    const pre = modelRunInput(f.db, f.coord, f.project.id, { model: "loop", purpose: "candidates", instances: "1" });
    startJob(f.db, f.coord, f.project.id, "model-run", pre as unknown as Record<string, unknown>);
    await jobsIdle();
    const calls = server.requests.length;

    const round = createRound(f.db, f.coord, f.project.id, { selection: "any", sampleSize: 10, seed: 1, sources: ["annotators", "model:loop"], allowOwnItems: true });
    const c1 = candidatesOf(f, round.id).filter((c) => c.id === "c1");
    expect(c1.find((c) => c.text === "still")!.sources).toBe('["annotators","model:loop"]');
    expect(c1.find((c) => c.text === "placid")!.sources).toBe('["model:loop"]');
    expect(candidatesOf(f, round.id).some((c) => c.id === "h1" && c.sources.includes("model:loop"))).toBe(false);

    const inputs = roundRunInputs(f.db, f.coord, f.project.id, round.id);
    expect(inputs).toHaveLength(1);
    const job = startJob(f.db, f.coord, f.project.id, "model-run", inputs[0] as unknown as Record<string, unknown>);
    await jobsIdle();
    expect(getJob(f.db, f.coord, job.id).state).toBe("done");
    // The cached instance called nothing again.
    expect(server.requests.length).toBe(calls + round.items - 1);
    const h1 = candidatesOf(f, round.id).filter((c) => c.id === "h1");
    expect(h1.map((c) => [c.text, JSON.parse(c.sources)])).toEqual(
      expect.arrayContaining([
        ["jump", ["annotators", "model:loop"]],
        ["bounce", ["model:loop"]],
      ]),
    );
    // No duplicate texts per item.
    for (const id of ["c1", "h1"]) {
      const texts = candidatesOf(f, round.id).filter((c) => c.id === id).map((c) => c.text.toLowerCase());
      expect(new Set(texts).size).toBe(texts.length);
    }

    // Judged blind; Table 8 has the model's row.
    setJudges(f.db, SYSTEM, round.id, [f.ann.userId]);
    for (;;) {
      const next = nextJudgeItem(f.db, f.ann, round.id);
      if (!next) break;
      expect(JSON.stringify(next)).not.toContain("model:loop");
      for (const c of next.candidates) saveLabel(f.db, f.ann, round.id, c.id, c.text === "bounce" ? "bad" : "good");
    }
    const res = roundResults(f.db, f.coord, round.id);
    const row = res.table8.find((t) => t.source === "model:loop")!;
    expect(row.total).toBeGreaterThan(0);
    expect(row.bad.count).toBeGreaterThan(0);
  });

  it("an unknown model is refused naming the source, and nothing is written", async () => {
    const f = goldFixture();
    expect(() => createRound(f.db, f.coord, f.project.id, { selection: "any", sampleSize: 2, sources: ["model:nope"] })).toThrow(/no model "nope"/);
    expect(f.db.$client.prepare("select count(*) as n from judgement_rounds").get()).toEqual({ n: 0 });
  });
});
