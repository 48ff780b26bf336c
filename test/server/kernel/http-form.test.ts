/**
 * lib/server/kernel/http.ts readFormLimited: a multipart upload parsed as it arrives
 * gives the same form a browser sent — files with their names, types and bytes
 * (several under one name in order; an empty file input), fields — and is
 * refused past the limit, declared or not, or when it is not a form.
 */
import { describe, expect, it } from "vitest";
import { InputError } from "../../../lib/server/kernel/errors";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TooLargeError, readFormLimited, saveUpload, uploadBytes } from "../../../lib/server/kernel/http";

/** A request carrying `form` as multipart, its body streamed in chunks of `chunk` bytes (no Content-Length when `chunked`). */
async function multipart(form: FormData, opts: { chunk?: number; chunked?: boolean } = {}): Promise<Request> {
  const encoded = new Response(form);
  const type = encoded.headers.get("content-type")!;
  const bytes = new Uint8Array(await encoded.arrayBuffer());
  const chunk = opts.chunk ?? 1000;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < bytes.byteLength; i += chunk) c.enqueue(bytes.slice(i, i + chunk));
      c.close();
    },
  });
  const headers: Record<string, string> = { "content-type": type };
  if (!opts.chunked) headers["content-length"] = String(bytes.byteLength);
  return new Request("http://x/upload", { method: "POST", body, headers, duplex: "half" } as RequestInit);
}

describe("readFormLimited", () => {
  it("gives the files, in order, and the fields of a multipart body streamed in small chunks", async () => {
    const big = "lexelt.n 1 :: naïve;café\n".repeat(20_000);
    const sent = new FormData();
    sent.set("name", "run — one");
    sent.append("runs", new File([big], "first.best", { type: "text/plain" }));
    sent.append("runs", new File(["b"], "second.oot"));
    sent.set("empty", new File([], ""));
    sent.set("flag", "on");
    const got = await readFormLimited(await multipart(sent, { chunk: 997 }), 10 << 20, "too big");
    expect(got.get("name")).toBe("run — one");
    expect(got.get("flag")).toBe("on");
    const runs = got.getAll("runs") as File[];
    expect(runs.map((f) => f.name)).toEqual(["first.best", "second.oot"]);
    expect(await runs[0].text()).toBe(big);
    expect(runs[0].type).toBe("text/plain");
    expect(await runs[1].text()).toBe("b");
    const empty = got.get("empty") as File;
    expect(empty).toBeInstanceOf(File);
    expect([empty.name, empty.size]).toEqual(["", 0]);
  });

  it("refuses a body past the limit, whether Content-Length says so or not", async () => {
    const sent = new FormData();
    sent.set("file", new File(["x".repeat(5000)], "a.best"));
    await expect(readFormLimited(await multipart(sent), 4000, "over the limit")).rejects.toBeInstanceOf(TooLargeError);
    await expect(readFormLimited(await multipart(sent, { chunked: true }), 4000, "over the limit")).rejects.toThrow("over the limit");
  });

  it("refuses a body that is not a form, and still reads an urlencoded one", async () => {
    const broken = new Request("http://x/upload", { method: "POST", body: "--nope\r\nnot a part", headers: { "content-type": "multipart/form-data; boundary=zzz" } });
    await expect(readFormLimited(broken, 1 << 20, "too big")).rejects.toBeInstanceOf(InputError);
    const noBoundary = new Request("http://x/upload", { method: "POST", body: "x", headers: { "content-type": "multipart/form-data" } });
    await expect(readFormLimited(noBoundary, 1 << 20, "too big")).rejects.toBeInstanceOf(InputError);
    const urlencoded = new Request("http://x/upload", { method: "POST", body: "a=1&b=two", headers: { "content-type": "application/x-www-form-urlencoded" } });
    const got = await readFormLimited(urlencoded, 1 << 20, "too big");
    expect([got.get("a"), got.get("b")]).toEqual(["1", "two"]);
  });
});

describe("uploadBytes and saveUpload", () => {
  it("give an uploaded file's bytes exactly, read piece by piece, in memory or into a new private file", async () => {
    const sent = new FormData();
    const pieces = Array.from({ length: 300 }, (_, i) => `line ${i} ✓ ${"x".repeat(i % 17)}\n`).join("");
    sent.set("file", new File([pieces.repeat(40)], "r.tsv"));
    const file = (await readFormLimited(await multipart(sent, { chunk: 4093 }), 10 << 20, "too big")).get("file") as File;
    const expected = new TextEncoder().encode(pieces.repeat(40));
    expect(await uploadBytes(file)).toEqual(expected);
    expect(await uploadBytes(new File([], "empty"))).toEqual(new Uint8Array(0));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-upload-"));
    try {
      const to = path.join(dir, "upload");
      await saveUpload(file, to);
      expect(new Uint8Array(fs.readFileSync(to))).toEqual(expected);
      expect(fs.statSync(to).mode & 0o777).toBe(0o600);
      // Never over an existing file.
      await expect(saveUpload(file, to)).rejects.toThrow(/EEXIST/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
