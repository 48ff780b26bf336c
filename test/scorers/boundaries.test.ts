/**
 * The scorers' place among the folders: lib/scorers imports only itself and
 * lib/lexsub's pure domain (no fs, db, next or server code), and lib/lexsub
 * never imports lib/scorers, so no cycle runs between the two.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** Each module a file imports: a path from the root for relative and "@/" imports, else the package's name. */
function imports(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
    const spec = m[1] ?? m[2];
    if (spec.startsWith(".")) out.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)));
    else if (spec.startsWith("@/")) out.push(spec.slice(2));
    else out.push(spec);
  }
  return out;
}

describe("lib/scorers and lib/lexsub", () => {
  it("lib/scorers imports only lib/scorers and lib/lexsub", () => {
    const outside = sources("lib/scorers").flatMap((f) => imports(f).filter((i) => !i.startsWith("lib/scorers/") && !i.startsWith("lib/lexsub/")).map((i) => `${f} → ${i}`));
    expect(outside).toEqual([]);
  });

  it("lib/lexsub never imports lib/scorers", () => {
    const back = sources("lib/lexsub").flatMap((f) => imports(f).filter((i) => i.startsWith("lib/scorers")).map((i) => `${f} → ${i}`));
    expect(back).toEqual([]);
  });
});
