/**
 * Scoring uploads as jobs (lib/server/jobs/jobs-kinds.ts "scoring-run" and "scoring-gold",
 * issue #14): a system file stored as a run, and gold / mwgold files stored for
 * scoring, are decoded, read and written by the jobs worker thread on its own
 * connection — the same run, figures and refusals as uploadRun / storeGold on the
 * request thread — and the uploads are deleted when the job ends. They run in a
 * lane of their own beside the imports', so nobody waits for an import to store a run.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getJob, jobsIdle, QUICK_JOB_KINDS, startJob, waitForJob } from "../../../lib/server/jobs/jobs";
import { JOB_KINDS } from "../../../lib/server/jobs/jobs-kinds";
import { projectGold } from "../../../lib/server/gold/gold";
import { listGolds, storeGold } from "../../../lib/server/scoring/golds";
import { listRuns, readRunUpload, uploadRun } from "../../../lib/server/scoring/runs";
import { goldFixture } from "../../support/gold-fixture";
import { run, upload } from "../../support/jobs";
import { until } from "../../support/wait";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-sjob-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const dbFile = () => path.join(dir, `t${++n}.db`);

/** A best file of the fixture's first gold line (its first substitute) and a line in no format. */
function systemFile(f: ReturnType<typeof goldFixture>): string {
  const first = projectGold(f.db, f.coord, f.project.id).gold.trim().split("\n")[0].replace(/ :: (\S+?) \d+;.*/, " :: $1");
  return `${first}\nnot a line of the format — naïve\n`;
}

describe("a system file stored as a run by the jobs worker", () => {
  it("stores the run uploadRun stores, read the same way, once confirmed (it has an error), and deletes the upload", async () => {
    const f = goldFixture(dbFile());
    const text = systemFile(f);
    // Not confirmed: refused with the error located and the field that asks; nothing stored, the upload deleted.
    const first = upload(text);
    const asked = await run(f, "scoring-run", { path: first, fileName: "sys.out", type: "", name: "", gold: "" });
    expect(asked.state).toBe("failed");
    expect(asked.message).toMatch(/^sys\.out: 1 line is not in the best format and would be skipped \(the first: line 2\)/);
    expect(asked.report).toMatchObject({ errors: { confirm: "1 error: store anyway?" } });
    expect((asked.report as { details: string[] }).details).toEqual([expect.stringMatching(/^sys\.out:2: error: not a best line/)]);
    expect(listRuns(f.db, f.coord, f.project.id)).toEqual([]);
    expect(fs.existsSync(first)).toBe(false);
    const file = upload(text);
    const job = await run(f, "scoring-run", { path: file, fileName: "sys.out", type: "", name: "", gold: "", confirm: true });
    expect(job.state).toBe("done");
    const report = job.report as ReturnType<typeof uploadRun>;
    const reading = readRunUpload("sys.out", text, "");
    expect(report.typeFrom).toBe("content");
    expect(report.lines).toEqual({ read: 2, matched: 1, refused: 1 });
    expect(report.diagnostics).toEqual(JSON.parse(JSON.stringify(reading.diagnostics)));
    expect(fs.existsSync(file)).toBe(false);
    // The same as storing it here, under another name.
    const here = uploadRun(f.db, f.coord, f.project.id, { fileName: "sys.out", text, name: "again", confirm: true });
    expect({ ...report, run: null }).toEqual(JSON.parse(JSON.stringify({ ...here, run: null })));
    const runs = listRuns(f.db, f.coord, f.project.id);
    expect(runs.map((r) => [r.name, r.type, r.bytes, r.createdBy])).toEqual([
      ["sys.out", "best", Buffer.byteLength(text), "coord"],
      ["again", "best", Buffer.byteLength(text), "coord"],
    ]);
    f.db.$client.close();
  });

  it("refuses, storing nothing, a file with no line in the format, one not UTF-8, and a taken name, marking the field", async () => {
    const f = goldFixture(dbFile());
    const none = await run(f, "scoring-run", { path: upload("nothing here\n"), fileName: "bad.best", type: "", name: "", gold: "" });
    expect([none.state, none.message]).toEqual(["failed", "bad.best: no line is in the best format (lexelt id :: guess;guess); nothing was saved."]);
    expect(none.report).toMatchObject({ errors: { file: "No line in the best format." } });
    expect((none.report as { details: string[] }).details[0]).toMatch(/^bad\.best:1: /);
    const binary = await run(f, "scoring-run", { path: upload(new Uint8Array([0xff, 0xfe, 0x41])), fileName: "bin.best", type: "", name: "", gold: "" });
    expect([binary.state, binary.message]).toEqual(["failed", "bin.best:1: not UTF-8 text; nothing was saved."]);
    expect(listRuns(f.db, f.coord, f.project.id)).toEqual([]);
    const text = systemFile(f);
    expect((await run(f, "scoring-run", { path: upload(text), fileName: "s.best", type: "", name: "mine", gold: "", confirm: true })).state).toBe("done");
    const taken = await run(f, "scoring-run", { path: upload(text), fileName: "s.best", type: "", name: "mine", gold: "", confirm: true });
    expect(taken.state).toBe("failed");
    expect(taken.report).toMatchObject({ errors: { name: "Name taken." } });
    expect(listRuns(f.db, f.coord, f.project.id)).toHaveLength(1);
    f.db.$client.close();
  });
});

describe("the quick lane in worker threads", () => {
  it("stores a run uploaded during a large import at once, while the import goes on", async () => {
    const f = goldFixture(dbFile());
    const xml = ['<?xml version="1.0"?>', '<corpus lang="english">'];
    for (let l = 0; l < 150; l++) {
      xml.push(`<lexelt item="big${l}.n">`);
      for (let i = 0; i < 400; i++) xml.push(`<instance id="b${l}-${i}"><context>words before the <head>big${l}</head> and after it</context></instance>`);
      xml.push("</lexelt>");
    }
    xml.push("</corpus>", "");
    const imported = startJob(f.db, f.coord, f.project.id, "lexelt-xml", { path: upload(xml.join("\n")), fileName: "big.xml", maxBytes: 1e9 });
    await until(() => getJob(f.db, f.coord, imported.id).state !== "queued", "the import to start");
    const stored = startJob(f.db, f.coord, f.project.id, "scoring-run", { path: upload(systemFile(f)), fileName: "s.best", type: "", name: "", gold: "", confirm: true });
    expect((await waitForJob(f.db, f.coord, stored.id)).state).toBe("done");
    expect(getJob(f.db, f.coord, imported.id).state).toBe("running");
    await jobsIdle();
    expect(getJob(f.db, f.coord, imported.id)).toMatchObject({ state: "done", done: 60_000 });
    f.db.$client.close();
    // 60,000 instances imported: minutes on a busy machine, never a failure.
  }, 600_000);
});

describe("gold files stored for scoring by the jobs worker", () => {
  it("stores what storeGold stores, refuses a gold with errors, and deletes every upload", async () => {
    const f = goldFixture(dbFile());
    const { gold, mwgold } = projectGold(f.db, f.coord, f.project.id);
    const g = upload(gold);
    const mw = upload(mwgold);
    const job = await run(f, "scoring-gold", { name: "mine", gold: { path: g, fileName: "t.gold" }, mwgold: { path: mw, fileName: "t.mwgold" }, paths: [g, mw] });
    expect(job.state).toBe("done");
    const stored = listGolds(f.db, f.coord, f.project.id).find((x) => x.id === (job.report as { id: number }).id)!;
    const here = storeGold(f.db, f.coord, f.project.id, { name: "here", gold: { name: "t.gold", text: gold }, mwgold: { name: "t.mwgold", text: mwgold } });
    const shown = (x: typeof stored) => [x.name, x.label, x.goldName, x.mwgoldName, x.createdBy, x.runs];
    expect(shown(stored)).toEqual(["mine", "mine (t.gold and t.mwgold)", "t.gold", "t.mwgold", "coord", 0]);
    expect(shown(here).slice(2)).toEqual(shown(stored).slice(2));
    const texts = f.db.$client.prepare("select gold_text as g, mwgold_text as mw from scoring_golds order by id").all();
    expect(texts).toEqual([{ g: gold, mw: mwgold }, { g: gold, mw: mwgold }]);
    expect([fs.existsSync(g), fs.existsSync(mw)]).toEqual([false, false]);
    const bad = upload("x.n 1 :: a 2;\nx.n 1 :: b 2;\n");
    const refused = await run(f, "scoring-gold", { name: "bad", gold: { path: bad, fileName: "g.gold" }, mwgold: null, paths: [bad] });
    expect([refused.state, refused.message]).toEqual(["failed", "g.gold: the gold file has errors; nothing was stored."]);
    expect(refused.report).toMatchObject({ errors: { gold: "This file has errors." } });
    const neither = await run(f, "scoring-gold", { name: "", gold: null, mwgold: null, paths: [] });
    expect(neither.message).toBe("Upload a gold file, an mwgold file or both.");
    expect(f.db.$client.prepare("select name from scoring_golds order by id").all()).toEqual([{ name: "mine" }, { name: "here" }]);
    f.db.$client.close();
  });
});

describe("the quick lane", () => {
  it("stores an uploaded run while another job holds the only lane; a second long job still waits its turn", async () => {
    expect([...QUICK_JOB_KINDS].sort()).toEqual(["scoring-gold", "scoring-run"]);
    // In memory, jobs run on this thread, so a kind registered here is the one that runs: it holds its lane until released.
    const f = goldFixture();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    JOB_KINDS["test-hold"] = async () => {
      await held;
      return { held: true };
    };
    try {
      const long = startJob(f.db, f.coord, f.project.id, "test-hold", {});
      const next = startJob(f.db, f.coord, f.project.id, "test-hold", {});
      const stored = startJob(f.db, f.coord, f.project.id, "scoring-run", { path: upload(systemFile(f)), fileName: "s.best", type: "", name: "", gold: "", confirm: true });
      const done = await waitForJob(f.db, f.coord, stored.id);
      expect(done.state).toBe("done");
      expect([getJob(f.db, f.coord, long.id).state, getJob(f.db, f.coord, next.id).state]).toEqual(["running", "queued"]);
      expect(listRuns(f.db, f.coord, f.project.id).map((r) => r.name)).toEqual(["s"]);
      release();
      await jobsIdle();
      expect([getJob(f.db, f.coord, long.id).state, getJob(f.db, f.coord, next.id).state]).toEqual(["done", "done"]);
    } finally {
      release();
      delete JOB_KINDS["test-hold"];
    }
  });
});
