/**
 * Stored runs kept item by item (#39) and stored a slice at a time (#38 findings 5 and 7):
 *   - a run's file is kept in pieces, never one row; its ids with their first lines and outcomes;
 *     the board added up from them equals the run scored whole, and follows the gold as it changes;
 *   - a run stored by the jobs worker while an annotator saves on the server's connection is stored,
 *     and every save is answered (no "database is locked" either way);
 *   - an upload named as the job's `path` and in its `paths` is counted once against its user's room.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inputFiles } from "../../../lib/server/jobs/jobs-run";
import { getJob, jobsIdle, startJob } from "../../../lib/server/jobs/jobs";
import { saveResponse, saveResponseAsync } from "../../../lib/server/annotate/responses";
import { setExclusion } from "../../../lib/server/gold/gold";
import { deleteRunInSlices, listRuns, runFileDownload, uploadRun } from "../../../lib/server/scoring/runs";
import { keptScoreBoard } from "../../../lib/server/scoring/board";
import { scoreBoard } from "../../../lib/server/scoring/scores";
import { SLICE_LINES, runsWithoutItems, writeItemsOfStoredRun } from "../../../lib/server/scoring/run-store";
import { goldFixture } from "../../support/gold-fixture";
import { upload } from "../../support/jobs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-runstore-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const dbFile = () => path.join(dir, `t${++n}.db`);

/** A best file answering the fixture's instances, then `extra` lines for ids the project does not hold (some repeated). */
function bigRun(extra: number): string {
  const lines = ["calm.a c1 :: still;quiet", "calm.a c2 :: serene", "hop.v h1 :: jump;skip", "hop.v h2 :: board"];
  for (let k = 0; k < extra; k++) lines.push(`x.n z${k % Math.floor(extra * 0.9)} :: word${k % 7}`);
  return lines.join("\n") + "\n";
}

const count = (f: ReturnType<typeof goldFixture>, sql: string, ...args: unknown[]) => (f.db.$client.prepare(sql).get(...args) as { n: number }).n;

describe("a stored run, kept item by item", () => {
  it("keeps its file in pieces, one row per id with its first line, and the board of the whole run", () => {
    const f = goldFixture(undefined, { acceptProposals: true });
    const text = bigRun(3 * SLICE_LINES + 17);
    const { run } = uploadRun(f.db, f.coord, f.project.id, { fileName: "big.best", text });
    expect(f.db.$client.prepare("select content from system_runs where id = ?").pluck().get(run.id)).toBe("");
    expect(count(f, "select count(*) as n from run_texts where run_id = ?", run.id)).toBeGreaterThan(0);
    expect([...runFileDownload(f.db, f.coord, f.project.id, run.id).pieces].join("")).toBe(text);
    // Every distinct id once, its later lines counted.
    const ids = new Set(text.trim().split("\n").map((l) => l.split(" ")[1]));
    expect(count(f, "select count(*) as n from run_items where run_id = ?", run.id)).toBe(ids.size);
    expect(count(f, "select sum(lines) as n from run_items where run_id = ?", run.id)).toBe(text.trim().split("\n").length);
    const kept = keptScoreBoard(f.db, f.coord, f.project.id, { kind: "project" })!;
    const whole = scoreBoard(f.db, f.coord, f.project.id, { kind: "project" });
    expect(kept.runs.map((r) => [r.figures, r.byPos, r.errors, r.warnings, r.skipped])).toEqual(whole.runs.map((r) => [r.figures, r.byPos, r.errors, r.warnings, r.skipped]));
    // The gold changes (an instance excluded, an answer saved): its id is scored again, the board follows.
    setExclusion(f.db, f.coord, f.project.id, "c1", "test");
    saveResponse(f.db, f.ann, f.project.id, f.db.$client.prepare("select id from instances where instance_id = 'h2'").pluck().get() as number, { kind: "substitutes", substitutes: ["board"], multiword: false }, { expectedRevision: 1 });
    const after = keptScoreBoard(f.db, f.coord, f.project.id, { kind: "project" })!;
    expect(after.runs[0].figures).not.toEqual(kept.runs[0].figures);
    expect(after.runs[0].figures).toEqual(scoreBoard(f.db, f.coord, f.project.id, { kind: "project" }).runs[0].figures);
  });

  it("is deleted a slice at a time, out of the lists at once", async () => {
    const f = goldFixture();
    const { run } = uploadRun(f.db, f.coord, f.project.id, { fileName: "big.best", text: bigRun(SLICE_LINES) });
    expect(await deleteRunInSlices(f.db, f.coord, f.project.id, run.id)).toBe("big");
    expect(listRuns(f.db, f.coord, f.project.id)).toEqual([]);
    for (const t of ["run_items", "run_outcomes", "run_texts"]) expect(count(f, `select count(*) as n from ${t}`)).toBe(0);
  });
});

describe("a run stored before #39 (its file whole in system_runs.content, no items)", () => {
  it("is left to whole scoring until the applier writes its items, then is added up like any", () => {
    const f = goldFixture(undefined, { acceptProposals: true });
    const text = bigRun(50);
    f.db.$client
      .prepare("insert into system_runs (project_id, name, type, file_name, content, bytes, reading) values (?, 'old', 'best', 'old.best', ?, ?, null)")
      .run(f.project.id, text, Buffer.byteLength(text));
    // Without items the kept outcomes cannot give the board: it is scored whole.
    expect(keptScoreBoard(f.db, f.coord, f.project.id, { kind: "project" })).toBeNull();
    expect(runsWithoutItems(f.db)).toHaveLength(1);
    writeItemsOfStoredRun(f.db, runsWithoutItems(f.db)[0]);
    expect(runsWithoutItems(f.db)).toEqual([]);
    const kept = keptScoreBoard(f.db, f.coord, f.project.id, { kind: "project" })!;
    const { others: _o, ...withoutOthers } = kept;
    expect(withoutOthers.runs.map((r) => r.figures)).toEqual(scoreBoard(f.db, f.coord, f.project.id, { kind: "project" }).runs.map((r) => r.figures));
    expect([...runFileDownload(f.db, f.coord, f.project.id, kept.runs[0].run.id).pieces].join("")).toBe(text);
  });
});

describe("a run stored while an annotator saves (#38 finding 5)", () => {
  it("is stored by the jobs worker in slices, and every save on the server's connection is answered", async () => {
    const f = goldFixture(dbFile());
    const ref = f.db.$client.prepare("select id from instances where instance_id = 'h2'").pluck().get() as number;
    const text = bigRun(25 * SLICE_LINES);
    const job = startJob(f.db, f.coord, f.project.id, "scoring-run", { path: upload(text), fileName: "big.best", type: "", name: "", gold: "" });
    let revision = 1;
    let saves = 0;
    let stored = false;
    const idle = jobsIdle().then(() => (stored = true));
    // An annotator saving the whole time the run is stored.
    while (!stored) {
      // As requests come: each save a turn of the event loop of its own.
      await new Promise((r) => setTimeout(r, 2));
      const r = await saveResponseAsync(f.db, f.ann, f.project.id, ref, { kind: "substitutes", substitutes: [saves % 2 ? "board" : "ride"], multiword: false }, { expectedRevision: revision });
      revision = r.revision;
      saves++;
    }
    await idle;
    const done = getJob(f.db, f.coord, job.id);
    expect(done.state).toBe("done");
    // Saves went on while the run was stored (its slices interleaved with them).
    expect(saves).toBeGreaterThan(10);
    expect(revision).toBe(saves + 1);
    // Stored in slices: many transactions, the file in pieces, and the board equal to the run scored whole.
    expect(count(f, "select count(*) as n from run_texts")).toBeGreaterThan(1);
    const kept = keptScoreBoard(f.db, f.coord, f.project.id, { kind: "project" })!;
    expect(kept.runs[0].figures).toEqual(scoreBoard(f.db, f.coord, f.project.id, { kind: "project" }).runs[0].figures);
    f.db.$client.close();
  });
});

describe("an upload named twice in a job's input (#38 finding 7)", () => {
  it("is one file: deleted once and counted once against its user's room", () => {
    expect(inputFiles({ path: "/tmp/a", paths: ["/tmp/a", "/tmp/b"] })).toEqual(["/tmp/a", "/tmp/b"]);
    const f = goldFixture();
    const file = upload("calm.a c1 :: still\n");
    const job = startJob(f.db, f.coord, f.project.id, "scoring-run", { path: file, paths: [file], fileName: "s.best", type: "", name: "", gold: "" });
    const input = JSON.parse(f.db.$client.prepare("select input from jobs where id = ?").pluck().get(job.id) as string) as { uploadBytes: number };
    expect(input.uploadBytes).toBe(fs.statSync(file).size);
  });
});
