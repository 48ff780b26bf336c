/**
 * lib/server/kernel/stream.ts (issue #14): downloads sent in slices carry exactly the
 * bytes the old whole-body responses did, and JSON written piece by piece is
 * JSON.stringify's text.
 */
import { describe, expect, it } from "vitest";
import { SLICE, jsonChunks, streamedJson, streamedResponse, stringSlices, textStream } from "../../../lib/server/kernel/stream";

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<{ bytes: Uint8Array; slices: number }> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    parts.push(r.value);
  }
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) bytes.set(p, at), (at += p.length);
  return { bytes, slices: parts.length };
}

describe("textStream and stringSlices", () => {
  it("send a large text in slices whose bytes equal the text's UTF-8", async () => {
    // A gold-like file with non-ASCII forms and an astral character at a slice boundary.
    const lines: string[] = [""];
    for (let i = 0; i < 20_000; i++) lines.push(`bright.a ${i} :: brilliant 3;luminoso ${i % 7};cafe\u0301 1;`);
    let text = lines.join("\n") + "\n";
    text = "x".repeat(SLICE - 1) + "\u{1F600}" + text;
    const { bytes, slices } = await bytesOf(textStream(stringSlices(text)));
    expect(slices).toBeGreaterThan(10);
    expect(Buffer.from(bytes).equals(Buffer.from(text, "utf8"))).toBe(true);
    for (const s of stringSlices(text)) expect(s.length).toBeLessThanOrEqual(SLICE + 1);
  });

  it("an empty text is an empty body", async () => {
    expect((await bytesOf(textStream(stringSlices("")))).bytes.length).toBe(0);
    expect(await streamedResponse(stringSlices(""), { "Content-Type": "text/plain" }).text()).toBe("");
  });

  it("a response carries the headers and the text", async () => {
    const r = streamedResponse(stringSlices("a\tb\n"), { "Content-Type": "text/tab-separated-values; charset=utf-8", "Content-Disposition": 'attachment; filename="p.tsv"' });
    expect(r.headers.get("content-type")).toBe("text/tab-separated-values; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(await r.text()).toBe("a\tb\n");
  });
});

describe("jsonChunks", () => {
  const cases: unknown[] = [
    null,
    0,
    -1.5,
    NaN,
    "quote \" and \\ and \u2028 and é",
    [],
    {},
    [1, undefined, () => 1, null, "x"],
    { a: undefined, b: () => 1, c: 1, "d e": [{ f: new Date(Date.UTC(2026, 10, 23, 21, 0, 0)) }] },
    { ok: true, detail: { items: Array.from({ length: 500 }, (_, i) => ({ id: `w${i}`, score: i / 7, gold: ["a", "b"], missing: i % 2 ? null : undefined })) } },
    Object.assign(Object.create(null), { z: 1 }),
  ];
  it.each(cases.map((c, i) => [i, c]))("case %i is JSON.stringify's text", (_, c) => {
    expect([...jsonChunks(c)].join("")).toBe(JSON.stringify(c));
  });

  it("streamedJson's body equals Response.json's", async () => {
    const value = cases[9];
    const a = await streamedJson(value).text();
    const b = await Response.json(value).text();
    expect(a).toBe(b);
    expect(streamedJson(value).headers.get("content-type")).toBe("application/json");
  });
});
