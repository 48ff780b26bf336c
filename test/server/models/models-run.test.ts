/**
 * A model as an annotator (issue #41): a run over the project answers each instance per sample as a
 * pseudo-annotator; it is resumable and cached; failures are listed per instance, never stored half; a
 * cancel keeps what was answered. Its answers are out of the gold, the queue, Progress and the people's
 * export until a coordinator counts it (logged, undoable), and never a person: no sign-in, no account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { cancelJob, getJob, jobsIdle, recoverJobs, startJob } from "../../../lib/server/jobs/jobs";
import { projectGold } from "../../../lib/server/gold/gold";
import { projectProgress } from "../../../lib/server/annotate/progress";
import { exportResponses } from "../../../lib/server/annotate/response-import";
import { listUsers } from "../../../lib/server/people/users";
import { addModel, listModels, removeModel } from "../../../lib/server/models/connections";
import { discardModelAnswers, setModelCounted } from "../../../lib/server/models/decisions";
import { addModelRuns, modelSystemFile } from "../../../lib/server/models/exports";
import { modelRunInput } from "../../../lib/server/models/run-input";
import type { RunReport } from "../../../lib/server/models/run";
import { computeModelMeasures } from "../../../lib/server/models/measures";
import { reviewLogPage } from "../../../lib/server/gold/gold-review";
import { setRequiredAnnotators } from "../../../lib/server/people/team";
import { workspace } from "../../../lib/server/annotate/responses";
import { deleteProject } from "../../../lib/server/corpus/project-lifecycle";
import { goldFixture } from "../../support/gold-fixture";
import { type ModelServer, startModelServer } from "../../support/model-server";
import { until } from "../../support/wait";

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({
    answers: {
      calm: { answer: "substitutes", substitutes: ["still", "serene", "still"], multiword: null },
      Calm: { answer: "NAME", substitutes: [], multiword: null },
      hop: { answer: "substitutes", substitutes: ["jump", "hop"], multiword: "hop about" },
    },
    candidates: { calm: ["still", "serene", "tranquil", "quiet;hushed"], hop: ["jump", "skip"] },
  });
});
afterAll(() => server.close());

async function fixture(maxConcurrency = 3) {
  const f = goldFixture();
  await addModel(f.db, SYSTEM, f.project.id, { name: "loop", kind: "ollama", baseUrl: server.url, model: "lexsub-test", maxConcurrency });
  return f;
}

async function run(f: Awaited<ReturnType<typeof fixture>>, raw: Record<string, unknown>) {
  const input = modelRunInput(f.db, f.coord, f.project.id, { model: "loop", ...raw });
  const job = startJob(f.db, f.coord, f.project.id, "model-run", input as unknown as Record<string, unknown>);
  await jobsIdle();
  return getJob(f.db, f.coord, job.id);
}

const responsesOf = (f: { db: { $client: import("better-sqlite3").Database } }, name: string) =>
  f.db.$client
    .prepare("select i.instance_id as id, r.kind, r.substitutes, r.multiword from responses r join users u on u.id = r.user_id join instances i on i.id = r.instance_ref where u.name = ? order by i.position, i.id")
    .all(name);

describe("a model's run", () => {
  it("answers every instance per sample as its pseudo-annotators, stored as written (tidied, repeats dropped)", async () => {
    const f = await fixture();
    const j = await run(f, { samples: 2, temperature: 0.7 });
    expect(j.state).toBe("done");
    const r = j.report as RunReport;
    expect(r).toMatchObject({ model: "loop", samples: 2, total: 8, skipped: 0, answered: 8, failed: 0, templateVersion: 0 });
    expect(r.tokensIn).toBeGreaterThan(0);
    const name = `model:${f.project.id}:loop:1`;
    expect(responsesOf(f, name)).toEqual([
      { id: "c1", kind: "substitutes", substitutes: '["still","serene"]', multiword: null },
      { id: "c2", kind: "NAME", substitutes: "[]", multiword: null },
      { id: "h1", kind: "substitutes", substitutes: '["jump","hop"]', multiword: "hop about" },
      { id: "h2", kind: "substitutes", substitutes: '["jump","hop"]', multiword: "hop about" },
    ]);
    expect(responsesOf(f, `model:${f.project.id}:loop:2`)).toHaveLength(4);
    // Each sample asked with its own seed, at the run's temperature.
    const seeds = server.requests.slice(-8).map((q) => (q.body as { options: { seed: number; temperature: number } }).options);
    expect(new Set(seeds.map((s) => s.seed))).toEqual(new Set([1, 2]));
    expect(seeds.every((s) => s.temperature === 0.7)).toBe(true);
    expect(f.db.$client.prepare("select count(*) as n, sum(outcome = 'ok') as ok from model_calls").get()).toEqual({ n: 8, ok: 8 });
    expect(f.db.$client.prepare("select distinct source from response_history where user_id in (select user_id from model_samples)").all()).toEqual([{ source: "model" }]);
  });

  it("is out of the gold, Progress, the queue and the people's export until counted; counting is logged and undoable", async () => {
    const f = await fixture();
    const before = projectGold(f.db, f.coord, f.project.id).gold;
    await run(f, {});
    expect(projectGold(f.db, f.coord, f.project.id).gold).toBe(before);
    expect(projectProgress(f.db, f.coord, f.project.id).annotators.map((a) => a.name)).toEqual(["ann", "bea", "cat"]);
    expect(exportResponses(f.db, f.coord, f.project.id)).not.toContain("model:");
    expect(listUsers(f.db, SYSTEM).map((u) => u.name)).not.toContain(`model:${f.project.id}:loop:1`);

    setModelCounted(f.db, f.coord, f.project.id, "loop", true, "a strong model");
    const counted = projectGold(f.db, f.coord, f.project.id).gold;
    expect(counted).not.toBe(before);
    expect(counted).toMatch(/calm\.a c1 :: still 3;serene 2;/);
    // Still never the people's Progress, nor their export.
    expect(projectProgress(f.db, f.coord, f.project.id).annotators.map((a) => a.name)).toEqual(["ann", "bea", "cat"]);
    expect(listModels(f.db, f.coord, f.project.id)[0].counted).toBe(true);
    expect(() => removeModel(f.db, f.coord, f.project.id, "loop")).toThrow(/counted as an annotator/);
    expect(() => discardModelAnswers(f.db, f.coord, f.project.id, "loop")).toThrow(/counted as an annotator/);

    setModelCounted(f.db, f.coord, f.project.id, "loop", false);
    expect(projectGold(f.db, f.coord, f.project.id).gold).toBe(before);
    const log = reviewLogPage(f.db, f.coord, f.project.id, {}).rows.filter((e) => e.kind === "model");
    expect(log.map((e) => [e.decision, e.target, e.reason])).toEqual([
      ["no longer counted as an annotator", "loop", ""],
      ["counted as an annotator", "loop", "a strong model"],
    ]);
  });

  it("never closes an instance for people: the queue counts the people's answers only", async () => {
    const f = await fixture();
    setRequiredAnnotators(f.db, f.coord, f.project.id, 1);
    // h2 has one answer (ann's): closed for bea. Both c2 and h2 get a model answer; c2 stays open for... everyone it was open to.
    const open = () => workspace(f.db, { kind: "user", userId: (f.db.$client.prepare("select id from users where name = 'bea'").get() as { id: number }).id, name: "bea", role: "annotator" }, f.project.id).progress;
    const was = open();
    await run(f, { samples: 3 });
    expect(open()).toEqual(was);
  });

  it("goes on from where it was: answered instances skipped, the same prompt taken from the cache", async () => {
    const f = await fixture();
    await run(f, { instances: 2 });
    expect(responsesOf(f, `model:${f.project.id}:loop:1`).map((r) => (r as { id: string }).id)).toEqual(["c1", "c2"]);
    const calls = server.requests.length;
    const again = (await run(f, {})).report as RunReport;
    expect(again).toMatchObject({ total: 4, skipped: 2, answered: 2, cached: 0 });
    expect(server.requests.length).toBe(calls + 2);
    // Answers discarded: the same run answers from the cache, calling nothing.
    discardModelAnswers(f.db, f.coord, f.project.id, "loop");
    expect(responsesOf(f, `model:${f.project.id}:loop:1`)).toEqual([]);
    const cached = (await run(f, {})).report as RunReport;
    expect(cached).toMatchObject({ total: 4, skipped: 0, answered: 4, cached: 4 });
    expect(server.requests.length).toBe(calls + 2);
  });

  it("lists per instance what failed (malformed, schema, 500 after its retries) and stores nothing of it; 429 is retried after its Retry-After", async () => {
    // One call at a time, so that the behaviours meet the instances in order.
    const f = await fixture(1);
    server.next({ kind: "malformed" }, { kind: "429", retryAfter: "0" }, { kind: "schema" }, { kind: "500" }, { kind: "500" }, { kind: "500" }, { kind: "500" }, { kind: "500" });
    const j = await run(f, {});
    const r = j.report as RunReport;
    expect(j.state).toBe("done");
    expect(r.failed + r.answered).toBe(4);
    expect(r.failures.map((x) => x.outcome).sort()).toEqual(["malformed", "schema", "server-error"]);
    expect(r.outcomes["rate-limited"]).toBe(1);
    expect(r.outcomes["server-error"]).toBe(5);
    const failed = new Set(r.failures.map((x) => x.instanceId));
    for (const row of responsesOf(f, `model:${f.project.id}:loop:1`)) expect(failed.has((row as { id: string }).id)).toBe(false);
    // Run again: only the failed ones are asked.
    const again = (await run(f, {})).report as RunReport;
    expect(again).toMatchObject({ skipped: 1, answered: 3, failed: 0 });
  });

  it("a cancel stops the calls in flight and keeps what was answered", async () => {
    const f = await fixture();
    server.behave({ kind: "slow", ms: 3000 });
    try {
      const input = modelRunInput(f.db, f.coord, f.project.id, { model: "loop", samples: 5 });
      const job = startJob(f.db, f.coord, f.project.id, "model-run", input as unknown as Record<string, unknown>);
      await until(() => getJob(f.db, f.coord, job.id).state === "running", "the run to start");
      expect(() => modelRunInput(f.db, f.coord, f.project.id, { model: "loop" })).toThrow(/running already/);
      cancelJob(f.db, f.coord, job.id);
      await jobsIdle();
      const j = getJob(f.db, f.coord, job.id);
      expect(j.state).toBe("cancelled");
      expect(j.message).toMatch(/^Cancelled: \d+ answered in this run are kept/);
    } finally {
      server.behave({ kind: "valid" });
    }
  });

  it("its pseudo-annotators go with it: removed, discarded, or its project deleted", async () => {
    const f = await fixture();
    await run(f, { samples: 2 });
    const models = () => (f.db.$client.prepare("select count(*) as n from users where role = 'model'").get() as { n: number }).n;
    expect(models()).toBe(2);
    discardModelAnswers(f.db, f.coord, f.project.id, "loop");
    expect(models()).toBe(0);
    await run(f, {});
    expect(models()).toBe(1);
    await deleteProject(f.db, f.coord, f.project.id, "p");
    expect(models()).toBe(0);
    expect(f.db.$client.prepare("select count(*) as n from users").get()).toEqual({ n: 4 });
  });

  it("a run a stopped server left unfinished says its answers are kept", async () => {
    const f = await fixture();
    const input = JSON.stringify(modelRunInput(f.db, f.coord, f.project.id, { model: "loop" }));
    f.db.$client.prepare("insert into jobs (project_id, kind, state, input) values (?, 'model-run', 'running', ?), (?, 'lexelt-xml', 'running', '{}')").run(f.project.id, input, f.project.id);
    await recoverJobs(f.db);
    expect(f.db.$client.prepare("select kind, state, message from jobs order by id").all()).toEqual([
      { kind: "model-run", state: "failed", message: "The server stopped before this run finished; what it answered is kept: start it again to go on." },
      { kind: "lexelt-xml", state: "failed", message: "The server stopped before this job finished; nothing it wrote is visible." },
    ]);
  });

  it("a run input out of range is refused by field", async () => {
    const f = await fixture();
    expect(() => modelRunInput(f.db, f.coord, f.project.id, { model: "loop", samples: "11" })).toThrow(/At most 10 samples/);
    expect(() => modelRunInput(f.db, f.coord, f.project.id, { model: "loop", temperature: "3" })).toThrow(/at most 2/);
    expect(() => modelRunInput(f.db, f.coord, f.project.id, { model: "nope" })).toThrow(/No model named/);
    expect(() => modelRunInput(f.db, f.ann, f.project.id, { model: "loop" })).toThrow(/coordinator/);
  });
});

describe("a model's answers as runs and measures", () => {
  it("best = its first answer; oot = its ranked candidates (a guess the format cannot carry left out); stored as Scoring runs", async () => {
    const f = await fixture();
    await run(f, {});
    expect(modelSystemFile(f.db, f.coord, f.project.id, "loop", "best").text).toBe("calm.a c1 :: still\nhop.v h1 :: jump\nhop.v h2 :: jump\n");
    await run(f, { purpose: "candidates" });
    const oot = modelSystemFile(f.db, f.coord, f.project.id, "loop", "oot");
    expect(oot.text).toBe("calm.a c1 ::: still;serene;tranquil\ncalm.a c2 ::: alpha;beta;gamma\nhop.v h1 ::: jump;skip\nhop.v h2 ::: jump;skip\n");
    expect(oot.dropped).toBe(1);
    const runs = addModelRuns(f.db, f.coord, f.project.id, "loop");
    expect(runs.map((r) => r.type)).toEqual(["best", "oot"]);
    // Again: replaced, not refused.
    expect(addModelRuns(f.db, f.coord, f.project.id, "loop").map((r) => r.lines)).toEqual([3, 4]);
    expect(f.db.$client.prepare("select name, type from system_runs order by type").all()).toEqual([
      { name: "model:loop", type: "best" },
      { name: "model:loop", type: "oot" },
    ]);
  });

  it("measures each model against the people with the task's measures", async () => {
    const f = await fixture();
    await run(f, { samples: 2 });
    const m = computeModelMeasures(f.db, f.project.id);
    expect(m.people.annotators).toBe(3);
    const loop = m.models[0];
    expect(loop.name).toBe("loop");
    expect(loop.samples.map((s) => [s.label, s.answered, s.names])).toEqual([
      ["loop #1", 4, 1],
      ["loop #2", 4, 1],
    ]);
    // c1 (T): people {still, peaceful} {still, tranquil} {serene}; the model {still, serene}: 1/3, 1/3, 1/2.
    // h1 (T): {jumps→as typed, skip} {jump} {skip}; model {jump, hop}: 0, 1/2, 0. Pool: (1/3+1/3+1/2+0+1/2+0)/6.
    expect(loop.withPool.n).toBe(6);
    expect(loop.withPool.value).toBeCloseTo((1 / 3 + 1 / 3 + 1 / 2 + 0 + 1 / 2 + 0) / 6, 10);
    expect(loop.withPeople.map((p) => [p.annotator, p.pairs])).toEqual([
      ["ann", 2],
      ["bea", 2],
      ["cat", 2],
    ]);
    // The people's mode: c1 still (in the model's answer); h1 skip (not): 1 of 2.
    expect(loop.withMode).toEqual({ n: 2, value: 0.5 });
    expect(loop.samplesAgreement).toEqual({ n: 3, value: 1 });
    expect(loop.byPos.map((p) => p.pos).sort()).toEqual(["a", "v"]);
    // The hop answers break a rule kept as written: "hop" is the target word.
    expect(loop.samples[0].breaks.target).toBe(2);
  });
});
