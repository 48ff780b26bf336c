/**
 * The compiled CLI (scripts/build-cli.mjs, bin/lexgold): what `--help` and
 * `score` load, and that a stale bundle never runs.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const bin = path.join(root, "bin", "lexgold");
const bundle = path.join(root, "dist-cli", "lexgold.mjs");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-bundle-"));

interface Metafile {
  inputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }> }>;
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }>; inputs: Record<string, unknown>; entryPoint?: string }>;
}
let meta: Metafile;

beforeAll(() => {
  const metafile = path.join(tmp, "meta.json");
  const r = spawnSync(process.execPath, [path.join(root, "scripts", "build-cli.mjs"), "--quiet", "--metafile", metafile], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  meta = JSON.parse(fs.readFileSync(metafile, "utf8"));
});

/** The source files an output chunk loads before running: itself and its static imports, transitively. */
function loadedWith(output: string): Set<string> {
  const seen = new Set<string>();
  const inputs = new Set<string>();
  const visit = (o: string) => {
    if (seen.has(o)) return;
    seen.add(o);
    for (const i of Object.keys(meta.outputs[o].inputs)) inputs.add(i);
    for (const imp of meta.outputs[o].imports) if (imp.kind === "import-statement" && !imp.external) visit(imp.path);
  };
  visit(output);
  return inputs;
}

/** The output chunk that holds a source file. */
function chunkOf(input: string): string {
  const o = Object.entries(meta.outputs).find(([, v]) => input in v.inputs);
  if (!o) throw new Error(`${input} is in no chunk`);
  return o[0];
}

const heavy = [/^db\//, /^lib\/server\//, /node_modules\/(drizzle-orm|zod|bcryptjs|wink-lexicon|fast-xml-parser|next|next-auth)\//];

describe("the bundle", () => {
  it("is plain JavaScript with better-sqlite3 left to node_modules and server-only resolved away", () => {
    const all = Object.values(meta.outputs).flatMap((o) => o.imports);
    expect(all.some((i) => i.path === "better-sqlite3" && i.external)).toBe(true);
    expect(Object.keys(meta.inputs).some((i) => i.includes("server-only/index.js"))).toBe(false);
    expect(Object.keys(meta.inputs)).toContain("lib/server/actor.ts");
  });

  const commander = (i: string) => i.includes("node_modules/commander/");

  it("--help loads commander and the command definitions, not the database layer or other heavy modules", () => {
    const loaded = [...loadedWith(chunkOf("bin/program.ts"))];
    expect(loaded).toContain("bin/commands/score.ts");
    expect(loaded.some(commander)).toBe(true);
    expect(loaded.filter((i) => heavy.some((h) => h.test(i)))).toEqual([]);
  });

  it("the entry loads neither; plain 'score SYSTEM GOLD' loads the scorer's fast lane without commander", () => {
    const entry = Object.keys(meta.outputs).find((o) => meta.outputs[o].entryPoint === "bin/cli.ts")!;
    const first = [...loadedWith(entry)];
    expect(first.some(commander)).toBe(false);
    expect(first.filter((i) => i.startsWith("lib/lexsub/"))).toEqual([]);
    const plain = [...loadedWith(chunkOf("bin/commands/score-plain.ts"))];
    expect(plain).toContain("lib/lexsub/score/fast.ts");
    expect(plain.some(commander)).toBe(false);
    expect(plain).not.toContain("bin/commands/index.ts");
    expect(plain.filter((i) => heavy.some((h) => h.test(i)))).toEqual([]);
  });

  it("score loads the scorer, still without the database layer", () => {
    const loaded = [...loadedWith(chunkOf("bin/commands/score.ts"))];
    expect(loaded).toContain("lib/scoring/files.ts");
    expect(loaded.filter((i) => heavy.some((h) => h.test(i)))).toEqual([]);
  });
});

describe("bin/lexgold", () => {
  it("rebuilds a bundle older than its sources before running it", () => {
    const past = new Date(Date.now() - 3600_000);
    const newest = new Date(Date.now() - 60_000);
    fs.utimesSync(path.join(root, "bin", "cli.ts"), newest, newest);
    fs.utimesSync(bundle, past, past);
    const r = spawnSync(bin, ["--help"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Usage: lexgold/);
    expect(fs.statSync(bundle).mtimeMs).toBeGreaterThan(newest.getTime());
  });

  it("runs the TypeScript sources with a warning when the bundle cannot be rebuilt", () => {
    // A copy of the CLI's sources whose build script fails.
    const copy = path.join(tmp, "project");
    for (const d of ["bin", "lib", "db"]) fs.cpSync(path.join(root, d), path.join(copy, d), { recursive: true });
    fs.mkdirSync(path.join(copy, "scripts"));
    fs.writeFileSync(path.join(copy, "scripts", "build-cli.mjs"), 'console.error("build-cli: esbuild is missing"); process.exit(1);\n');
    fs.copyFileSync(path.join(root, "package.json"), path.join(copy, "package.json"));
    fs.copyFileSync(path.join(root, "package-lock.json"), path.join(copy, "package-lock.json"));
    fs.symlinkSync(path.join(root, "node_modules"), path.join(copy, "node_modules"));
    const r = spawnSync(path.join(copy, "bin", "lexgold"), ["--help"], { encoding: "utf8", env: { ...process.env, LEXGOLD_ROOT: copy } });
    expect(r.stderr).toMatch(/esbuild is missing/);
    expect(r.stderr).toMatch(/lexgold: warning: could not rebuild dist-cli\/lexgold\.mjs.*tsx/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: lexgold/);
    expect(fs.existsSync(path.join(copy, "dist-cli"))).toBe(false);
  });
});
