/**
 * A study participant (issue #32) reaches their batch in their study's project and nothing
 * else: every route handler answers them what it answers the annotator in their place (the
 * data access layer's matrix is participant-matrix.ts), save for the batch itself; the pages
 * of accounts, projects and other projects send them away; a refused request writes nothing.
 */
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import { type Actor, SYSTEM, type UserActor } from "../../lib/server/kernel/actor";
import { createRound, setJudges } from "../../lib/server/judgement/judgement";
import { uploadRun } from "../../lib/server/scoring/runs";
import { storeGold } from "../../lib/server/scoring/golds";
import { makeParticipant, makeStudy } from "../support/crowd";
import { dump, NIL, type World, world } from "./world";

const session = vi.hoisted(() => ({ actor: null as unknown, db: null as unknown }));
vi.mock("@/lib/auth/session", () => ({
  getActor: async () => session.actor,
  requireUserPage: async () => {
    if (!session.actor) throw new Error("signed out");
    return session.actor;
  },
  requireCoordinatorPage: async () => {
    throw new Error("not used here");
  },
}));
vi.mock("@/lib/db", () => ({ getDb: () => session.db }));
vi.mock("next/navigation", () => ({
  redirect: (url: string) => {
    throw new Error(`redirect to ${url}`);
  },
  notFound: () => {
    throw new Error("NEXT_NOT_FOUND");
  },
}));

const ORIGIN = "http://lexgold.test:3000";
process.env.NEXTAUTH_URL = ORIGIN;

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
type Ids = { round: number; run: number; gold: number; job: number; release: number };

/**
 * Every route handler a browser can reach, with its methods (app/api; the bench routes answer 404
 * unless enabled for a benchmark; next-auth's own is the sign-in). The last test checks the list is whole.
 */
const ROUTES: { path: string; methods: string; load: () => Promise<Record<string, unknown>>; params: (w: World, project: number, ids: Ids) => Record<string, string | string[]> }[] = [
  { path: "agreement", methods: "GET", load: () => import("../../app/api/projects/[projectId]/agreement/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "datasets", methods: "GET POST", load: () => import("../../app/api/projects/[projectId]/datasets/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "flags", methods: "GET", load: () => import("../../app/api/projects/[projectId]/flags/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "gold", methods: "GET", load: () => import("../../app/api/projects/[projectId]/gold/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "import", methods: "POST", load: () => import("../../app/api/projects/[projectId]/import/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "jobs", methods: "GET", load: () => import("../../app/api/projects/[projectId]/jobs/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "jobs/[jobId]", methods: "GET", load: () => import("../../app/api/projects/[projectId]/jobs/[jobId]/route"), params: (_w, p, i) => ({ projectId: String(p), jobId: String(i.job) }) },
  { path: "jobs/[jobId]/cancel", methods: "POST", load: () => import("../../app/api/projects/[projectId]/jobs/[jobId]/cancel/route"), params: (_w, p, i) => ({ projectId: String(p), jobId: String(i.job) }) },
  { path: "judgement/extended-gold", methods: "GET", load: () => import("../../app/api/projects/[projectId]/judgement/[roundId]/extended-gold/route"), params: (_w, p, i) => ({ projectId: String(p), roundId: String(i.round) }) },
  { path: "judgement/swords", methods: "GET", load: () => import("../../app/api/projects/[projectId]/judgement/[roundId]/swords/route"), params: (_w, p, i) => ({ projectId: String(p), roundId: String(i.round) }) },
  { path: "responses", methods: "GET POST", load: () => import("../../app/api/projects/[projectId]/responses/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "scoring/baselines", methods: "POST", load: () => import("../../app/api/projects/[projectId]/scoring/baselines/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "scoring/golds", methods: "GET POST", load: () => import("../../app/api/projects/[projectId]/scoring/golds/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "scoring/golds/[goldId]", methods: "DELETE", load: () => import("../../app/api/projects/[projectId]/scoring/golds/[goldId]/route"), params: (_w, p, i) => ({ projectId: String(p), goldId: String(i.gold) }) },
  { path: "scoring/ranking", methods: "POST", load: () => import("../../app/api/projects/[projectId]/scoring/ranking/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "scoring/results", methods: "GET", load: () => import("../../app/api/projects/[projectId]/scoring/results/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "scoring/runs", methods: "GET POST", load: () => import("../../app/api/projects/[projectId]/scoring/runs/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "scoring/runs/[runId]", methods: "GET DELETE", load: () => import("../../app/api/projects/[projectId]/scoring/runs/[runId]/route"), params: (_w, p, i) => ({ projectId: String(p), runId: String(i.run) }) },
  { path: "scoring/runs/[runId]/file", methods: "GET", load: () => import("../../app/api/projects/[projectId]/scoring/runs/[runId]/file/route"), params: (_w, p, i) => ({ projectId: String(p), runId: String(i.run) }) },
  { path: "scoring/runs/[runId]/report", methods: "GET", load: () => import("../../app/api/projects/[projectId]/scoring/runs/[runId]/report/route"), params: (_w, p, i) => ({ projectId: String(p), runId: String(i.run) }) },
  { path: "scoring/scores", methods: "GET", load: () => import("../../app/api/projects/[projectId]/scoring/scores/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "scoring/senseval", methods: "POST", load: () => import("../../app/api/projects/[projectId]/scoring/senseval/route"), params: (_w, p) => ({ projectId: String(p) }) },
  // A release's .tar.gz (a release of p, as stored: a coordinator's only).
  { path: "releases/[releaseId]/files/[...path]", methods: "GET", load: () => import("../../app/api/projects/[projectId]/releases/[releaseId]/files/[...path]/route"), params: (_w, p, i) => ({ projectId: String(p), releaseId: String(i.release), path: ["formats", "p.gold"] }) },
  { path: "releases/[releaseId]", methods: "GET", load: () => import("../../app/api/projects/[projectId]/releases/[releaseId]/route"), params: (_w, p, i) => ({ projectId: String(p), releaseId: String(i.release) }) },
  // A model's answers as a system file, and the workspace's suggestions (lib/server/models, issue #41).
  { path: "models/run", methods: "POST", load: () => import("../../app/api/projects/[projectId]/models/run/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "models/file", methods: "GET", load: () => import("../../app/api/projects/[projectId]/models/file/route"), params: (_w, p) => ({ projectId: String(p) }) },
  { path: "suggestions", methods: "GET", load: () => import("../../app/api/projects/[projectId]/suggestions/route"), params: (_w, p) => ({ projectId: String(p) }) },
  // The Crowd tab's downloads (a study of the project: the participant's own).
  { path: "crowd/[studyId]/download", methods: "GET", load: () => import("../../app/api/projects/[projectId]/crowd/[studyId]/download/route"), params: (w, p) => ({ projectId: String(p), studyId: String(studyIn(w, p)) }) },
  // The save route: p2 is in the participant's batch (and the annotator's queue).
  { path: "responses/[instanceRef]", methods: "POST", load: () => import("../../app/api/projects/[projectId]/responses/[instanceRef]/route"), params: (w, p) => ({ projectId: String(p), instanceRef: String(p === w.p.id ? w.ref.p2 : w.ref.q2) }) },
];

/** The project's first study (the participant's own). */
function studyIn(w: World, projectId: number): number {
  return (w.db.$client.prepare("select id from studies where project_id = ? order by id").get(projectId) as { id: number }).id;
}

/** The world, a participant of p (batch p1, p2) and of q (q1, q2), and a round, a run, a gold and a job in p. */
function setUp(): { w: World; pp: UserActor; pq: UserActor; ids: Ids } {
  const w = world();
  const pp = makeParticipant(w.db, makeStudy(w.db, w.p.id), "pp", [w.ref.p1, w.ref.p2]).actor;
  const pq = makeParticipant(w.db, makeStudy(w.db, w.q.id), "pq", [w.ref.q1, w.ref.q2]).actor;
  const round = createRound(w.db, SYSTEM, w.p.id, { selection: "any", sampleSize: 2, seed: 1, sources: ["annotators"], allowOwnItems: true }).id;
  setJudges(w.db, SYSTEM, round, [w.ann.userId]);
  const run = uploadRun(w.db, SYSTEM, w.p.id, { fileName: "r.best", bytes: new TextEncoder().encode("bright.a p1 :: shining\n") }).run.id;
  const gold = storeGold(w.db, SYSTEM, w.p.id, { name: "g", gold: { name: "d.gold", text: "bright.a 1 :: clever 2;\n" }, mwgold: null }).id!;
  const { id: job } = w.db.$client.prepare("insert into jobs (project_id, kind, state) values (?, 'lexelt-xml', 'queued') returning id").get(w.p.id) as { id: number };
  // A release of p as the table holds one (its archive a stand-in: the route only sends the bytes).
  const summary = JSON.stringify({ folder: "p-1.0.0", facts: {}, include: { names: false, notes: false } });
  const { id: release } = w.db.$client
    .prepare("insert into releases (project_id, version, data_version, summary, manifest, archive_sha256, archive_bytes) values (?, '1.0.0', 0, ?, '[]', 'x', 1) returning id")
    .get(w.p.id, summary) as { id: number };
  w.db.$client.prepare("insert into release_archives (release_id, project_id, archive) values (?, ?, x'00')").run(release, w.p.id);
  session.db = w.db;
  return { w, pp, pq, ids: { round, run, gold, job, release } };
}

function request(method: string, path: string): Request {
  if (method === "GET") return new Request(`${ORIGIN}/api/x/${path}`);
  const body = path === "responses/[instanceRef]" ? JSON.stringify({ response: NIL, expectedRevision: 0 }) : "{}";
  return new Request(`${ORIGIN}/api/x/${path}`, { method, headers: { origin: ORIGIN, "content-type": "application/json" }, body });
}

async function status(actor: Actor, method: string, route: (typeof ROUTES)[number], project: "p" | "q"): Promise<{ status: number; wrote: boolean }> {
  const { w, ids } = setUp();
  session.actor = actor;
  const mod = await route.load();
  const before = dump(w.db as Db);
  const res = await (mod[method] as Handler)(request(method, route.path), { params: Promise.resolve(route.params(w, w[project].id, ids)) });
  await res.arrayBuffer();
  return { status: res.status, wrote: JSON.stringify(dump(w.db as Db)) !== JSON.stringify(before) };
}

describe("route handlers answer a participant what they answer the annotator in their place", () => {
  for (const route of ROUTES) {
    for (const method of route.methods.split(" ")) {
      it(`${method} ${route.path}`, async () => {
        expect(typeof (await route.load())[method]).toBe("function");
        for (const project of ["p", "q"] as const) {
          // The participant of p stands where ann stands; the participant of q where annq stands.
          const { w, pp, pq } = setUp();
          const [ann, participantAsAnn, annQ, participantAsAnnQ] = [
            await status(w.ann, method, route, project),
            await status(pp, method, route, project),
            await status(w.annQ, method, route, project),
            await status(pq, method, route, project),
          ];
          expect(participantAsAnn.status, `${method} ${route.path} in ${project}, participant of p`).toBe(ann.status);
          expect(participantAsAnnQ.status, `${method} ${route.path} in ${project}, participant of q`).toBe(annQ.status);
          for (const r of [participantAsAnn, participantAsAnnQ]) if (r.status >= 400) expect(r.wrote).toBe(false);
        }
      });
    }
  }

  it("the save route: an item outside the batch is a 404 and writes nothing; one in it saves", async () => {
    const route = ROUTES.find((r) => r.path === "responses/[instanceRef]")!;
    const mod = (await route.load()) as { POST: Handler };
    const { w, pp } = setUp();
    session.actor = pp;
    const post = (ref: number) => mod.POST(request("POST", route.path), { params: Promise.resolve({ projectId: String(w.p.id), instanceRef: String(ref) }) });
    const p3 = (w.db.$client.prepare("select id from instances where instance_id = 'p3'").get() as { id: number }).id;
    const before = dump(w.db);
    const outside = await post(p3);
    expect(outside.status).toBe(404);
    expect(((await outside.json()) as { message: string }).message).toBe("No such instance in this project.");
    expect(dump(w.db)).toEqual(before);
    const inside = await post(w.ref.p1);
    expect(inside.status).toBe(200);
    expect(((await inside.json()) as { progress: { done: number; total: number } }).progress).toEqual({ done: 1, total: 2 });
  });
});

describe("pages send a participant away from what is not theirs", () => {
  it("the accounts pages and the account page (they have no password)", async () => {
    const { pp } = setUp();
    session.actor = pp;
    await expect((await import("../../app/accounts/page")).default()).rejects.toThrow("redirect to /annotate");
    await expect((await import("../../app/account/page")).default()).rejects.toThrow("redirect to /annotate");
  });

  it("the list of projects goes straight to their study's project", async () => {
    const { w, pp } = setUp();
    session.actor = pp;
    await expect((await import("../../app/annotate/page")).default()).rejects.toThrow(`redirect to /annotate/${w.p.id}`);
  });

  it("another project's workspace, instance and training are a 404", async () => {
    const { w, pp } = setUp();
    session.actor = pp;
    const resume = (await import("../../app/annotate/[projectId]/page")).default;
    const instance = (await import("../../app/annotate/[projectId]/[instanceId]/page")).default;
    const training = (await import("../../app/annotate/[projectId]/training/page")).default;
    await expect(resume({ params: Promise.resolve({ projectId: String(w.q.id) }), searchParams: Promise.resolve({}) })).rejects.toThrow("NEXT_NOT_FOUND");
    await expect(instance({ params: Promise.resolve({ projectId: String(w.q.id), instanceId: String(w.ref.q1) }) })).rejects.toThrow("NEXT_NOT_FOUND");
    await expect(training({ params: Promise.resolve({ projectId: String(w.q.id) }) })).rejects.toThrow("NEXT_NOT_FOUND");
  });

  it("a judgement round is a 404 (and a coordinator cannot make them a judge)", async () => {
    const { w, pp, ids } = setUp();
    session.actor = pp;
    const judge = (await import("../../app/judge/[roundId]/page")).default;
    await expect(judge({ params: Promise.resolve({ roundId: String(ids.round) }) })).rejects.toThrow("NEXT_NOT_FOUND");
    const before = dump(w.db);
    expect(() => setJudges(w.db, w.coord, ids.round, [pp.userId])).toThrow(/not a judge or annotator/);
    expect(dump(w.db)).toEqual(before);
  });

  it("once screened out, timed out or the study closed, the workspace's pages show their end screen", async () => {
    const { w, pp } = setUp();
    session.actor = pp;
    const resume = (await import("../../app/annotate/[projectId]/page")).default;
    const instance = (await import("../../app/annotate/[projectId]/[instanceId]/page")).default;
    w.db.$client.prepare("update participants set state = 'timed-out' where user_id = ?").run(pp.userId);
    await expect(instance({ params: Promise.resolve({ projectId: String(w.p.id), instanceId: String(w.ref.p1) }) })).rejects.toThrow(`redirect to /annotate/${w.p.id}`);
    const page = await resume({ params: Promise.resolve({ projectId: String(w.p.id) }), searchParams: Promise.resolve({}) });
    expect(JSON.stringify(page)).toContain("timed-out");
  });
});

describe("the list of routes is whole", () => {
  it("every route handler under app/api/projects is in ROUTES", async () => {
    const fs = await import("node:fs");
    const path = await import("node:path");
    const dir = path.resolve(import.meta.dirname, "../../app/api/projects/[projectId]");
    const found = fs
      .readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith("route.ts"))
      .map((f) => f.replace(/\/?route\.ts$/, "").replace("judgement/[roundId]/", "judgement/"))
      .filter((f) => f !== "")
      .sort();
    expect(found).toEqual(ROUTES.map((r) => r.path).sort());
  });
});

describe("Mechanical Turk's form may leave the site, to its two hosts only", () => {
  it("the Content-Security-Policy's form-action names them, and participantView posts nowhere else", async () => {
    const { contentSecurityPolicy } = await import("../../proxy");
    const formAction = contentSecurityPolicy("n", false)
      .split("; ")
      .find((d) => d.startsWith("form-action"));
    expect(formAction).toBe("form-action 'self' https://www.mturk.com https://workersandbox.mturk.com");
  });
});
