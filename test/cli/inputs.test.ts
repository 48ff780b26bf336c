/**
 * Data files on the command line (#40): every command that reads one takes a
 * gzipped file (known by its magic bytes, whatever its name) and `-` for
 * standard input, and reads them as it reads the plain file.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { type Ran, runCommand } from "../support/spawn";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-inputs-"));

function file(name: string, content: string | Buffer): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** Run lexgold with `stdin` piped in. */
function lexgold(args: string[], stdin: string | Buffer = ""): Promise<Ran> {
  return runCommand(bin, args, { cwd: dir, env: { ...process.env, LEXGOLD_DB: path.join(dir, "db.sqlite") }, input: stdin });
}

const GOLD = "\nhappy.a 1 :: glad 3;merry 2;cheerful 1;jovial 1;\nhappy.a 2 :: content 2;pleased 2;\nfun.n 3 :: joy 2;\n";
const BEST = "happy.a 1 :: glad;cheerful\nhappy.a 2 :: content\nfun.n 3 :: fun\n";
file("gold", GOLD);
file("sys.best", BEST);
// Gzipped, one with a name that says so and one without.
file("gold.gz", gzipSync(GOLD));
file("sys-zipped.best", gzipSync(BEST));

describe("lexgold score: gzip and standard input", () => {
  it("scores gzipped files and standard input exactly as the plain files, without a false warning", async () => {
    const [plain, zipped, piped, pipedZipped] = await Promise.all([
      lexgold(["score", "sys.best", "gold"]),
      lexgold(["score", "sys-zipped.best", "gold.gz"]),
      lexgold(["score", "-", "gold"], BEST),
      lexgold(["score", "sys.best", "-"], gzipSync(GOLD)),
    ]);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toMatch(/precision = 26\.19, recall = 26\.19/);
    for (const r of [zipped, piped, pipedZipped]) {
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(plain.stdout);
      expect(r.stderr).toBe(plain.stderr);
    }
  });

  it("the full reader (--json, -v, --repaired) reads them too; both files cannot be standard input", async () => {
    const [plain, zipped, both] = await Promise.all([
      lexgold(["score", "sys.best", "gold", "--repaired", "--json"]),
      lexgold(["score", "sys-zipped.best", "-", "--repaired", "--json"], gzipSync(GOLD)),
      lexgold(["score", "-", "-"], BEST),
    ]);
    expect(zipped.status, zipped.stderr).toBe(0);
    expect(JSON.parse(zipped.stdout)).toEqual(JSON.parse(plain.stdout));
    expect(both.status).toBe(1);
    expect(both.stderr).toMatch(/cannot both be "-"/);
  });

  it("names a gzipped file that does not unzip", async () => {
    const r = await lexgold(["score", "sys.best", file("broken.gz", gzipSync(GOLD).subarray(0, 20))]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot unzip .*broken\.gz/);
  });
});

describe("lexgold rank and import: gzip and standard input", () => {
  it("rank reads a run from standard input and a gzipped gold", async () => {
    const run = "happy.a 1 ::: glad;merry\nhappy.a 2 ::: pleased;content\nfun.n 3 ::: joy\n";
    file("run.oot", run);
    const [plain, piped] = await Promise.all([lexgold(["rank", "-b", "gap", "-g", "gold", "-s", "run.oot"]), lexgold(["rank", "-b", "gap", "-g", "gold.gz", "-s", "-"], run)]);
    expect(plain.status, plain.stderr).toBe(0);
    expect(piped.status, piped.stderr).toBe(0);
    const figures = (t: string) => t.split("\n").filter((l) => /^1\s/.test(l)).map((l) => l.split(/\s+/).slice(2));
    expect(figures(piped.stdout)).toEqual(figures(plain.stdout));
    expect(figures(plain.stdout)[0].length).toBe(4);
  });

  it("import reads a gzipped lexelt XML file from standard input", async () => {
    const xml = `<?xml version="1.0"?>\n<corpus lang="english">\n<lexelt item="happy.a">\n<instance id="1"><context>a <head>happy</head> day</context></instance>\n</lexelt>\n</corpus>\n`;
    expect((await lexgold(["project", "create", "piped"])).status).toBe(0);
    const r = await lexgold(["import", "-", "--project", "piped"], gzipSync(xml));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^stdin: 1 instance in 1 lexelt; added 1 instance and 1 lexelt\.$/m);
  });
});
