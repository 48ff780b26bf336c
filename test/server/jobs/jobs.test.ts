import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDb, type Db } from "../../../db/client";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { NotFoundError } from "../../../lib/server/kernel/errors";
import { cancelJob, getJob, jobsIdle, listJobs, recoverJobs, startJob, uploadPath } from "../../../lib/server/jobs/jobs";
import { discardDatasetStaging, stagedDatasetImport } from "../../../lib/server/corpus/dataset-import";
import { datasetSummary } from "../../../lib/server/datasets/datasets";
import { discardStaging, stagedLexeltImport } from "../../../lib/server/corpus/lexelt-import";
import { projectOverview, listProjects, createProject } from "../../../lib/server/corpus/projects";
import { projectProgress } from "../../../lib/server/annotate/progress";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, corpusCounts } from "../../support/db";
import { until } from "../../support/wait";

const enc = (s: string) => new TextEncoder().encode(s);
/** A corpus of `lexelts` lexelts × `per` instances, ids prefixed so files can be told apart. */
function corpus(prefix: string, lexelts: number, per: number): string {
  const out = ['<?xml version="1.0"?>', '<corpus lang="english">'];
  for (let l = 0; l < lexelts; l++) {
    out.push(`<lexelt item="${prefix}word${l}.n">`);
    for (let i = 0; i < per; i++) out.push(`<instance id="${prefix}${l}-${i}"><context>some words before the <head>word${l}</head> and after it</context></instance>`);
    out.push("</lexelt>");
  }
  out.push("</corpus>", "");
  return out.join("\n");
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
/** A file database (the worker opens its own connection), with a project, its coordinator and annotator. */
function fileFixture() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-jobs-"));
  dirs.push(dir);
  const db = openDb(path.join(dir, "t.db"));
  const coord = actorFor(db, "coord", "coordinator");
  const ann = actorFor(db, "ann", "annotator");
  const project = createProject(db, coord, { name: "p" });
  addMember(db, coord, project.id, "ann");
  return { db, coord, ann, project };
}
function upload(text: string): string {
  const p = uploadPath();
  fs.writeFileSync(p, text);
  return p;
}
const visible = (db: Db, coord: Parameters<typeof projectOverview>[1], projectId: number) => {
  const o = projectOverview(db, coord, projectId);
  return { lexelts: o.lexelts.length, instances: o.lexelts.reduce((s, l) => s + l.instances, 0) };
};

describe("a lexelt import in slices", () => {
  it("writes slices that no reader sees until the publish step, then everything at once", () => {
    const { db, coord, project } = fileFixture();
    importLexeltXml(db, coord, project.id, { fileName: "first.xml", bytes: enc(corpus("a", 2, 3)) });
    const before = visible(db, coord, project.id);
    const beforeList = listProjects(db, SYSTEM).map((p) => [p.name, p.lexelts, p.instances]);
    const steps = stagedLexeltImport(db.$client, { projectId: project.id, fileName: "big.xml", bytes: enc(corpus("b", 10, 200)), importedBy: null, maxBytes: 1e9 });
    let writing = 0;
    for (let r = steps.next(); !r.done; r = steps.next()) {
      if (r.value.phase !== "writing") continue;
      writing++;
      // Rows are in the database, but the project, its listing and its progress look as before.
      expect(visible(db, coord, project.id)).toEqual(before);
      expect(listProjects(db, SYSTEM).map((p) => [p.name, p.lexelts, p.instances])).toEqual(beforeList);
      const prog = projectProgress(db, coord, project.id);
      expect([prog.instances, prog.lexelts.length]).toEqual([before.instances, before.lexelts]);
    }
    expect(writing).toBeGreaterThan(2);
    expect(visible(db, coord, project.id)).toEqual({ lexelts: before.lexelts + 10, instances: before.instances + 2000 });
    // The counters are right: positions run on from the first file's.
    const firstNew = projectOverview(db, coord, project.id).lexelts.find((l) => l.item === "bword0.n")!;
    const row = db.$client.prepare("select instances_before as b, instance_count as n from lexelts where id = ?").get(firstNew.id) as { b: number; n: number };
    expect(row).toEqual({ b: before.instances, n: 200 });
    expect(db.$client.prepare("select count(*) as n from projects where staging_for is not null").get()).toEqual({ n: 0 });
  });

  it("an import stopped half-way and discarded leaves nothing behind", () => {
    const { db, coord, project } = fileFixture();
    importLexeltXml(db, coord, project.id, { fileName: "first.xml", bytes: enc(corpus("a", 2, 3)) });
    const before = corpusCounts(db);
    const state = { stagingProjectId: null as number | null };
    const steps = stagedLexeltImport(db.$client, { projectId: project.id, fileName: "big.xml", bytes: enc(corpus("b", 10, 200)), importedBy: null, maxBytes: 1e9 }, state);
    let writes = 0;
    for (let r = steps.next(); !r.done && writes < 2; r = steps.next()) if (r.value.phase === "writing") writes++;
    expect(corpusCounts(db).instances).toBeGreaterThan(before.instances);
    for (const _ of discardStaging(db.$client, state.stagingProjectId!)) void _;
    expect(corpusCounts(db)).toEqual(before);
    expect(db.$client.prepare("select count(*) as n from projects where staging_for is not null").get()).toEqual({ n: 0 });
  });

  it("an import whose rows a starting server cleared is refused at publishing, not published half-written", () => {
    // A CLI import runs while the server (re)starts: recoverJobs discards every holding project it
    // finds, slice by slice. Whatever part of that happened, the import must not publish what is left.
    const { db, coord, project } = fileFixture();
    importLexeltXml(db, coord, project.id, { fileName: "first.xml", bytes: enc(corpus("a", 2, 3)) });
    const before = corpusCounts(db);
    const state = { stagingProjectId: null as number | null };
    const steps = stagedLexeltImport(db.$client, { projectId: project.id, fileName: "big.xml", bytes: enc(corpus("b", 10, 200)), importedBy: null, maxBytes: 1e9 }, state);
    let writes = 0;
    let r = steps.next();
    for (; !r.done && writes < 3; r = steps.next()) if (r.value.phase === "writing") writes++;
    // The server's recovery deletes one slice of the holding project's instances, then stops (still running).
    const cleared = discardStaging(db.$client, state.stagingProjectId!, 50);
    expect(cleared.next().value).toBe(50);
    expect(() => {
      for (; !r.done; r = steps.next());
    }).toThrow(/removed before it was published.*nothing was imported/);
    expect(visible(db, coord, project.id)).toEqual({ lexelts: 2, instances: 6 });
    for (const _ of discardStaging(db.$client, state.stagingProjectId!)) void _;
    expect(corpusCounts(db)).toEqual(before);
  });

  it("instances added to a lexelt already in the project are published with the rest", () => {
    const { db, coord, project } = fileFixture();
    importLexeltXml(db, coord, project.id, { fileName: "first.xml", bytes: enc(corpus("a", 2, 3)) });
    const more = corpus("a", 2, 3).replace("</lexelt>", `<instance id="extra"><context>the <head>word0</head> again</context></instance>\n</lexelt>`);
    const r = importLexeltXml(db, coord, project.id, { fileName: "more.xml", bytes: enc(more) });
    expect(r).toMatchObject({ instancesAdded: 1, lexeltsAdded: 0, instancesAlreadyPresent: 6 });
    expect(projectOverview(db, coord, project.id).lexelts.map((l) => [l.item, l.instances])).toEqual([
      ["aword0.n", 4],
      ["aword1.n", 3],
    ]);
  });
});

describe("jobs", () => {
  it("runs an import in a worker thread, with progress, and reports when done", async () => {
    const { db, coord, project } = fileFixture();
    const job = startJob(db, coord, project.id, "lexelt-xml", { path: upload(corpus("j", 20, 100)), fileName: "j.xml", maxBytes: 1e9 });
    expect(["queued", "running"]).toContain(job.state);
    await jobsIdle();
    const done = getJob(db, coord, job.id);
    expect(done).toMatchObject({ state: "done", done: 2000, total: 2000, fileName: "j.xml" });
    expect((done.report as { message: string }).message).toMatch(/added 2000 instances and 20 lexelts/);
    expect(visible(db, coord, project.id)).toEqual({ lexelts: 20, instances: 2000 });
    expect(listJobs(db, coord, project.id).map((j) => j.id)).toEqual([job.id]);
  });

  it("a refused file fails the job with the file's line, and writes nothing", async () => {
    const { db, coord, project } = fileFixture();
    const before = corpusCounts(db);
    const job = startJob(db, coord, project.id, "lexelt-xml", { path: upload(corpus("x", 2, 2).replace("<head>word1</head>", "word1")), fileName: "bad.xml", maxBytes: 1e9 });
    await jobsIdle();
    const failed = getJob(db, coord, job.id);
    expect(failed.state).toBe("failed");
    expect(failed.message).toMatch(/^bad\.xml:\d+: .*has no <head>/);
    expect(corpusCounts(db)).toEqual(before);
  });

  it("a cancelled job leaves nothing", async () => {
    const { db, coord, project } = fileFixture();
    const job = startJob(db, coord, project.id, "lexelt-xml", { path: upload(corpus("c", 50, 400)), fileName: "c.xml", maxBytes: 1e9 });
    // Cancel once it is writing.
    const writingOrOver = () => {
      const j = getJob(db, coord, job.id);
      return j.message === "Writing instances…" || (j.state !== "queued" && j.state !== "running");
    };
    await until(writingOrOver, "the import to start writing");
    cancelJob(db, coord, job.id);
    await jobsIdle();
    expect(getJob(db, coord, job.id).state).toBe("cancelled");
    expect(corpusCounts(db)).toEqual({ lexelts: 0, instances: 0, imports: 0 });
  });

  it("jobs a killed server left running are marked failed at start and their rows deleted", async () => {
    const { db, coord, project } = fileFixture();
    const state = { stagingProjectId: null as number | null };
    const row = db.$client.prepare("insert into jobs (project_id, kind, state) values (?, 'lexelt-xml', 'running') returning id").get(project.id) as { id: number };
    const steps = stagedLexeltImport(db.$client, { projectId: project.id, fileName: "k.xml", bytes: enc(corpus("k", 5, 300)), importedBy: null, maxBytes: 1e9, jobId: row.id }, state);
    for (let r = steps.next(); !r.done && r.value.phase !== "writing"; r = steps.next());
    steps.next();
    expect(corpusCounts(db).instances).toBeGreaterThan(0);
    await recoverJobs(db);
    expect(getJob(db, coord, row.id)).toMatchObject({ state: "failed" });
    expect(corpusCounts(db)).toEqual({ lexelts: 0, instances: 0, imports: 0 });
  });

  it("a coordinator of another project can neither see nor cancel the job", async () => {
    const { db, coord, project } = fileFixture();
    const other = actorFor(db, "other", "coordinator");
    createProject(db, other, { name: "q" });
    const job = startJob(db, coord, project.id, "lexelt-xml", { path: upload(corpus("s", 1, 1)), fileName: "s.xml", maxBytes: 1e9 });
    expect(() => getJob(db, other, job.id)).toThrow(NotFoundError);
    expect(() => cancelJob(db, other, job.id)).toThrow(NotFoundError);
    expect(() => listJobs(db, other, project.id)).toThrow();
    await jobsIdle();
    expect(getJob(db, coord, job.id).state).toBe("done");
  });
});

describe("a job cancelled by one server process while another starts it", () => {
  /** A queued job's row, as startJob writes it, without putting it in this process's queue. */
  function queuedJob(db: Db, projectId: number, file: string): number {
    const input = JSON.stringify({ path: file, fileName: "q.xml", maxBytes: 1e9 });
    return (db.$client.prepare("insert into jobs (project_id, kind, input) values (?, 'lexelt-xml', ?) returning id").get(projectId, input) as { id: number }).id;
  }
  /** Run `between` just before the connection first runs a statement matching `at` (what another process did meanwhile). */
  function interleave(db: Db, at: RegExp, between: () => void): () => void {
    const prepare = db.$client.prepare.bind(db.$client);
    let done = false;
    db.$client.prepare = ((sql: string) => {
      const st = prepare(sql);
      if (done || !at.test(sql)) return st;
      const run = st.run.bind(st);
      st.run = ((...args: unknown[]) => {
        if (!done) {
          done = true;
          between();
        }
        return run(...args);
      }) as typeof st.run;
      return st;
    }) as typeof db.$client.prepare;
    return () => {
      db.$client.prepare = prepare;
    };
  }

  it("a job cancelled after the worker read it queued is not started, and stays cancelled", async () => {
    const { db, coord, project } = fileFixture();
    const file = upload(corpus("r", 1, 1));
    const id = queuedJob(db, project.id, file);
    const { runJobOn } = await import("../../../lib/server/jobs/jobs-run");
    // The other process's cancel lands between the worker's read of the row and its start.
    const restore = interleave(db, /set "state" = 'running'/, () => cancelJob(db, coord, id));
    try {
      await runJobOn(db.$client, id);
    } finally {
      restore();
    }
    expect(getJob(db, coord, id)).toMatchObject({ state: "cancelled", message: "Cancelled before it started; nothing was imported." });
    expect(fs.existsSync(file)).toBe(false);
    expect(corpusCounts(db)).toEqual({ lexelts: 0, instances: 0, imports: 0 });
  });

  it("a job another process started after the cancel read it queued keeps its upload and is asked to stop", async () => {
    const { db, coord, project } = fileFixture();
    const file = upload(corpus("s", 1, 1));
    const id = queuedJob(db, project.id, file);
    // The other process starts the job between the cancel's read of its state and its write.
    const restore = interleave(db, /set "state" = \?/, () => db.$client.prepare("update jobs set state = 'running' where id = ?").run(id));
    try {
      cancelJob(db, coord, id);
    } finally {
      restore();
    }
    expect(getJob(db, coord, id)).toMatchObject({ state: "running", cancelRequested: true });
    expect(fs.existsSync(file)).toBe(true);
  });
});

describe("a dataset import as a job", () => {
  /** A TSAR file of `n` targets (sentence, complex word, annotations), ids prefixed so files can be told apart. */
  function tsar(n: number, word = "fine"): string {
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`sentence ${i} is a ${word} one\t${word}\tgood\tgood\tnice\tok`);
    return lines.join("\n") + "\n";
  }
  const datasetRows = (db: Db) =>
    db.$client.prepare("select (select count(*) from dataset_gold) as gold, (select count(*) from dataset_instances) as targets").get() as { gold: number; targets: number };

  it("runs in the worker, with progress, and publishes every target, entry and count at once", async () => {
    const { db, coord, project } = fileFixture();
    const job = startJob(db, coord, project.id, "dataset", { path: upload(tsar(900)), fileName: "t.tsv", format: "tsar", maxBytes: 1e9 });
    await jobsIdle();
    const done = getJob(db, coord, job.id);
    expect(done).toMatchObject({ state: "done", done: 900, total: 900, fileName: "t.tsv" });
    expect((done.report as { message: string }).message).toMatch(/t\.tsv: 900 targets \(tsar\); added 900 instances, 1 lexelt and 2700 gold entries/);
    expect(visible(db, coord, project.id)).toEqual({ lexelts: 1, instances: 900 });
    expect(datasetRows(db)).toEqual({ gold: 2700, targets: 900 });
    expect(db.$client.prepare("select count(*) as n from projects where staging_for is not null").get()).toEqual({ n: 0 });
  });

  it("writes slices nobody sees until the publish step; a refusal half-way (an id taken) leaves nothing", () => {
    const { db, coord, project } = fileFixture();
    const input = { format: "tsar" as const, fileName: "a.tsv", bytes: enc(tsar(700)) };
    const state = { stagingProjectId: null as number | null };
    const steps = stagedDatasetImport(db.$client, { input, projectId: project.id, importedBy: null, maxBytes: 1e9 }, state);
    let writing = 0;
    for (let r = steps.next(); !r.done; r = steps.next()) {
      if (r.value.phase !== "writing") continue;
      writing++;
      // Rows are in the database, but the project, its gold and its dataset summary look as before.
      expect(visible(db, coord, project.id)).toEqual({ lexelts: 0, instances: 0 });
      expect(datasetSummary(db, coord, project.id)).toEqual({ formats: [], instances: 0 });
    }
    expect(writing).toBeGreaterThan(2);
    expect(visible(db, coord, project.id)).toEqual({ lexelts: 1, instances: 700 });
    // A second file whose 600th target has the id of a published one with another text: refused at that slice.
    const clash = tsar(700, "fine").split("\n");
    clash[599] = `another fine sentence altogether\tfine\tgood\tnice`;
    const before = { ...datasetRows(db), ...corpusCounts(db) };
    const second = { stagingProjectId: null as number | null };
    expect(() => runStaged(db, { format: "tsar", fileName: "a.tsv", bytes: enc(clash.join("\n")) }, project.id, second)).toThrow(/a\.tsv:600: instance id "a:600" is already in the project/);
    for (const _ of discardDatasetStaging(db.$client, second.stagingProjectId!)) void _;
    expect({ ...datasetRows(db), ...corpusCounts(db) }).toEqual(before);
    expect(db.$client.prepare("select count(*) as n from projects where staging_for is not null").get()).toEqual({ n: 0 });
  });

  it("a killed dataset import's rows are deleted at the next start", async () => {
    const { db, coord, project } = fileFixture();
    const row = db.$client.prepare("insert into jobs (project_id, kind, state) values (?, 'dataset', 'running') returning id").get(project.id) as { id: number };
    const state = { stagingProjectId: null as number | null };
    const steps = stagedDatasetImport(db.$client, { input: { format: "tsar", fileName: "k.tsv", bytes: enc(tsar(900)) }, projectId: project.id, importedBy: null, maxBytes: 1e9, jobId: row.id }, state);
    for (let r = steps.next(); !r.done && r.value.phase !== "writing"; r = steps.next());
    steps.next();
    expect(datasetRows(db).gold).toBeGreaterThan(0);
    await recoverJobs(db);
    expect(getJob(db, coord, row.id)).toMatchObject({ state: "failed" });
    expect({ ...datasetRows(db), ...corpusCounts(db) }).toEqual({ gold: 0, targets: 0, lexelts: 0, instances: 0, imports: 0 });
  });
});

/** Step a staged dataset import to its end, leaving the holding project to the caller on a refusal. */
function runStaged(db: Db, input: { format: "tsar"; fileName: string; bytes: Uint8Array }, projectId: number, state: { stagingProjectId: number | null }) {
  const steps = stagedDatasetImport(db.$client, { input, projectId, importedBy: null, maxBytes: 1e9 }, state);
  for (let r = steps.next(); !r.done; r = steps.next());
}
