/**
 * The save route (POST /api/projects/P/responses/I, what the workspace's
 * "Save & next" sends) × actor, with the same checks the server action had:
 * same origin, the session's user, membership, assignment, the input and the
 * revision. A refusal answers { ok: false, message } with its status and
 * writes nothing; an acknowledged save is stored once.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import type { Actor } from "../../lib/server/kernel/actor";
import { setAssignments } from "../../lib/server/annotate/assignments";
import { ACTORS, type ActorKey, dump, NIL, parseExpect, type World, world } from "./world";

const session = vi.hoisted(() => ({ actor: null as unknown, db: null as unknown }));
vi.mock("@/lib/auth/session", () => ({ getActor: async () => session.actor }));
vi.mock("@/lib/db", () => ({ getDb: () => session.db }));

const route = await import("../../app/api/projects/[projectId]/responses/[instanceRef]/route");

const ORIGIN = "http://lexgold.test:3000";
const saved = { url: process.env.NEXTAUTH_URL, proxy: process.env.LEXGOLD_TRUSTED_PROXY };
beforeEach(() => {
  process.env.NEXTAUTH_URL = ORIGIN;
  delete process.env.LEXGOLD_TRUSTED_PROXY;
  session.actor = null;
  session.db = null;
});
afterEach(() => {
  for (const [k, v] of [["NEXTAUTH_URL", saved.url], ["LEXGOLD_TRUSTED_PROXY", saved.proxy]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

function as(w: World, k: ActorKey) {
  session.db = w.db as Db;
  session.actor = w.actor(k) as Actor;
}

const VIVID = { kind: "substitutes", substitutes: ["vivid", "", ""], multiword: false, phrase: "" };

async function post(
  projectId: number | string,
  instanceRef: number | string,
  body: unknown,
  opts: { origin?: string | null; contentType?: string; raw?: string } = {},
): Promise<{ status: number; body: { ok: boolean; message?: string; revision?: number; errors?: Record<string, string>; conflict?: unknown; upcoming?: unknown[] } }> {
  const headers: Record<string, string> = { "content-type": opts.contentType ?? "application/json" };
  const origin = opts.origin === undefined ? ORIGIN : opts.origin;
  if (origin !== null) headers.origin = origin;
  const req = new Request(`${ORIGIN}/api/projects/${projectId}/responses/${instanceRef}`, {
    method: "POST",
    headers,
    body: opts.raw ?? JSON.stringify(body),
  });
  const res = await route.POST(req, { params: Promise.resolve({ projectId: String(projectId), instanceRef: String(instanceRef) }) });
  return { status: res.status, body: (await res.json()) as never };
}

const OWN_WORK = "401 404 200 404 200 -";

describe("POST /api/projects/P/responses/I × actor (the actor comes from the session only)", () => {
  const want = parseExpect(OWN_WORK.replaceAll("200", "ok"));
  for (const k of ACTORS.filter((k) => k !== "system")) {
    it(`${k}: ${want[k]}`, async () => {
      const w = world();
      as(w, k);
      const before = dump(w.db);
      const r = await post(w.p.id, w.ref.p2, { response: VIVID, expectedRevision: 0, activeMs: 1200 });
      if (want[k] === "ok") {
        expect(r.status, r.body.message).toBe(200);
        expect(r.body).toMatchObject({ ok: true, revision: 1, response: { kind: "substitutes", substitutes: ["vivid"], revision: 1 } });
        const uid = (w.actor(k) as { userId: number }).userId;
        // (activeMs is the server's own measure, not the body's: test/security/info-leaks.test.ts.)
        const rows = w.db.$client.prepare("select substitutes from responses where instance_ref = ? and user_id = ?").all(w.ref.p2, uid);
        expect(rows).toEqual([{ substitutes: '["vivid"]' }]);
      } else {
        expect(r.status).toBe(Number(want[k]));
        expect(r.body.ok).toBe(false);
        expect(dump(w.db)).toEqual(before);
      }
    });
  }
});

describe("the save route refuses, and writes nothing", () => {
  async function refused(w: World, call: () => ReturnType<typeof post>, status: number, message?: RegExp) {
    const before = dump(w.db);
    const r = await call();
    expect(r.status, r.body.message).toBe(status);
    expect(r.body.ok).toBe(false);
    if (message) expect(r.body.message).toMatch(message);
    expect(dump(w.db)).toEqual(before);
  }

  it("another project's instance, through p or through q, and a project that does not exist: 404", async () => {
    const w = world();
    as(w, "annotator");
    await refused(w, () => post(w.p.id, w.ref.q2, { response: NIL, expectedRevision: 0 }), 404, /No such instance/);
    await refused(w, () => post(w.q.id, w.ref.q2, { response: NIL, expectedRevision: 0 }), 404, /No such project/);
    await refused(w, () => post(9999, w.ref.p2, { response: NIL, expectedRevision: 0 }), 404, /No such project/);
    await refused(w, () => post("x", "y", { response: NIL, expectedRevision: 0 }), 404);
  });

  it("an instance of a lexelt not assigned to the annotator: 403", async () => {
    const w = world();
    const keen = (w.db.$client.prepare("select id from lexelts where project_id = ? and lemma = 'keen'").get(w.p.id) as { id: number }).id;
    setAssignments(w.db, w.coord, w.p.id, w.ann.userId, [keen]);
    as(w, "annotator");
    await refused(w, () => post(w.p.id, w.ref.p2, { response: VIVID, expectedRevision: 0 }), 403, /not assigned to you/);
  });

  it("a cross-site request, and one with no Origin: 403, even for the signed-in annotator", async () => {
    const w = world();
    as(w, "annotator");
    await refused(w, () => post(w.p.id, w.ref.p2, { response: VIVID, expectedRevision: 0 }, { origin: "https://evil.example" }), 403, /Cross-site/);
    await refused(w, () => post(w.p.id, w.ref.p2, { response: VIVID, expectedRevision: 0 }, { origin: null }), 403, /Cross-site/);
  });

  it("a stale revision: 409 with the stored answer", async () => {
    const w = world();
    as(w, "annotator");
    const before = dump(w.db);
    const r = await post(w.p.id, w.ref.p1, { response: VIVID, expectedRevision: 0 });
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({ ok: false, conflict: { substitutes: ["shining", "sunny"], revision: 1 } });
    expect(dump(w.db)).toEqual(before);
  });

  it("bad input: field errors, not JSON, not an object, a form post, an oversized body: 400 / 413", async () => {
    const w = world();
    as(w, "annotator");
    const dup = { kind: "substitutes", substitutes: ["vivid", "vivid", ""], multiword: false, phrase: "" };
    const before = dump(w.db);
    const r = await post(w.p.id, w.ref.p2, { response: dup, expectedRevision: 0 });
    expect(r.status).toBe(400);
    expect(Object.keys(r.body.errors ?? {})).toEqual(["substitute2"]);
    expect(dump(w.db)).toEqual(before);
    await refused(w, () => post(w.p.id, w.ref.p2, null, { raw: "{not json" }), 400, /not valid JSON/);
    await refused(w, () => post(w.p.id, w.ref.p2, [NIL, 0]), 400, /JSON object/);
    await refused(w, () => post(w.p.id, w.ref.p2, null, { raw: "kind=NIL", contentType: "application/x-www-form-urlencoded" }), 400, /must be JSON/);
    await refused(w, () => post(w.p.id, w.ref.p2, { response: NIL }), 400, /expectedRevision/);
    await refused(w, () => post(w.p.id, w.ref.p2, { response: NIL, expectedRevision: 0, pad: "x".repeat(70 * 1024) }), 413, /over 64 KiB/);
  });

  it("the same save sent twice: the second is refused as stale, so the answer is stored once", async () => {
    const w = world();
    as(w, "annotator");
    const body = { response: VIVID, expectedRevision: 0 };
    expect((await post(w.p.id, w.ref.p2, body)).status).toBe(200);
    expect((await post(w.p.id, w.ref.p2, body)).status).toBe(409);
    const n = w.db.$client.prepare("select count(*) as n from response_history where instance_ref = ? and user_id = ?").get(w.ref.p2, w.ann.userId) as { n: number };
    expect(n.n).toBe(1);
  });
});
