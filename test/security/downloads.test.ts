/**
 * Issue #27, finding 12 (two small items):
 * - a raw `roundId` reached Content-Disposition: `/judgement/1%0A/swords` gave a
 *   500. Path ids are checked (digits only) before use, and every download's
 *   Content-Disposition is built by the `content-disposition` package (RFC 6266).
 * - `/annotate/P/training` answered 200 "No such project" to non-members; it is
 *   a 404 like the other pages.
 */
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import { type Actor, SYSTEM } from "../../lib/server/kernel/actor";
import { attachmentDisposition } from "../../lib/server/kernel/download";
import { createRound, setJudges } from "../../lib/server/judgement/judgement";
import { pathId } from "../../lib/server/kernel/path-ids";
import { uploadRun } from "../../lib/server/scoring/runs";
import { type ActorKey, world } from "./world";

const session = vi.hoisted(() => ({ actor: null as unknown, db: null as unknown }));
vi.mock("@/lib/auth/session", () => ({
  getActor: async () => session.actor,
  requireUserPage: async () => {
    if (!session.actor) throw new Error("signed out");
    return session.actor;
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

const swords = await import("../../app/api/projects/[projectId]/judgement/[roundId]/swords/route");
const extended = await import("../../app/api/projects/[projectId]/judgement/[roundId]/extended-gold/route");
const gold = await import("../../app/api/projects/[projectId]/gold/route");
const agreement = await import("../../app/api/projects/[projectId]/agreement/route");
const datasets = await import("../../app/api/projects/[projectId]/datasets/route");
const flags = await import("../../app/api/projects/[projectId]/flags/route");
const responses = await import("../../app/api/projects/[projectId]/responses/route");
const runFile = await import("../../app/api/projects/[projectId]/scoring/runs/[runId]/file/route");
const runReport = await import("../../app/api/projects/[projectId]/scoring/runs/[runId]/report/route");
const scores = await import("../../app/api/projects/[projectId]/scoring/scores/route");
const trainingPage = await import("../../app/annotate/[projectId]/training/page");
const crowd = await import("../../app/api/projects/[projectId]/crowd/[studyId]/download/route");
const { seedParticipant, seedStudy } = await import("../support/crowd");

function as(k: ActorKey) {
  const w = world();
  session.db = w.db as Db;
  session.actor = w.actor(k) as Actor;
  return w;
}

function round(w: ReturnType<typeof world>): number {
  const id = createRound(w.db, SYSTEM, w.p.id, { selection: "any", sampleSize: 2, seed: 1, sources: ["annotators"], allowOwnItems: true }).id;
  setJudges(w.db, SYSTEM, id, [w.ann.userId]);
  return id;
}

type Get = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const get = (route: { GET: unknown }, params: Record<string, string>, query = "") =>
  (route.GET as Get)(new Request(`http://lexgold.test/api/x${query}`), { params: Promise.resolve(params) });

/** A header value as a client reads it: one line, and the file name it names. */
function expectSafeDisposition(res: Response, fileName: RegExp) {
  const cd = res.headers.get("content-disposition") ?? "";
  expect(cd).not.toMatch(/[\r\n\u0000]/);
  expect(cd).toMatch(/^attachment; filename="[^"\\]*"(; filename\*=UTF-8''[A-Za-z0-9%._~!$&+^`|-]+)?$/);
  expect(decodeURIComponent(/filename="([^"]*)"/.exec(cd)![1])).toMatch(fileName);
}

describe("finding 12: ids from the path never reach a header", () => {
  it.each(["1\n", "1\r\nSet-Cookie: x=y", " 1", "1 ", "1e0", "0x1", "01", "+1", "1.0", "", "-1", "9".repeat(20)])("a round id of %j is refused with 400 (not a 500), on both round downloads", async (bad) => {
    const w = as("coordinator");
    round(w);
    for (const route of [swords, extended]) {
      const res = await get(route, { projectId: String(w.p.id), roundId: bad });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toBe("Not a round id.");
      expect(res.headers.get("content-disposition")).toBeNull();
    }
  });

  it("a good round id gives a download named after the number", async () => {
    const w = as("coordinator");
    const id = round(w);
    const res = await get(swords, { projectId: String(w.p.id), roundId: String(id) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="judgement-${id}.swords.json"`);
    expectSafeDisposition(await get(extended, { projectId: String(w.p.id), roundId: String(id) }), new RegExp(`^judgement-${id}\\.extended\\.gold$`));
  });

  it("a project id with a line break is 'No such project' (404) on every project download", async () => {
    const w = as("coordinator");
    for (const [route, query] of [
      [gold, "?kind=gold"],
      [agreement, "?file=json"],
      [datasets, "?format=tsar"],
      [flags, ""],
      [responses, ""],
    ] as const) {
      const res = await get(route, { projectId: `${w.p.id}\n` }, query);
      expect(res.status, String(query)).toBe(404);
      expect(res.headers.get("content-disposition")).toBeNull();
    }
  });

  it("every download's Content-Disposition is one safe line, whatever the names hold", async () => {
    const w = as("coordinator");
    w.db.$client.prepare("update projects set name = ? where id = ?").run('p "quoted"\nname\u0000 ü', w.p.id);
    const run = uploadRun(w.db, SYSTEM, w.p.id, { fileName: 'evil"\r\nX-Injected: 1.best', bytes: new TextEncoder().encode("bright.a p1 :: shining\n") }).run.id;
    const study = seedStudy(w.db, w.p.id, { name: 'wave "1"\r\nX-Injected: 1' });
    seedParticipant(w.db, study, "5f0a00000000000000000001", { refs: [w.ref.p1] });
    const pid = String(w.p.id);
    const downloads: Array<[{ GET: unknown }, Record<string, string>, string]> = [
      [gold, { projectId: pid }, "?kind=gold"],
      [agreement, { projectId: pid }, "?file=json"],
      [datasets, { projectId: pid }, "?format=tsar"],
      [flags, { projectId: pid }, ""],
      [responses, { projectId: pid }, ""],
      [runFile, { projectId: pid, runId: String(run) }, ""],
      [runReport, { projectId: pid, runId: String(run) }, ""],
      [scores, { projectId: pid }, ""],
      ...(["prolific-approve", "prolific-bonus", "mturk", "tsv"].map((f) => [crowd, { projectId: pid, studyId: String(study) }, `?file=${f}`]) as Array<[{ GET: unknown }, Record<string, string>, string]>),
    ];
    for (const [route, params, query] of downloads) {
      const res = await get(route, params, query);
      expect(res.status, `${JSON.stringify(params)}${query}`).toBe(200);
      expectSafeDisposition(res, /./);
      expect(res.headers.get("x-injected")).toBeNull();
    }
  });

  it("attachmentDisposition: RFC 6266, filename* for names beyond Latin-1, no control characters", () => {
    expect(attachmentDisposition("p-gold.tsv")).toBe('attachment; filename="p-gold.tsv"');
    expect(attachmentDisposition("a\nb")).toBe('attachment; filename="ab"');
    expect(attachmentDisposition('say "hi".tsv')).toBe('attachment; filename="say \\"hi\\".tsv"');
    expect(attachmentDisposition("日本.tsv")).toBe("attachment; filename=\"??.tsv\"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.tsv");
    expect(attachmentDisposition("\r\n")).toBe('attachment; filename="download"');
    expect([pathId("12"), pathId("1\n"), pathId("012"), pathId("1e3")]).toEqual([12, null, null, null]);
  });
});

describe("finding 12: the training page is a 404 to non-members", () => {
  const page = (w: ReturnType<typeof world>, projectId: string) => trainingPage.default({ params: Promise.resolve({ projectId }) });

  it.each(["annotatorOfOther", "coordinatorOfOther"] as const)("%s: 404, the same as for no project at all", async (k) => {
    const w = as(k);
    await expect(page(w, String(w.p.id))).rejects.toThrow("NEXT_NOT_FOUND");
    await expect(page(w, "99999")).rejects.toThrow("NEXT_NOT_FOUND");
    await expect(page(w, "1\n")).rejects.toThrow("NEXT_NOT_FOUND");
  });

  it("a member still gets the page (here: the project has no training items)", async () => {
    const w = as("annotator");
    await expect(page(w, String(w.p.id))).resolves.toBeTruthy();
  });
});

describe("the crowd study downloads (issue #32)", () => {
  const file = async (k: ActorKey, studyId: (w: ReturnType<typeof world>, study: number) => string, query = "?file=tsv") => {
    const w = as(k);
    const study = seedStudy(w.db, w.p.id, { name: "pilot" });
    seedParticipant(w.db, study, "5f0a00000000000000000001", { refs: [w.ref.p1] });
    return get(crowd, { projectId: String(w.p.id), studyId: studyId(w, study) }, query);
  };

  it.each([
    ["signedOut", 401],
    ["annotatorOfOther", 403],
    ["annotator", 403],
    ["coordinatorOfOther", 404],
    ["coordinator", 200],
  ] as const)("%s: %i, and no file unless allowed", async (k, status) => {
    const res = await file(k, (_w, s) => String(s));
    expect(res.status).toBe(status);
    if (status !== 200) expect(res.headers.get("content-disposition")).toBeNull();
    else expect(await res.text()).toMatch(/^platform_id\t[^\n]*\n5f0a00000000000000000001\t/);
  });

  it("a study id with a line break, of another project, or unknown is 404; an unknown file 400", async () => {
    for (const bad of ["1\n", "01", "99999"]) {
      const res = await file("coordinator", () => bad);
      expect(res.status, JSON.stringify(bad)).toBe(404);
      expect(res.headers.get("content-disposition")).toBeNull();
    }
    const w = as("coordinator");
    const theirs = seedStudy(w.db, w.q.id, { name: "murky" });
    expect((await get(crowd, { projectId: String(w.p.id), studyId: String(theirs) }, "?file=tsv")).status).toBe(404);
    expect((await file("coordinator", (_w, s) => String(s), "?file=everything")).status).toBe(400);
  });
});

const release = await import("../../app/api/projects/[projectId]/releases/[releaseId]/route");
const health = await import("../../app/api/health/route");
const { createRelease } = await import("../../lib/server/releases/releases");

describe("a release's download (issue #42)", () => {
  const download = async (k: ActorKey, releaseId: (w: ReturnType<typeof world>, p: number, q: number) => string) => {
    const w = as(k);
    const p = (await createRelease(w.db, SYSTEM, w.p.id, { version: "1.0.0" })).id;
    const q = (await createRelease(w.db, SYSTEM, w.q.id, { version: "1.0.0" })).id;
    return get(release, { projectId: String(w.p.id), releaseId: releaseId(w, p, q) });
  };

  it.each([
    ["signedOut", 401],
    ["annotatorOfOther", 403],
    ["annotator", 403],
    ["coordinatorOfOther", 404],
    ["coordinator", 200],
  ] as const)("%s: %i, and no archive unless allowed", async (k, status) => {
    const res = await download(k, (_w, p) => String(p));
    expect(res.status).toBe(status);
    if (status !== 200) {
      expect(res.headers.get("content-disposition")).toBeNull();
      return;
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const { createHash } = await import("node:crypto");
    expect(res.headers.get("x-checksum-sha256")).toBe(createHash("sha256").update(bytes).digest("hex"));
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="p-1.0.0.tar.gz"');
  });

  it("another project's release, an unknown one or a malformed id is 404, with no archive", async () => {
    for (const pick of [(_w: unknown, _p: number, q: number) => String(q), () => "99999", () => "1\n", () => "01"]) {
      const res = await download("coordinator", pick);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-disposition")).toBeNull();
    }
  });

  it("the health check answers anyone with {ok} and nothing else", async () => {
    for (const k of ["signedOut", "annotator", "coordinator"] as const) {
      as(k);
      const res = (health.GET as () => Response)();
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true });
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });
});
