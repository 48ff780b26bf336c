/**
 * The hand-over of every request but the save from a worker's main thread to its Next thread
 * (scripts/serve.mjs `nextThread`, scripts/next-thread.mjs), through scripts/serve.mjs with a
 * handler of the test's own (test/fixtures/echo-handler.mjs) in place of Next: the request arrives
 * as it was sent (method, path and query, headers, the peer stamped, a body), the answer comes back
 * as given (status and its text, repeated headers) without the inner connection's own headers, a
 * streamed answer streams, and a client that goes away takes its request with it.
 */
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killServed, serveWith, until } from "../../support/serve-process";

afterEach(killServed);

const start = () => serveWith(path.join("test", "fixtures", "echo-handler.mjs"), { LEXGOLD_WORKERS: "1" });

describe("a request handed to Next's thread", () => {
  it("arrives as sent, stamped with its peer, with its body", async () => {
    const s = await start();
    const body = "x".repeat(200_000);
    const r = await fetch(`${s.base}/echo?q=a%20b&r=1`, { method: "POST", body, headers: { "Content-Type": "text/plain", "X-Custom": "kept", Connection: "keep-alive" } });
    expect(r.status).toBe(200);
    const seen = (await r.json()) as { method: string; url: string; headers: Record<string, string>; body: string };
    expect(seen.method).toBe("POST");
    expect(seen.url).toBe("/echo?q=a%20b&r=1");
    expect(seen.body).toBe(body);
    expect(seen.headers["x-custom"]).toBe("kept");
    expect(seen.headers["content-type"]).toBe("text/plain");
    // The main thread stamped the socket's address (lib/net/trusted-proxy.ts) before handing it over.
    expect(seen.headers["x-lexgold-peer"]).toBe("127.0.0.1");
    expect(seen.headers["x-lexgold-peer-key"]).toBeTruthy();
  });

  it("answers as the handler did, every Set-Cookie kept, the inner connection's headers left behind", async () => {
    const s = await start();
    const r = await fetch(`${s.base}/cookies`);
    expect(r.status).toBe(201);
    expect(r.statusText).toBe("Made");
    expect(r.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    // The handler's Keep-Alive was about its own connection to the main thread, not the client's.
    expect(r.headers.get("keep-alive")).not.toBe("timeout=1");
    expect(await r.text()).toBe("two cookies");
  });

  it("streams, and a client that goes away ends its request in the thread", async () => {
    const s = await start();
    const first = await new Promise<{ text: string; req: http.ClientRequest }>((resolve, reject) => {
      const req = http.get(`${s.base}/stream`, (res) => res.once("data", (d: Buffer) => resolve({ text: d.toString(), req })));
      req.once("error", reject);
    });
    // The first chunk came while the answer is still open.
    expect(first.text).toBe("first\n");
    expect(await (await fetch(`${s.base}/held`)).text()).toBe("1");
    first.req.destroy();
    await until(async () => (await (await fetch(`${s.base}/held`)).text()) === "0", s.output);
    // So does one that goes away before any of the answer came (a prefetch given up), and neither is a
    // failure of the server's to log.
    const silent = http.get(`${s.base}/silent`);
    silent.once("error", () => {});
    await until(async () => (await (await fetch(`${s.base}/held`)).text()) === "1", s.output);
    silent.destroy();
    await until(async () => (await (await fetch(`${s.base}/held`)).text()) === "0", s.output);
    expect(s.output()).not.toContain("did not answer");
    // One that stays gets the rest.
    const whole = fetch(`${s.base}/stream`).then((r) => r.text());
    await until(async () => (await (await fetch(`${s.base}/held`)).text()) === "1", s.output);
    await fetch(`${s.base}/release`);
    expect(await whole).toBe("first\nrest\n");
  });

  it("runs below the main thread's priority, which serves the saves at the server's own", async () => {
    const s = await start();
    const own = os.getPriority();
    const seen = (await (await fetch(`${s.base}/nice`)).json()) as { nice: number; pid: number };
    // Linux keeps a nice value per thread: the main thread's id is its process's pid.
    expect(seen.nice).toBe(Math.max(3, own));
    expect(os.getPriority(seen.pid)).toBe(own);
  });
});
