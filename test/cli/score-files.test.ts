/** bin/commands/score-files.ts's line reader: every line once, whole, however the file falls into chunks. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FileReadError, forEachLine } from "../../bin/commands/score-files";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-lines-"));

async function lines(text: string | Buffer): Promise<string[]> {
  const p = path.join(dir, `f${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(p, text);
  const out: string[] = [];
  await forEachLine(p, (l) => out.push(l));
  return out;
}

describe("forEachLine", () => {
  it("gives each line without its newline, keeps a \\r, and a last line without a newline", async () => {
    expect(await lines("")).toEqual([]);
    expect(await lines("a\n")).toEqual(["a"]);
    expect(await lines("a\r\nb\n\nc")).toEqual(["a\r", "b", "", "c"]);
    expect(await lines("\n\n")).toEqual(["", ""]);
  });

  it("never cuts a character or a line at a chunk's edge, for every offset around the edges", async () => {
    // Multi-byte characters (2, 3 and 4 bytes) on lines of varied length, well past several 64 KiB chunks.
    const words = ["é", "ñandú", "曖昧", "𝄞clef", "plain", "x".repeat(70_000), "über-leicht"];
    const want: string[] = [];
    for (let i = 0; i < 700; i++) want.push(`${words[i % words.length]} ${i} ${"ä".repeat(i % 37)}`);
    for (const shift of [0, 1, 2, 3]) {
      const text = "#".repeat(shift) + want.join("\n") + "\n";
      const got = await lines(text);
      expect(got.length).toBe(want.length);
      expect(got[0]).toBe("#".repeat(shift) + want[0]);
      expect(got.slice(1)).toEqual(want.slice(1));
    }
  });

  it("reads a single line longer than many chunks whole", async () => {
    const long = "ö".repeat(300_000);
    expect(await lines(`${long}\nend`)).toEqual([long, "end"]);
    expect(await lines(long)).toEqual([long]);
  });

  it("names the file it cannot read", async () => {
    await expect(forEachLine(path.join(dir, "absent"), () => {}, "answers.best")).rejects.toThrow(new FileReadError("cannot read answers.best: no such file"));
    await expect(forEachLine(dir, () => {}, "gold")).rejects.toThrow(/cannot read gold: is a directory/);
  });

  it("lets an error thrown by the caller through as it is", async () => {
    const p = path.join(dir, "two");
    fs.writeFileSync(p, "a\nb\n");
    const seen: string[] = [];
    const boom = new Error("refused");
    await expect(
      forEachLine(p, (l) => {
        seen.push(l);
        throw boom;
      }),
    ).rejects.toBe(boom);
    expect(seen).toEqual(["a"]);
  });
});
