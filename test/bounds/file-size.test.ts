/**
 * No source file grows past MAX_LINES unless its opening comment says why it stays whole
 * ("Why one file over 600 lines: …"): a newcomer reads a file at a sitting.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const MAX_LINES = 600;
const REASON = /Why one file over 600 lines:/;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== "node_modules" && e.name !== "migrations") out.push(...sources(rel));
    } else if (/\.(ts|tsx|mjs|cjs)$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** The file's opening block comment (after a "use client"/"use server" line), or "". */
function openingComment(text: string): string {
  const m = /^(?:\s*["']use (?:client|server)["'];?\s*)?\s*\/\*([\s\S]*?)\*\//.exec(text);
  return m ? m[1] : "";
}

describe("file size", () => {
  it("finds the reason in an opening comment, and only there", () => {
    expect(REASON.test(openingComment("/**\n * A.\n * Why one file over 600 lines: x.\n */\nconst a = 1;\n"))).toBe(true);
    expect(REASON.test(openingComment('"use client";\n/** Why one file over 600 lines: x. */\n'))).toBe(true);
    expect(REASON.test(openingComment("const a = 1;\n/** Why one file over 600 lines: x. */\n"))).toBe(false);
  });

  it(`keeps every source file in app/, lib/, bin/ and db/ under ${MAX_LINES} lines, or says why not at its top`, () => {
    const over = ["app", "lib", "bin", "db"]
      .flatMap(sources)
      .map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), "utf8") }))
      .filter(({ text }) => text.split("\n").length > MAX_LINES && !REASON.test(openingComment(text)))
      .map(({ file, text }) => `${file} (${text.split("\n").length} lines)`);
    expect(over).toEqual([]);
  });
});
