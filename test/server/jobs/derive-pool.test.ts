/**
 * lib/server/jobs/derive-pool.ts and derive-jobs.ts (issue #14): gold, mwgold and
 * agreement derived on a worker thread with its own read-only connection equal
 * what the request thread derives; results are cached under the project's data
 * version, which every save, import and review decision raises in its own
 * transaction; the Agreement page gets one page of lexelt rows.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { agreementPageData, agreementPageView, LEXELT_PAGE_SIZE } from "../../../lib/server/gold/agreement";
import { dataVersion } from "../../../lib/server/kernel/data-version";
import { AGREEMENT_OPTIONS, alphaOf, alphaSnapshot } from "../../../lib/server/derived/agreement";
import { derive, deriveDownload, deriveRuntime, deriveWithin, derivesHere, derivesOnWorker, refreshAgreementAlpha, resetDeriveRuntime } from "../../../lib/server/jobs/derive-pool";
import { exportDataset, importDataset } from "../../../lib/server/datasets/datasets";
import { runDeriveJob } from "../../../lib/server/jobs/derive-jobs";
import { AuthError, NotFoundError } from "../../../lib/server/kernel/errors";
import { deriveProjectGold, goldInputs, keepDerivationInputs, projectGold, setExclusion } from "../../../lib/server/gold/gold";
import { exportAdjudicatedResponses } from "../../../lib/server/gold/gold-review";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { importResponses, projectResponseRecords } from "../../../lib/server/annotate/response-import";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { deleteRun, uploadRun } from "../../../lib/server/scoring/runs";
import { runDetail, runReport, scoreBoard } from "../../../lib/server/scoring/scores";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture } from "../../support/db";
import { goldFixture } from "../../support/gold-fixture";
import { until } from "../../support/wait";
import { recordStatements } from "../../support/statements";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-derive-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const dbFile = () => path.join(dir, `t${++n}.db`);

/** The same value once through structured clone (what a worker's answer goes through). */
const cloned = <T,>(v: T): T => structuredClone(v);

describe("the data version", () => {
  it("rises in the transaction of a save, an import and a review decision, and only for that project", () => {
    const { db, coord, project } = goldFixture();
    const other = projectFixture();
    const v0 = dataVersion(db, project.id);
    expect(v0).toBeGreaterThan(0);
    importResponses(db, coord, project.id, { fileName: "fix.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\ncat\tcalm.a\tc1\tstill\t\n" });
    const v1 = dataVersion(db, project.id);
    expect(v1).toBeGreaterThan(v0);
    setExclusion(db, coord, project.id, "c2", "a hotel's name");
    const v2 = dataVersion(db, project.id);
    expect(v2).toBeGreaterThan(v1);
    expect(dataVersion(other.db, other.project.id)).toBe(0);
  });

  it("rises with an annotator's save in the workspace", () => {
    const { db, coord, project } = goldFixture();
    const ann = actorFor(db, "dan", "annotator");
    addMember(db, coord, project.id, "dan");
    const ref = (db.$client.prepare("select id from instances where instance_id = 'h2'").get() as { id: number }).id;
    const before = dataVersion(db, project.id);
    saveResponse(db, ann, project.id, ref, { kind: "substitutes", substitutes: ["ride"], multiword: false }, { expectedRevision: 0 });
    expect(dataVersion(db, project.id)).toBeGreaterThan(before);
  });

  it("a refused import raises nothing", () => {
    const { db, coord, project } = goldFixture();
    const before = dataVersion(db, project.id);
    expect(() => importResponses(db, coord, project.id, { fileName: "bad.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nnobody\tcalm.a\tc1\tstill\t\n" })).toThrow();
    expect(dataVersion(db, project.id)).toBe(before);
  });
});

describe("goldInputs", () => {
  it("streams the same responses, in the same order, as projectResponseRecords", () => {
    const { db, coord, project } = goldFixture();
    importResponses(db, coord, project.id, { fileName: "more.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nbea\thop.v\th2\tride;catch\thop on\n" });
    const inputs = goldInputs(db, coord, project.id);
    expect(inputs.responses.length).toBe(11);
    expect(inputs.responses).toEqual(projectResponseRecords(db, project.id));
  });
});

describe("the worker's kept inputs", () => {
  it("are reused while the data version holds and read again after a save, with the same gold", () => {
    const { db, coord, project } = goldFixture();
    const fresh = projectGold(db, coord, project.id).gold;
    keepDerivationInputs(true);
    try {
      const a = goldInputs(db, coord, project.id);
      const b = goldInputs(db, coord, project.id);
      expect(b.responses).toBe(a.responses);
      expect(deriveProjectGold(b)).toBe(deriveProjectGold(a));
      expect(projectGold(db, coord, project.id).gold).toBe(fresh);
      importResponses(db, coord, project.id, { fileName: "fix.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\ncat\tcalm.a\tc1\tstill\t\n" });
      const c = goldInputs(db, coord, project.id);
      expect(c.responses).not.toBe(a.responses);
      const kept = projectGold(db, coord, project.id).gold;
      expect(kept).not.toBe(fresh);
      keepDerivationInputs(false);
      expect(projectGold(db, coord, project.id).gold).toBe(kept);
    } finally {
      keepDerivationInputs(false);
    }
  });
});

describe("derive on the worker", () => {
  it("runs on a worker for a file database, in-process for one in memory", () => {
    const f = goldFixture(dbFile());
    expect(derivesOnWorker(f.db)).toBe(true);
    expect(derivesOnWorker(goldFixture().db)).toBe(false);
    f.db.$client.close();
  });

  it("gives what the request thread derives: gold, mwgold, α and the intervals, the Agreement page's downloads", async () => {
    const { db, coord, project } = goldFixture(dbFile());
    const g = projectGold(db, coord, project.id);
    expect((await derive(db, { op: "goldFile", actor: coord, projectId: project.id, file: "gold", foldCase: false })).text).toBe(g.gold);
    expect((await derive(db, { op: "goldFile", actor: coord, projectId: project.id, file: "mwgold", foldCase: false })).text).toBe(g.mwgold);
    expect((await derive(db, { op: "goldFile", actor: coord, projectId: project.id, file: "gold", foldCase: true })).text).toBe(
      projectGold(db, coord, project.id, { foldCase: true }).gold,
    );
    // With the open proposals applied (jumps → jump): another file, the same as the request thread's.
    const proposed = projectGold(db, coord, project.id, { applyProposals: true }).gold;
    expect(proposed).not.toBe(g.gold);
    expect((await derive(db, { op: "goldFile", actor: coord, projectId: project.id, file: "gold", foldCase: false, applyProposals: true })).text).toBe(proposed);
    // α and the intervals computed in the derivation process, kept, equal those computed here.
    await refreshAgreementAlpha(db, coord, project.id);
    const kept = alphaSnapshot(db, project.id)!;
    expect(kept.stale).toBe(false);
    expect(kept.body).toEqual(cloned(alphaOf(db, project.id, AGREEMENT_OPTIONS)));
    const file = await derive(db, { op: "agreementDownload", actor: coord, projectId: project.id, query: { format: "csv", table: "items" } });
    expect(file.body).toBe(runDeriveJob(db, { op: "agreementDownload", actor: coord, projectId: project.id, query: { format: "csv", table: "items" } }).body);
    expect((await derive(db, { op: "responsesFile", actor: coord, projectId: project.id })).text).toBe(exportAdjudicatedResponses(db, coord, project.id));
    db.$client.close();
  });

  it("keeps the errors' classes and checks who asks", async () => {
    const { db, project, ann } = goldFixture(dbFile());
    await expect(derive(db, { op: "goldFile", actor: ann, projectId: project.id, file: "gold", foldCase: false })).rejects.toBeInstanceOf(AuthError);
    await expect(derive(db, { op: "goldFile", actor: null, projectId: project.id, file: "gold", foldCase: false })).rejects.toBeInstanceOf(AuthError);
    const coord = actorFor(db, "other-coord", "coordinator");
    await expect(derive(db, { op: "agreementDownload", actor: coord, projectId: project.id, query: {} })).rejects.toBeInstanceOf(NotFoundError);
    await expect(refreshAgreementAlpha(db, coord, project.id)).rejects.toBeInstanceOf(NotFoundError);
    db.$client.close();
  });

  it("serves the cache until a save, then the new figures (in the worker)", async () => {
    // jumps accepted as jump, as agreement-page.test.ts works the figures out.
    const { db, coord, project } = goldFixture(dbFile(), { acceptProposals: true });
    const job = { op: "agreementDownload", actor: coord, projectId: project.id, query: { format: "json" } } as const;
    const pairwise = async () => (JSON.parse((await derive(db, job)).body) as { pairwise: number }).pairwise;
    expect(await pairwise()).toBeCloseTo(2 / 9, 12);
    // cat now agrees with ann on c1 (see agreement-page.test.ts for the figures by hand): the kept figures follow the import.
    importResponses(db, coord, project.id, { fileName: "fix.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\ncat\tcalm.a\tc1\tstill\t\n" });
    expect(await pairwise()).toBeCloseTo((1 / 3 + 1 / 2 + 1 / 2 + 1 / 2 + 1 / 2 + 0) / 6, 12);
    const goldJob = { op: "goldFile", actor: coord, projectId: project.id, file: "gold", foldCase: false } as const;
    const before = (await derive(db, goldJob)).text;
    setExclusion(db, coord, project.id, "c1", "test");
    const after = (await derive(db, goldJob)).text;
    expect(before).toContain(" c1 ");
    expect(after).not.toContain(" c1 ");
    expect(after).toBe(projectGold(db, coord, project.id).gold);
    db.$client.close();
  });
});

describe("the Datasets page's downloads in the derivation process (#29)", () => {
  it("are derived there, equal to what the request thread writes, with the report from the same cached file", async () => {
    const { db, coord, project } = goldFixture(dbFile());
    importDataset(db, coord, project.id, { format: "coinco", fileName: "coinco-small.xml", bytes: fs.readFileSync(path.resolve(__dirname, "../../../samples/datasets/coinco-small.xml")) });
    const run = vi.spyOn(deriveRuntime().pool, "run");
    const text = async (body: ReadableStream<Uint8Array>) => new TextDecoder().decode(new Uint8Array(await new Response(body).arrayBuffer()));
    try {
      for (const format of ["coinco", "swords", "tsar"] as const) {
        const here = exportDataset(db, coord, project.id, format);
        const file = await deriveDownload(db, { op: "datasetFile", actor: coord, projectId: project.id, format, goldOnly: false }, "text");
        expect(await text(file.body)).toBe(here.text);
        expect(file.value).toMatchObject({ format, written: here.written, lost: here.lost, fileName: here.fileName, contentType: here.contentType });
        const report = await derive(db, { op: "datasetReport", actor: coord, projectId: project.id, format, goldOnly: false });
        expect(report).toEqual(cloned({ format, written: here.written, lost: here.lost, fileName: here.fileName, contentType: here.contentType }));
      }
      // Each went to the derivation process, none was written on this thread.
      const ops = run.mock.calls.map(([task]) => (task as { job: { op: string; format: string } }).job).map((j) => `${j.op} ${j.format}`);
      expect(ops).toEqual(["coinco", "swords", "tsar"].flatMap((f) => [`datasetFile ${f}`, `datasetReport ${f}`]));
    } finally {
      run.mockRestore();
    }
    // A change to the data is in the next download (the cache is keyed by the data version).
    setExclusion(db, coord, project.id, "903", "test");
    const after = await derive(db, { op: "datasetFile", actor: coord, projectId: project.id, format: "tsar", goldOnly: false });
    expect(after.text).toBe(exportDataset(db, coord, project.id, "tsar").text);
    expect(after.lost).toContain("1 excluded instance was left out");
    await expect(derive(db, { op: "datasetReport", actor: null, projectId: project.id, format: "tsar", goldOnly: false })).rejects.toBeInstanceOf(AuthError);
    db.$client.close();
  });
});

describe("the Scoring board in the derivation process", () => {
  it("equals the board scored here, and is recomputed when a run is stored or deleted, or the data change", async () => {
    const { db, coord, project } = goldFixture(dbFile());
    const job = { op: "scoreBoard", actor: coord, projectId: project.id, source: { kind: "project" }, mode: {} } as const;
    const empty = await derive(db, job);
    expect(empty.runs).toEqual([]);
    const gold = projectGold(db, coord, project.id).gold;
    const first = gold.trim().split("\n")[0].replace(/ :: (\S+?) \d+;.*/, " :: $1");
    const run = uploadRun(db, coord, project.id, { fileName: "one.best", text: first + "\n" }).run;
    const withRun = await derive(db, job);
    expect(withRun).toEqual(cloned(scoreBoard(db, coord, project.id, { kind: "project" })));
    expect(withRun.runs.map((r) => r.run.name)).toEqual(["one"]);
    expect(withRun.runs[0].figures).not.toBeNull();
    // A change to the data moves the figures (the first item leaves the gold).
    setExclusion(db, coord, project.id, first.split(" ")[1], "test");
    const after = await derive(db, job);
    expect(after).toEqual(cloned(scoreBoard(db, coord, project.id, { kind: "project" })));
    expect(after.runs[0].figures).not.toEqual(withRun.runs[0].figures);
    deleteRun(db, coord, project.id, run.id);
    expect((await derive(db, job)).runs).toEqual([]);
    db.$client.close();
  });
});

describe("run details in the derivation process", () => {
  it("gives a run's detail and report as the request thread does, and checks who asks", async () => {
    const { db, coord, ann, project } = goldFixture(dbFile());
    const gold = projectGold(db, coord, project.id).gold;
    const lines = gold.trim().split("\n").map((l) => l.replace(/ :: (\S+?) \d+;.*/, " :: $1"));
    const run = uploadRun(db, coord, project.id, { fileName: "all.best", text: lines.join("\n") + "\n" }).run;
    const detail = await derive(db, { op: "runDetail", actor: coord, projectId: project.id, runId: run.id, mode: {} });
    expect(JSON.parse(detail.text)).toEqual(JSON.parse(JSON.stringify({ ok: true, detail: runDetail(db, coord, project.id, run.id) })));
    const report = await derive(db, { op: "runReport", actor: coord, projectId: project.id, runId: run.id, verbose: true, mode: { repaired: true } });
    expect(report).toEqual(cloned(runReport(db, coord, project.id, run.id, true, { repaired: true })));
    expect(report.text).toMatch(/precision = /);
    await expect(derive(db, { op: "runDetail", actor: ann, projectId: project.id, runId: run.id, mode: {} })).rejects.toBeInstanceOf(AuthError);
    await expect(derive(db, { op: "runReport", actor: coord, projectId: project.id, runId: run.id + 99, verbose: false, mode: {} })).rejects.toBeInstanceOf(NotFoundError);
    db.$client.close();
  });
});

describe("large answers from the derivation process", () => {
  it("come back through a temporary file, equal, and the file is deleted", async () => {
    const before = process.env.LEXGOLD_DERIVE_SPILL_CHARS;
    // Every text over 64 characters goes through a file (the worker reads the threshold when it starts).
    process.env.LEXGOLD_DERIVE_SPILL_CHARS = "64";
    // One derivation process serves every database: start a new one that reads the threshold.
    await resetDeriveRuntime();
    try {
      const { db, coord, project } = goldFixture(dbFile());
      const g = projectGold(db, coord, project.id);
      expect(g.gold.length).toBeGreaterThan(64);
      const spilled = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith("lexgold-derive-"));
      const already = new Set(spilled());
      const unlink = vi.spyOn(fs.promises, "unlink");
      expect((await derive(db, { op: "goldFile", actor: coord, projectId: project.id, file: "gold", foldCase: false })).text).toBe(g.gold);
      // It came through a file (read back, then deleted).
      expect(unlink.mock.calls.some(([f]) => /lexgold-derive-\d+-\d+-text\.txt$/.test(String(f)))).toBe(true);
      unlink.mockRestore();
      const file = await derive(db, { op: "agreementDownload", actor: coord, projectId: project.id, query: { format: "json" } });
      expect(file.body).toBe(runDeriveJob(db, { op: "agreementDownload", actor: coord, projectId: project.id, query: { format: "json" } }).body);
      expect(file.body.length).toBeGreaterThan(64);
      expect(spilled().filter((f) => !already.has(f))).toEqual([]);
      // A download streams the worker's file itself, then deletes it; the rest of the answer comes as it is.
      const text = async (body: ReadableStream<Uint8Array>) => new TextDecoder().decode(new Uint8Array(await new Response(body).arrayBuffer()));
      const gold = await deriveDownload(db, { op: "goldFile", actor: coord, projectId: project.id, file: "gold", foldCase: false }, "text");
      expect(await text(gold.body)).toBe(g.gold);
      const agreement = await deriveDownload(db, { op: "agreementDownload", actor: coord, projectId: project.id, query: { format: "json" } }, "body");
      expect(agreement.value.fileName).toBe(file.fileName);
      expect(agreement.value.contentType).toBe(file.contentType);
      expect(await text(agreement.body)).toBe(file.body);
      await until(() => spilled().every((f) => already.has(f)), "the streamed files to be deleted");
      // Refused as derive refuses.
      await expect(deriveDownload(db, { op: "goldFile", actor: null, projectId: project.id, file: "gold", foldCase: false }, "text")).rejects.toBeInstanceOf(AuthError);
      db.$client.close();
      // In-process (a database in memory): the same bytes from the string.
      const mem = goldFixture();
      const memGold = await deriveDownload(mem.db, { op: "goldFile", actor: mem.coord, projectId: mem.project.id, file: "gold", foldCase: false }, "text");
      expect(await text(memGold.body)).toBe(projectGold(mem.db, mem.coord, mem.project.id).gold);
    } finally {
      if (before === undefined) delete process.env.LEXGOLD_DERIVE_SPILL_CHARS;
      else process.env.LEXGOLD_DERIVE_SPILL_CHARS = before;
      await resetDeriveRuntime();
    }
  });
});

describe("a light derivation while no derivation process is up", () => {
  it("is computed here, equal, and starts the process, which the next one goes to; a heavy one always goes there", async () => {
    await resetDeriveRuntime();
    try {
      const { db, coord, ann, project } = goldFixture(dbFile());
      const gold = projectGold(db, coord, project.id).gold;
      const lines = gold.trim().split("\n").map((l) => l.replace(/ :: (\S+?) \d+;.*/, " :: $1"));
      uploadRun(db, coord, project.id, { fileName: "all.best", text: lines.join("\n") + "\n" });
      const kept = { op: "keptBoard", actor: coord, projectId: project.id, source: { kind: "project" }, mode: {} } as const;
      const whole = { op: "scoreBoard", actor: coord, projectId: project.id, source: { kind: "project" }, mode: {} } as const;
      const pool = deriveRuntime().pool;
      expect(pool.hasWorker()).toBe(false);
      expect(derivesHere(kept)).toBe(true);
      expect(derivesHere(whole)).toBe(false);
      // The process is asked to start, and held by the test: the answer comes from here all the same.
      let release!: () => void;
      const started = vi.spyOn(pool, "run").mockImplementation(() => new Promise((r) => (release = () => r({ value: null } as never))));
      const here = await derive(db, kept);
      expect(started).toHaveBeenCalledTimes(1);
      expect(here).not.toBeNull();
      expect(here).toEqual(runDeriveJob(db, kept));
      release();
      started.mockRestore();
      // Asked again, with nothing held: answered here, and the process started (it is up or starting)...
      expect(await derive(db, kept)).toEqual(here);
      expect(pool.hasWorker()).toBe(true);
      // ...and while it starts, light ones are still answered here (without starting another)...
      // (A process's start takes far longer than this tiny board.)
      const runs = vi.spyOn(pool, "run");
      expect(pool.isWarm()).toBe(false);
      expect(derivesHere(kept)).toBe(true);
      expect(await derive(db, kept)).toEqual(here);
      expect(runs).not.toHaveBeenCalled();
      runs.mockRestore();
      // ...and once it has answered, the next light one goes to it, with the same answer.
      await until(() => pool.isWarm(), "the derivation process to answer");
      expect(derivesHere(kept)).toBe(false);
      expect(await derive(db, kept)).toEqual(cloned(here));
      // Refused here as there: who asks is checked first.
      await resetDeriveRuntime();
      expect(derivesHere(kept)).toBe(true);
      await expect(derive(db, { ...kept, actor: ann })).rejects.toBeInstanceOf(AuthError);
      db.$client.close();
    } finally {
      await resetDeriveRuntime();
    }
  });
});

describe("a derivation a page waits for a moment only (deriveWithin)", () => {
  it("gives no answer while the derivation process starts, goes on with the derivation, and gives its answer later", async () => {
    // No derivation process yet: it starts now, which takes longer than no wait at all.
    await resetDeriveRuntime();
    const { db, coord, project, ann } = goldFixture(dbFile());
    const job = { op: "progressCharts", actor: coord, projectId: project.id } as const;
    expect(await deriveWithin(db, job, 0)).toBeNull();
    const spawned = deriveRuntime().pool;
    // The same derivation asked again while it runs shares it, and its answer comes within a generous wait.
    const charts = await deriveWithin(db, job, 60_000);
    expect(charts).not.toBeNull();
    expect(deriveRuntime().pool).toBe(spawned);
    expect({ ...charts!, computedAt: 0 }).toEqual({ ...cloned(runDeriveJob(db, job)), computedAt: 0 });
    // A refusal is thrown as derive throws it, never taken for "not yet".
    await expect(deriveWithin(db, { ...job, actor: ann }, 60_000)).rejects.toBeInstanceOf(AuthError);
    await expect(deriveWithin(db, { ...job, actor: ann }, 0)).rejects.toBeInstanceOf(AuthError);
    db.$client.close();
  });
});

describe("the Agreement page's lexelt rows", () => {
  /** 120 lexelts (word0.n … word119.n), two instances each, answered so that lexelt k's pairwise agreement falls with k. */
  function manyLexelts() {
    const f = projectFixture();
    const xml = ['<?xml version="1.0"?>', '<corpus lang="english">'];
    for (let k = 0; k < 120; k++) {
      xml.push(`<lexelt item="word${k}.n">`);
      for (const i of [1, 2]) xml.push(`<instance id="w${k}-${i}"><context>a <head>word${k}</head> here</context></instance>`);
      xml.push("</lexelt>");
    }
    xml.push("</corpus>");
    importLexeltXml(f.db, f.coord, f.project.id, { fileName: "m.xml", bytes: new TextEncoder().encode(xml.join("\n")) });
    actorFor(f.db, "bea", "annotator");
    addMember(f.db, f.coord, f.project.id, "bea");
    const lines = ["annotator\tlexelt\tinstance\tanswer\tmultiword"];
    for (let k = 0; k < 120; k++) {
      for (const i of [1, 2]) {
        // ann and bea agree on every instance of lexelts 0–59 and never on 60–119.
        lines.push(`ann\tword${k}.n\tw${k}-${i}\talpha\t`);
        lines.push(`bea\tword${k}.n\tw${k}-${i}\t${k < 60 ? "alpha" : "beta"}\t`);
      }
    }
    importResponses(f.db, f.coord, f.project.id, { fileName: "m.tsv", text: lines.join("\n") });
    return f;
  }

  it("sends one page, sorted on the server, with search", () => {
    const { db, coord, project } = manyLexelts();
    const all = agreementPageData(db, coord, project.id).report.byLexelt;
    expect(all).toHaveLength(120);
    const p1 = agreementPageView(db, coord, project.id, {});
    expect(p1.lexelts.rows).toHaveLength(LEXELT_PAGE_SIZE);
    expect(p1.lexelts).toMatchObject({ total: 120, pages: 3, page: 1, all: 120, sort: "lexelt", dir: "asc" });
    // Natural order: word0, word1, word2, … word9, word10.
    expect(p1.lexelts.rows.slice(0, 3).map((l) => l.lexelt)).toEqual(["word0.n", "word1.n", "word2.n"]);
    expect(p1.lexelts.rows[10].lexelt).toBe("word10.n");
    expect("perItem" in p1.report || "byLexelt" in p1.report).toBe(false);
    expect(p1.itemsWithPairs).toBe(240);
    const p3 = agreementPageView(db, coord, project.id, { page: 3 });
    expect(p3.lexelts.rows.map((l) => l.lexelt)).toEqual(Array.from({ length: 20 }, (_, i) => `word${100 + i}.n`));
    // By pairwise, highest first: the 60 that agree (1), then the rest (0), ties in the report's order.
    const byAgreement = agreementPageView(db, coord, project.id, { sort: "pairwise", dir: "desc", page: 2 });
    expect(byAgreement.lexelts.rows.slice(0, 10).map((l) => l.pairwise)).toEqual(Array(10).fill(1));
    expect(byAgreement.lexelts.rows[10]).toMatchObject({ lexelt: all.find((l) => l.pairwise === 0)!.lexelt, pairwise: 0 });
    const search = agreementPageView(db, coord, project.id, { q: "WORD11" });
    expect(search.lexelts.rows.map((l) => l.lexelt)).toEqual(["word11.n", "word110.n", "word111.n", "word112.n", "word113.n", "word114.n", "word115.n", "word116.n", "word117.n", "word118.n", "word119.n"]);
    expect(search.lexelts.total).toBe(11);
    // Unknown sort keys fall back to the lexelt; pages past the end to the last.
    expect(agreementPageView(db, coord, project.id, { sort: "constructor", page: 99 }).lexelts).toMatchObject({ sort: "lexelt", page: 3 });
  });

  it("by name reads the figures of the page's lexelts alone, the same figures as the whole report's", () => {
    const { db, coord, project } = manyLexelts();
    const all = agreementPageData(db, coord, project.id).report.byLexelt;
    for (const query of [{ page: 2 }, { dir: "desc", page: 3 }, { sort: "pos", q: "word1" }]) {
      let view!: ReturnType<typeof agreementPageView>;
      const read = recordStatements(db, () => (view = agreementPageView(db, coord, project.id, query)));
      expect(view.lexelts.rows.length).toBeGreaterThan(0);
      expect(view.lexelts.rows).toEqual(view.lexelts.rows.map((r) => all.find((l) => l.lexelt === r.lexelt)));
      // The groups' sums are read for all and PoS, and for the lexelts of the page by name: never for every lexelt.
      const sums = read.sql.filter((sql) => sql.includes('"items_with_mode"'));
      expect(sums.length).toBe(2);
      for (const sql of sums) expect(sql).toMatch(/in \('all', 'pos'\)|json_each/);
    }
    // By a figure, every lexelt's figures are read to sort them.
    const byFigure = recordStatements(db, () => agreementPageView(db, coord, project.id, { sort: "pairwise" }));
    expect(byFigure.sql.some((sql) => sql.includes('"items_with_mode"') && !/in \('all', 'pos'\)|json_each/.test(sql))).toBe(true);
  });
});
