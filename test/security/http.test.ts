/**
 * Route handlers' request checks (findings 7 and 9):
 *  - upload limits hold while the stream is read, whatever Content-Length says
 *    (a chunked upload with no length, or a length that lies);
 *  - the origin check believes the configured public URL, never X-Forwarded-Host
 *    or Host from an untrusted client, and a POST with no Origin is refused.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../db/client";
import type { Actor } from "../../lib/server/kernel/actor";
import { assertSameOrigin } from "../../lib/server/kernel/http";
import { world } from "./world";

const session = vi.hoisted(() => ({ actor: null as unknown, db: null as unknown }));
vi.mock("@/lib/auth/session", () => ({ getActor: async () => session.actor }));
vi.mock("@/lib/db", () => ({ getDb: () => session.db }));

const importRoute = await import("../../app/api/projects/[projectId]/import/route");
const responsesRoute = await import("../../app/api/projects/[projectId]/responses/route");

const saved = { url: process.env.NEXTAUTH_URL, limit: process.env.LEXGOLD_MAX_IMPORT_BYTES, proxy: process.env.LEXGOLD_TRUSTED_PROXY };
beforeEach(() => {
  process.env.NEXTAUTH_URL = "http://lexgold.test:3000";
  delete process.env.LEXGOLD_TRUSTED_PROXY;
});
afterEach(() => {
  for (const [k, v] of [["NEXTAUTH_URL", saved.url], ["LEXGOLD_MAX_IMPORT_BYTES", saved.limit], ["LEXGOLD_TRUSTED_PROXY", saved.proxy]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** A multipart body of `total` bytes, made as it is read; `pulled` counts what the server asked for. */
function endlessUpload(total: number) {
  const boundary = "----lexgold-test";
  const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.xml"\r\nContent-Type: application/xml\r\n\r\n`);
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  const counter = { pulled: 0 };
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = sent === 0 ? head : chunk;
      sent += piece.byteLength;
      counter.pulled = sent;
      controller.enqueue(piece);
      if (sent >= total) controller.close();
    },
  });
  return { body, boundary, counter };
}

function setUp() {
  const w = world();
  session.db = w.db as Db;
  session.actor = w.coord as Actor;
  return w;
}

describe("finding 7: upload limits are enforced while reading", () => {
  it.each([
    ["no Content-Length (chunked)", null],
    ["a Content-Length that lies", "1000"],
  ])("a 25 MB lexelt upload with %s is refused (413) after reading little more than the limit", async (_what, length) => {
    const w = setUp();
    process.env.LEXGOLD_MAX_IMPORT_BYTES = String(1024 * 1024);
    const { body, boundary, counter } = endlessUpload(25 * 1024 * 1024);
    const headers: Record<string, string> = { origin: "http://lexgold.test:3000", "content-type": `multipart/form-data; boundary=${boundary}` };
    if (length) headers["content-length"] = length;
    const req = new Request(`http://lexgold.test:3000/api/projects/${w.p.id}/import`, { method: "POST", headers, body, duplex: "half" } as RequestInit);
    const res = await importRoute.POST(req, { params: Promise.resolve({ projectId: String(w.p.id) }) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/over the import limit/);
    expect(counter.pulled).toBeLessThan(2 * 1024 * 1024);
  });

  it("an upload within the limit is read and imported as before", async () => {
    const w = setUp();
    const post = async (fields: Record<string, string>, query = "") => {
      const form = new FormData();
      form.append("file", new File(["annotator\tlexelt\tinstance\tanswer\tmultiword\nann\tbright.a\tp2\tclever\t\n"], "r.tsv"));
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      const req = new Request(`http://lexgold.test:3000/api/projects/${w.p.id}/responses${query}`, { method: "POST", headers: { origin: "http://lexgold.test:3000" }, body: form });
      const res = await responsesRoute.POST(req, { params: Promise.resolve({ projectId: String(w.p.id) }) });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as { preview?: { add: number; token: string }; report?: { message: string } };
    };
    // Previewed first (nothing written), then confirmed with the preview's token (a job; ?wait=1 answers when it ends).
    const { preview } = await post({});
    expect(preview?.add).toBe(1);
    expect(w.db.$client.prepare("select count(*) as n from responses where substitutes like '%clever%'").get()).toEqual({ n: 0 });
    const { report } = await post({ mode: "confirm", token: preview!.token }, "?wait=1");
    expect(report?.message).toMatch(/added 1/);
    // Stored as typed, and exported again (the spreadsheet rule itself: test/lexsub/spreadsheet.test.ts).
    const tsv = await (await responsesRoute.GET(new Request("http://lexgold.test:3000/x"), { params: Promise.resolve({ projectId: String(w.p.id) }) })).text();
    expect(tsv).toContain("ann\tbright.a\tp2\tclever\t");
    const stored = w.db.$client.prepare("select substitutes from responses where substitutes like '%clever%'").get() as { substitutes: string };
    expect(JSON.parse(stored.substitutes)).toEqual(["clever"]);
  });
});

describe("finding 9: origin checks", () => {
  const post = (headers: Record<string, string>) => new Request("http://lexgold.test:3000/api/x", { method: "POST", headers });
  const refused = (req: Request) => {
    try {
      assertSameOrigin(req);
      return false;
    } catch {
      return true;
    }
  };

  it("says why, naming the setting and the address it expects", () => {
    const message = (req: Request) => {
      try {
        assertSameOrigin(req);
        return "";
      } catch (e) {
        return (e as Error).message;
      }
    };
    const saved = { NEXTAUTH_URL: process.env.NEXTAUTH_URL, LEXGOLD_PUBLIC_URL: process.env.LEXGOLD_PUBLIC_URL };
    try {
      process.env.NEXTAUTH_URL = "https://lexgold.example.org/";
      delete process.env.LEXGOLD_PUBLIC_URL;
      expect(message(post({ origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" }))).toBe(
        "Cross-site request refused: it was sent from a page at http://127.0.0.1:3000, but NEXTAUTH_URL says lexgold is served at https://lexgold.example.org. " +
          "Open lexgold at https://lexgold.example.org, or set NEXTAUTH_URL to the address you use.",
      );
      process.env.LEXGOLD_PUBLIC_URL = "https://study.example.org";
      expect(message(post({ origin: "http://127.0.0.1:3000" }))).toMatch(/but LEXGOLD_PUBLIC_URL says lexgold is served at https:\/\/study\.example\.org\./);
      delete process.env.NEXTAUTH_URL;
      delete process.env.LEXGOLD_PUBLIC_URL;
      expect(message(post({ origin: "http://evil.example", host: "lexgold.test:3000" }))).toBe("Cross-site request refused: it was sent from a page at http://evil.example, not from this site (lexgold.test:3000).");
      expect(message(post({ host: "lexgold.test:3000" }))).toMatch(/^Cross-site request refused: it names no page it was sent from/);
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it("the configured public URL decides, not Host or X-Forwarded-Host", () => {
    expect(refused(post({ origin: "http://lexgold.test:3000", host: "lexgold.test:3000" }))).toBe(false);
    expect(refused(post({ origin: "http://evil.example", host: "evil.example" }))).toBe(true);
    expect(refused(post({ origin: "http://evil.example", host: "lexgold.test:3000", "x-forwarded-host": "evil.example" }))).toBe(true);
  });

  it("without a configured URL, X-Forwarded-Host counts only from a trusted proxy", () => {
    delete process.env.NEXTAUTH_URL;
    const spoofed = { origin: "http://evil.example", host: "lexgold.test:3000", "x-forwarded-host": "evil.example", "x-lexgold-peer": "192.0.2.1" };
    expect(refused(post(spoofed))).toBe(true);
    process.env.LEXGOLD_TRUSTED_PROXY = "10.0.0.1";
    expect(refused(post({ ...spoofed, origin: "https://lexgold.example", "x-forwarded-host": "lexgold.example", "x-lexgold-peer": "10.0.0.1" }))).toBe(false);
  });

  it("a POST with no Origin (a Referer is not enough) is refused", () => {
    expect(refused(post({ host: "lexgold.test:3000" }))).toBe(true);
    expect(refused(post({ host: "lexgold.test:3000", referer: "http://lexgold.test:3000/projects" }))).toBe(true);
    expect(refused(post({ host: "lexgold.test:3000", origin: "null" }))).toBe(true);
  });
});
