/**
 * #27 finding 10 through the app's own entry points: jobs and derivations take
 * turns between projects, a job over its time or heap limit fails with a clear
 * message and leaves nothing, and one person's queued uploads have a cap. Jobs
 * are held and released by the test (a kind registered for it) and their starts
 * heard from the queue: nothing waits for time to pass.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { openDb } from "../../../db/client";
import { JOB_KINDS } from "../../../lib/server/jobs/jobs-kinds";
import { projectGold } from "../../../lib/server/gold/gold";
import { errorResponse } from "../../../lib/server/kernel/http";
import { QueueFullError } from "../../../lib/server/kernel/errors";
import { createProject } from "../../../lib/server/corpus/projects";
import { addMember } from "../../../lib/server/people/users";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { derive, deriveRuntime } from "../../../lib/server/jobs/derive-pool";
import { getJob, jobQueues, jobsIdle, resetJobRuntime, startJob } from "../../../lib/server/jobs/jobs";
import { holdUploadBytes } from "../../../lib/server/runtime/upload-quota";
import { actorFor, corpusCounts } from "../../support/db";
import { goldFixture } from "../../support/gold-fixture";
import { upload } from "../../support/jobs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-fair-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const dbFile = () => path.join(dir, `t${++n}.db`);

/** Jobs of kind "test-gate" wait until the test opens their gate (by job id). */
const gates = new Map<number, () => void>();
JOB_KINDS["test-gate"] = async (ctx) => {
  await new Promise<void>((resolve) => gates.set(ctx.job.id, resolve));
  return { opened: ctx.job.id };
};
/** Open job `id`'s gate once its kind has started waiting at it. */
async function open(id: number): Promise<void> {
  while (!gates.has(id)) await new Promise((r) => setImmediate(r));
  gates.get(id)!();
  gates.delete(id);
}

describe("jobs take turns between projects", () => {
  it("a job of another project runs before the rest of one project's queue", async () => {
    const f = goldFixture();
    const other = createProject(f.db, f.coord, { name: "other" });
    const started: number[] = [];
    const off = jobQueues().queue.onStart((s) => started.push(Number(s.label)));
    try {
      const a = [1, 2, 3].map(() => startJob(f.db, f.coord, f.project.id, "test-gate", {}).id);
      const b = startJob(f.db, f.coord, other.id, "test-gate", {}).id;
      expect(started).toEqual([a[0]]);
      await open(a[0]);
      await open(b);
      await open(a[1]);
      await open(a[2]);
      await jobsIdle();
      expect(started).toEqual([a[0], b, a[1], a[2]]);
      for (const id of [...a, b]) expect(getJob(f.db, f.coord, id).state).toBe("done");
    } finally {
      off();
    }
  });
});

describe("derivations take turns between projects", () => {
  it("another project's gold is derived while one project's derivation is held", async () => {
    const f = goldFixture(dbFile());
    const other = createProject(f.db, f.coord, { name: "other" });
    const rt = deriveRuntime();
    // Project A's turn is taken (as by a long ranking upload): the test holds it.
    let release!: () => void;
    const held = rt.queue.run(`${path.resolve(f.db.$client.name)}\u0000${f.project.id}`, "held", () => new Promise<void>((r) => (release = r)));
    let aDone = false;
    const a = derive(f.db, { op: "goldFile", actor: f.coord, projectId: f.project.id, file: "gold", foldCase: false }).then((r) => {
      aDone = true;
      return r;
    });
    const b = await derive(f.db, { op: "goldFile", actor: f.coord, projectId: other.id, file: "gold", foldCase: false });
    expect(b.text).toBe(projectGold(f.db, f.coord, other.id).gold);
    expect(aDone).toBe(false);
    release();
    await held;
    expect((await a).text).toBe(projectGold(f.db, f.coord, f.project.id).gold);
    f.db.$client.close();
  });

  it("every copy of the module shares one runtime (one derivation process per server process)", async () => {
    const first = deriveRuntime();
    vi.resetModules();
    const again = await import("../../../lib/server/jobs/derive-pool");
    expect(again.deriveRuntime()).toBe(first);
  });
});

describe("a job over its limits", () => {
  const saved = { ...process.env };
  afterEach(async () => {
    process.env.LEXGOLD_JOB_TIME_LIMIT_S = saved.LEXGOLD_JOB_TIME_LIMIT_S;
    process.env.LEXGOLD_JOB_HEAP_MB = saved.LEXGOLD_JOB_HEAP_MB;
    for (const k of ["LEXGOLD_JOB_TIME_LIMIT_S", "LEXGOLD_JOB_HEAP_MB"]) if (saved[k] === undefined) delete process.env[k];
    await resetJobRuntime();
  });

  /** A lexelt XML file of `lexelts` × `per` instances. */
  function corpus(lexelts: number, per: number): string {
    const out = ['<?xml version="1.0"?>', '<corpus lang="english">'];
    for (let l = 0; l < lexelts; l++) {
      out.push(`<lexelt item="word${l}.n">`);
      for (let i = 0; i < per; i++) out.push(`<instance id="w${l}-${i}"><context>some words before the <head>word${l}</head> and after it, to make the sentence longer</context></instance>`);
      out.push("</lexelt>");
    }
    out.push("</corpus>", "");
    return out.join("\n");
  }

  function fileProject() {
    const db = openDb(dbFile());
    const coord = actorFor(db, "coord", "coordinator");
    const project = createProject(db, coord, { name: "p" });
    return { db, coord, project };
  }

  it.each([
    ["time", { LEXGOLD_JOB_TIME_LIMIT_S: "0.05" }, /stopped after 0\.05 s, its time limit \(LEXGOLD_JOB_TIME_LIMIT_S\)/],
    ["heap", { LEXGOLD_JOB_HEAP_MB: "32" }, /needed more than 32 MB of memory, its limit \(LEXGOLD_JOB_HEAP_MB\)/],
  ])("over its %s, an import fails with the limit named, and nothing of it is left", async (_what, env, message) => {
    await resetJobRuntime();
    Object.assign(process.env, env);
    const { db, coord, project } = fileProject();
    const file = upload(corpus(200, 300));
    const job = startJob(db, coord, project.id, "lexelt-xml", { path: file, fileName: "big.xml", maxBytes: 1e9 });
    await jobsIdle();
    const failed = getJob(db, coord, job.id);
    expect(failed.state).toBe("failed");
    expect(failed.message).toMatch(message);
    expect(failed.message).toMatch(/nothing it would have written was kept/);
    expect(corpusCounts(db)).toEqual({ lexelts: 0, instances: 0, imports: 0 });
    expect(db.$client.prepare("select count(*) as n from projects where staging_for is not null").get()).toEqual({ n: 0 });
    expect(db.$client.prepare("select count(*) as n from instances").get()).toEqual({ n: 0 });
    expect(fs.existsSync(file)).toBe(false);
    db.$client.close();
  });
});

describe("the cap on one person's queued uploads", () => {
  const saved = process.env.LEXGOLD_MAX_QUEUED_UPLOAD_MB;
  afterEach(() => {
    if (saved === undefined) delete process.env.LEXGOLD_MAX_QUEUED_UPLOAD_MB;
    else process.env.LEXGOLD_MAX_QUEUED_UPLOAD_MB = saved;
  });

  it("refuses an upload past the cap with a clear 429, counts only that person's, and has room again once one has run", async () => {
    process.env.LEXGOLD_MAX_QUEUED_UPLOAD_MB = "1";
    const f = goldFixture();
    const kb400 = () => upload(new Uint8Array(400 * 1024));
    const first = startJob(f.db, f.coord, f.project.id, "test-gate", { path: kb400() }).id;
    const second = startJob(f.db, f.coord, f.project.id, "test-gate", { path: kb400() }).id;
    const third = kb400();
    let refusal: unknown = null;
    try {
      startJob(f.db, f.coord, f.project.id, "test-gate", { path: third });
    } catch (e) {
      refusal = e;
    }
    expect(refusal).toBeInstanceOf(QueueFullError);
    expect((refusal as Error).message).toMatch(/^You have 0\.8 MB of uploads waiting to be processed; with this 0\.4 MB one that is over the limit of 1\.0 MB per person\./);
    const res = errorResponse(refusal);
    expect(res.status).toBe(429);
    expect(res.headers.get("Retry-After")).toBe("60");
    expect(((await res.json()) as { message: string }).message).toBe((refusal as Error).message);
    // Nothing was recorded for the refused upload.
    expect(f.db.$client.prepare("select count(*) as n from jobs").get()).toEqual({ n: 2 });
    // Another coordinator of the project has their own room; the CLI (the system) is never refused.
    const other = actorFor(f.db, "other-coord", "coordinator");
    addMember(f.db, f.coord, f.project.id, "other-coord");
    const theirs = startJob(f.db, other, f.project.id, "test-gate", { path: kb400() }).id;
    const system = startJob(f.db, SYSTEM, f.project.id, "test-gate", { path: kb400() }).id;
    // An upload a derivation holds counts too.
    await open(first);
    await open(second);
    await open(theirs);
    await open(system);
    await jobsIdle();
    const release = holdUploadBytes(f.db, f.coord, 700 * 1024);
    expect(() => startJob(f.db, f.coord, f.project.id, "test-gate", { path: third })).toThrow(QueueFullError);
    release();
    const again = startJob(f.db, f.coord, f.project.id, "test-gate", { path: third }).id;
    await open(again);
    await jobsIdle();
    expect(getJob(f.db, f.coord, again).state).toBe("done");
  });
});
