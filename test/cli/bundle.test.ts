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
    expect(Object.keys(meta.inputs)).toContain("lib/server/kernel/actor.ts");
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
    expect(first.filter((i) => i.startsWith("lib/lexsub/") || i.startsWith("lib/scorers/"))).toEqual([]);
    const plain = [...loadedWith(chunkOf("bin/commands/score-plain.ts"))];
    expect(plain).toContain("lib/scorers/semeval2007/fast.ts");
    expect(plain.some(commander)).toBe(false);
    expect(plain).not.toContain("bin/commands/index.ts");
    expect(plain.filter((i) => heavy.some((h) => h.test(i)))).toEqual([]);
  });

  it("score loads the scorer, still without the database layer", () => {
    const loaded = [...loadedWith(chunkOf("bin/commands/score.ts"))];
    expect(loaded).toContain("bin/commands/score-files.ts");
    expect(loaded.filter((i) => heavy.some((h) => h.test(i)))).toEqual([]);
  });
});

describe("bin/lexgold", () => {
  const manifestFile = path.join(root, "dist-cli", "manifest.json");

  it("is a CommonJS launcher (bin/lexgold links to bin/lexgold.cjs), so the plain call starts no ES module loader", () => {
    expect(fs.readlinkSync(bin)).toBe("lexgold.cjs");
    expect(fs.statSync(path.join(root, "bin", "lexgold.cjs")).mode & 0o111).not.toBe(0);
  });

  it("finds the plain score call's CommonJS file and the bundle's sources in dist-cli/manifest.json", () => {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as { plain: string; sources: string[] };
    expect(manifest.plain).toMatch(/^\.\/chunks\/score-plain-\w+\.cjs$/);
    const plain = require(path.join(root, "dist-cli", manifest.plain));
    for (const name of ["scorePlain", "guardOutput", "exitWithPlainError"]) expect(typeof plain[name], name).toBe("function");
    expect(manifest.sources).toEqual(expect.arrayContaining(["bin/cli.ts", "bin/commands/score-plain.ts", "lib/scorers/semeval2007/fast.ts", "lib/server/kernel/actor.ts", "scripts/build-cli.mjs", "package-lock.json"]));
    expect(manifest.sources.filter((s) => s.includes("node_modules") || s.includes(":"))).toEqual([]);
  });

  it("answers the plain call, a declined one and a failed one as the bundle's entry does", () => {
    const sample = path.join(tmp, "sample");
    fs.mkdirSync(sample);
    const gold = path.join(sample, "gold");
    fs.writeFileSync(gold, "bright.a 1 :: shiny 3;vivid 1;\nbright.a 2 :: clever 2;smart 2;\n");
    fs.writeFileSync(path.join(sample, "sys.best"), "bright.a 1 :: shiny\nbright.a 2 :: smart;clever\n");
    for (const args of [
      ["score", "sys.best", "gold"],
      ["score", "sys.best", "gold", "--json"],
      ["score", "sys.best", "gold", "-t", "oot"], // a best file read as oot: the full command's error
      ["score", "sys.best", "gold", "--by", "pos"], // not a plain call
      ["score", "sys.best", "missing-gold"],
    ]) {
      const viaLauncher = spawnSync(bin, args, { cwd: sample, encoding: "utf8" });
      const viaEntry = spawnSync(process.execPath, [bundle, ...args], { cwd: sample, encoding: "utf8" });
      expect({ status: viaLauncher.status, stdout: viaLauncher.stdout, stderr: viaLauncher.stderr }, args.join(" ")).toEqual({
        status: viaEntry.status,
        stdout: viaEntry.stdout,
        stderr: viaEntry.stderr,
      });
    }
    expect(spawnSync(bin, ["score", "sys.best", "gold"], { cwd: sample, encoding: "utf8" }).stdout).toMatch(/^Total = 2, attempted = 2\n/);
    expect(spawnSync(bin, ["score", "sys.best", "missing-gold"], { cwd: sample, encoding: "utf8" }).status).not.toBe(0);
  });

  it("rebuilds when the manifest is missing", () => {
    fs.rmSync(manifestFile);
    const r = spawnSync(bin, ["--help"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Usage: lexgold/);
    expect(fs.existsSync(manifestFile)).toBe(true);
  });

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
    // verbatimSymlinks: bin/lexgold stays a link to the copy's own bin/lexgold.cjs.
    for (const d of ["bin", "lib", "db"]) fs.cpSync(path.join(root, d), path.join(copy, d), { recursive: true, verbatimSymlinks: true });
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
