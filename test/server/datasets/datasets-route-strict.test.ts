/** The Datasets route's import of a CoInCo file with entries the gold cannot hold: reported by the job, or refused with strict=1. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { jobsIdle } from "../../../lib/server/jobs/jobs";
import { projectFixture } from "../../support/db";

const session = vi.hoisted(() => ({ actor: null as unknown, db: null as unknown }));
vi.mock("@/lib/auth/session", () => ({ getActor: async () => session.actor }));
vi.mock("@/lib/db", () => ({ getDb: () => session.db }));
const route = await import("../../../app/api/projects/[projectId]/datasets/route");

const origin = "http://lexgold.test:3000";
const saved = process.env.NEXTAUTH_URL;
beforeEach(() => (process.env.NEXTAUTH_URL = origin));
afterEach(() => (saved === undefined ? delete process.env.NEXTAUTH_URL : (process.env.NEXTAUTH_URL = saved)));

// Our own sample with a substitute holding the ";" that separates gold entries, and one that is only ";".
const xml = readFileSync(path.resolve(__dirname, "../../../samples/datasets/coinco-small.xml"), "utf8").replace('lemma="port"', 'lemma="port ;"').replace('lemma="skipper"', 'lemma=";"');

function upload(projectId: number, strict: boolean) {
  const form = new FormData();
  form.append("format", "coinco");
  form.append("file", new File([xml], "odd.xml"));
  if (strict) form.append("strict", "1");
  return route.POST(new Request(`${origin}/api/projects/${projectId}/datasets?wait=1`, { method: "POST", headers: { origin }, body: form }), {
    params: Promise.resolve({ projectId: String(projectId) }),
  });
}

describe("datasets route: entries not carried as written", () => {
  it("refuses the file with strict=1 and writes nothing; without it imports and reports each entry with its line", async () => {
    // A file database: the import job's worker opens its own connection.
    const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-datasets-strict-"));
    const { db, coord, project } = projectFixture(path.join(dir, "t.db"));
    Object.assign(session, { db, actor: coord });
    const instances = () => (db.$client.prepare("select count(*) as n from instances").get() as { n: number }).n;

    const refused = await upload(project.id, true);
    const body = (await refused.json()) as { ok: boolean; message: string; details?: string[] };
    expect(body.ok).toBe(false);
    expect(body.message).toMatch(/^odd\.xml:31: warning: target 903, substitute "port ;": repaired: kept as "port" .*refused as asked \(strict\): nothing was imported\.$/);
    expect(body.details).toHaveLength(2);
    expect(instances()).toBe(0);

    const res = await upload(project.id, false);
    expect(res.status, await res.clone().text()).toBe(200);
    const report = ((await res.json()) as { report: { message: string; repairs: { line: number; action: string; entry: string }[] } }).report;
    expect(report.repairs.map((r) => [r.line, r.action, r.entry])).toEqual([
      [31, "repaired", 'target 903, substitute "port ;"'],
      [59, "left out", 'target 905, substitute ";"'],
    ]);
    expect(report.message).toContain("2 entries not carried as written (1 repaired, 1 left out)");
    expect(instances()).toBeGreaterThan(0);
    await jobsIdle();
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
