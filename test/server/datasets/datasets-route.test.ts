/** The Datasets route: upload (multipart) and download, with the same checks as the lexelt upload. */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jobsIdle, uploadDir } from "../../../lib/server/jobs/jobs";
import { deriveRuntime } from "../../../lib/server/jobs/derive-pool";
import { projectFixture } from "../../support/db";

const session = vi.hoisted(() => ({ actor: null as unknown, db: null as unknown }));
vi.mock("@/lib/auth/session", () => ({ getActor: async () => session.actor }));
vi.mock("@/lib/db", () => ({ getDb: () => session.db }));
const route = await import("../../../app/api/projects/[projectId]/datasets/route");

const origin = "http://lexgold.test:3000";
const saved = process.env.NEXTAUTH_URL;
beforeEach(() => (process.env.NEXTAUTH_URL = origin));
afterEach(() => (saved === undefined ? delete process.env.NEXTAUTH_URL : (process.env.NEXTAUTH_URL = saved)));

const swords = readFileSync(path.resolve(__dirname, "../../../samples/datasets/swords-small.json"));

/** Upload as the page does; `wait`: answer when the import job has ended (the route's ?wait=1). */
function upload(projectId: number, format: string, headers: Record<string, string> = { origin }, wait = false) {
  const form = new FormData();
  form.append("format", format);
  form.append("file", new File([swords], "swords-small.json"));
  return route.POST(new Request(`${origin}/api/projects/${projectId}/datasets${wait ? "?wait=1" : ""}`, { method: "POST", headers, body: form }), {
    params: Promise.resolve({ projectId: String(projectId) }),
  });
}
const download = (projectId: number, query: string) =>
  route.GET(new Request(`${origin}/api/projects/${projectId}/datasets?${query}`), { params: Promise.resolve({ projectId: String(projectId) }) });

describe("datasets route", () => {
  it("imports an upload as a job and downloads it back unchanged, with a loss report on request", async () => {
    // A file database: the import job's worker opens its own connection.
    const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-datasets-route-"));
    const { db, coord, project } = projectFixture(path.join(dir, "t.db"));
    Object.assign(session, { db, actor: coord });
    const res = await upload(project.id, "swords", { origin }, true);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { report: { instancesAdded: number } }).report.instancesAdded).toBe(3);
    // Both the file and the report are derived in the derivation process, as the gold download is.
    const run = vi.spyOn(deriveRuntime().pool, "run");
    try {
      const file = await download(project.id, "format=swords&ids=as-imported");
      expect(file.headers.get("content-disposition")).toBe('attachment; filename="p.swords.json"');
      expect(file.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(JSON.parse(await file.text())).toEqual(JSON.parse(swords.toString("utf8")));
      const report = (await (await download(project.id, "format=tsar&report=1")).json()) as { written: number; lost: string[] };
      expect(report.written).toBe(3);
      expect(report.lost.join(" ")).toMatch(/lexelts \(lemma and PoS\) and instance ids are not written/);
      expect(run.mock.calls.map(([task]) => (task as { job: { op: string; format: string } }).job).map((j) => `${j.op} ${j.format}`)).toEqual(["datasetFile swords", "datasetReport tsar"]);
    } finally {
      run.mockRestore();
    }
    // Without ?wait=1 (the page): 202 at once with the job, which the page then follows.
    const started = await upload(project.id, "swords");
    expect(started.status, await started.clone().text()).toBe(202);
    expect(((await started.json()) as { job: { kind: string; fileName: string } }).job).toMatchObject({ kind: "dataset", fileName: "swords-small.json" });
    await jobsIdle();
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("TSAR: cells as the project holds them by default, spreadsheet-safe on request; a bad or misplaced cells value is refused", async () => {
    const { db, coord, project } = projectFixture();
    Object.assign(session, { db, actor: coord });
    const { importDataset } = await import("../../../lib/server/datasets/datasets");
    importDataset(db, coord, project.id, { format: "tsar", fileName: "d.tsv", bytes: new TextEncoder().encode("-a dash opens it\tdash\tline\n") });
    expect(await (await download(project.id, "format=tsar")).text()).toBe("-a dash opens it\tdash\tline\n");
    expect(await (await download(project.id, "format=tsar&cells=raw")).text()).toBe("-a dash opens it\tdash\tline\n");
    expect(await (await download(project.id, "format=tsar&cells=spreadsheet-safe")).text()).toBe("'-a dash opens it\tdash\tline\n");
    const report = (await (await download(project.id, "format=tsar&cells=spreadsheet-safe&report=1")).json()) as { lost: string[] };
    expect(report.lost.join(" ")).toMatch(/1 line has a cell beginning with =, \+, -, @ \(a spreadsheet would run it as a formula\), written with a leading apostrophe/);
    const bad = await download(project.id, "format=tsar&cells=quoted");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe('Unknown cells "quoted": raw or spreadsheet-safe.');
    expect((await download(project.id, "format=swords&cells=raw")).status).toBe(400);
    expect((await download(project.id, "format=tsar&ids=recipe")).status).toBe(400);
    expect(((await (await download(project.id, "format=swords&ids=mine")).json()) as { message: string }).message).toBe('Unknown ids "mine": recipe or as-imported.');
  });

  it("refuses an annotator (403), another origin, and an unknown format, writing nothing", async () => {
    const { db, coord, ann, project } = projectFixture();
    Object.assign(session, { db, actor: ann });
    expect((await upload(project.id, "swords")).status).toBe(403);
    expect((await download(project.id, "format=swords")).status).toBe(403);
    Object.assign(session, { actor: coord });
    expect((await upload(project.id, "swords", { origin: "http://evil.example" })).status).toBe(403);
    const bad = await upload(project.id, "semcor");
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/Unknown dataset format "semcor"/);
    // An empty file is said to be empty, not "choose a file".
    const empty = new FormData();
    empty.append("format", "swords");
    empty.append("file", new File([], "empty.json"));
    const none = await route.POST(new Request(`${origin}/api/projects/${project.id}/datasets`, { method: "POST", headers: { origin }, body: empty }), { params: Promise.resolve({ projectId: String(project.id) }) });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { message: string }).message).toBe("empty.json: the file is empty; nothing was imported.");
    expect((db.$client.prepare("select count(*) as n from instances").get() as { n: number }).n).toBe(0);
  });
  it("refuses an upload past the person's cap of queued uploads (429) before writing it anywhere", async () => {
    const { db, coord, project } = projectFixture();
    Object.assign(session, { db, actor: coord });
    const cap = process.env.LEXGOLD_MAX_QUEUED_UPLOAD_MB;
    process.env.LEXGOLD_MAX_QUEUED_UPLOAD_MB = String(1000 / 1048576);
    try {
      mkdirSync(uploadDir(), { recursive: true });
      const before = readdirSync(uploadDir()).length;
      const res = await upload(project.id, "swords");
      expect(res.status).toBe(429);
      expect(res.headers.get("retry-after")).toBe("60");
      expect(((await res.json()) as { message: string }).message).toMatch(/over the limit of 0\.0 MB of uploads waiting per person; nothing of it was kept/);
      expect(readdirSync(uploadDir()).length).toBe(before);
      expect(db.$client.prepare("select count(*) as n from jobs").get()).toEqual({ n: 0 });
    } finally {
      if (cap === undefined) delete process.env.LEXGOLD_MAX_QUEUED_UPLOAD_MB;
      else process.env.LEXGOLD_MAX_QUEUED_UPLOAD_MB = cap;
    }
  });
});
