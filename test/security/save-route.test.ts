/**
 * The save route (POST /api/projects/P/responses/I, what the workspace's
 * "Save & next" sends) × actor, with the same checks the server action had:
 * same origin, the session's user, membership, assignment, the input and the
 * revision. A refusal answers { ok: false, message } with its status and
 * writes nothing; an acknowledged save is stored once.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { stampRequest } from "../../lib/net/trusted-proxy";
import type { Db } from "../../db/client";
import type { Actor } from "../../lib/server/kernel/actor";
import { setAssignments } from "../../lib/server/annotate/assignments";
import { ACTORS, type ActorKey, dump, NIL, parseExpect, type World, world } from "./world";

const session = vi.hoisted(() => ({ actor: null as unknown, db: null as unknown }));
vi.mock("@/lib/auth/session", () => ({ getActor: async () => session.actor }));
vi.mock("@/lib/db", () => ({ getDb: () => session.db }));

const route = await import("../../app/api/projects/[projectId]/responses/[instanceRef]/route");
const { serveSave } = await import("../../lib/server/annotate/save-request");
const { isSaveRequest } = await import("../../lib/server/annotate/save-route");

/**
 * Every test below runs twice: through Next's route handler, and through the HTTP server before
 * Next on a real loopback server routed as scripts/serve.mjs routes it (`if (isSaveRequest(req))
 * return serveSave(req, res)`, lib/serve) — the same checks, statuses, bodies and rows either way.
 */
const VIAS = ["Next's route", "the server before Next"] as const;
let via: (typeof VIAS)[number] = VIAS[0];
const NEXT_HEADERS = { "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY" };
let server: http.Server;
let base = "";
beforeAll(async () => {
  server = http.createServer((req, res) => {
    stampRequest(req);
    if (isSaveRequest(req)) return void serveSave(req, res, { db: () => session.db as Db, session: () => ({ userId: null, actor: async () => session.actor as Actor }), headers: NEXT_HEADERS });
    res.writeHead(404, { ...NEXT_HEADERS, "Content-Type": "application/json" });
    res.end(JSON.stringify({ ok: false, message: "Not found." }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

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
  const init = { method: "POST", headers, body: opts.raw ?? JSON.stringify(body) };
  const path = `/api/projects/${projectId}/responses/${instanceRef}`;
  const res =
    via === VIAS[0]
      ? await route.POST(new Request(ORIGIN + path, init), { params: Promise.resolve({ projectId: String(projectId), instanceRef: String(instanceRef) }) })
      : await fetch(base + path, init);
  expect(res.headers.get("content-type")).toBe("application/json");
  if (via === VIAS[1]) expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  return { status: res.status, body: (await res.json()) as never };
}

for (const v of VIAS) {
  describe(`via ${v}`, () => {
    beforeEach(() => {
      via = v;
    });

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

    if (v === VIAS[1]) {
      describe("what only the server before Next meets", () => {
        /** A raw request on its own socket: what node's server answers, and whether it kept the connection. */
        function raw(request: string): Promise<string> {
          return new Promise((resolve, reject) => {
            const sock = net.connect((server.address() as AddressInfo).port, "127.0.0.1", () => sock.write(request));
            let got = "";
            sock.on("data", (d) => (got += d.toString("latin1")));
            sock.on("end", () => resolve(got));
            sock.on("error", reject);
            sock.setTimeout(5000, () => (sock.destroy(), reject(new Error(`no end; got ${JSON.stringify(got.slice(0, 200))}`))));
          });
        }
        const head = (path: string, extra: string) =>
          `POST ${path} HTTP/1.1\r\nHost: lexgold.test:3000\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\n${extra}`;

        it("a chunked body that passes 64 KiB with no Content-Length: 413, nothing stored, and the connection closed", async () => {
          const w = world();
          as(w, "annotator");
          const before = dump(w.db);
          const chunk = "x".repeat(16 * 1024);
          const chunks = Array.from({ length: 6 }, () => `${chunk.length.toString(16)}\r\n${chunk}\r\n`).join("");
          const got = await raw(head(`/api/projects/${w.p.id}/responses/${w.ref.p2}`, "Transfer-Encoding: chunked\r\n\r\n") + chunks);
          expect(got).toMatch(/^HTTP\/1\.1 413 /);
          expect(got).toMatch(/\r\nconnection: close\r\n/i);
          expect(got).toMatch(/over 64 KiB/);
          expect(dump(w.db)).toEqual(before);
        });

        it("an answer sent before the body is read (401) leaves the connection fit for the next request", async () => {
          const w = world();
          session.db = w.db as Db;
          session.actor = null;
          const body = JSON.stringify({ response: VIVID, expectedRevision: 0 });
          const one = head(`/api/projects/${w.p.id}/responses/${w.ref.p2}`, `Content-Length: ${body.length}\r\n\r\n`) + body;
          const last = one.replace("Content-Type:", "Connection: close\r\nContent-Type:");
          const got = await raw(one + last);
          expect(got.match(/HTTP\/1\.1 401 /g)).toHaveLength(2);
        });

        it("the ids come from the path only: a query is ignored, another method is not served", async () => {
          const w = world();
          as(w, "annotator");
          const r = await fetch(`${base}/api/projects/${w.p.id}/responses/${w.ref.p2}?projectId=999`, {
            method: "POST",
            headers: { "content-type": "application/json", origin: ORIGIN },
            body: JSON.stringify({ response: VIVID, expectedRevision: 0 }),
          });
          expect(r.status).toBe(200);
          const g = await fetch(`${base}/api/projects/${w.p.id}/responses/${w.ref.p2}`);
          expect(g.status).toBe(404);
        });
      });
    }
  });
}
