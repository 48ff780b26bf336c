import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Ran, runCommand } from "../../support/spawn";
import { KeyBuilder, multiwordIds, parseGold, parseIdList } from "../../../lib/scorers/semeval2007/index";
import { describeWithSharedData } from "../../support/shared-data";

const root = path.resolve(__dirname, "../../..");
const sharedDir = path.resolve(root, "../shared");
const data = path.join(sharedDir, "data/semeval2007");
const expectedDir = path.join(data, "expected");
const bin = path.join(root, "bin/lexgold");

/**
 * What produced an expected file, from its name: `<system>.<type>[.verbose].txt`,
 * the system in trial/ or systems/ (with or without the type as extension), the
 * gold of the same data set (trial, or test for `*.test.*` systems).
 */
function invocation(file: string): { system: string; gold: string; args: string[] } {
  let name = file.replace(/\.txt$/, "");
  const verbose = name.endsWith(".verbose");
  if (verbose) name = name.slice(0, -".verbose".length);
  const type = name.slice(name.lastIndexOf(".") + 1);
  if (!["best", "oot", "mw"].includes(type)) throw new Error(`${file}: no scoring type in the name`);
  const stem = name.slice(0, name.lastIndexOf("."));
  const candidates = ["trial", "systems", "test"].flatMap((d) => [path.join(data, d, stem), path.join(data, d, `${stem}.${type}`)]);
  const system = candidates.find((c) => existsSync(c));
  if (!system) throw new Error(`${file}: no system file ${stem} found`);
  const set = path.basename(path.dirname(system)) === "trial" || !/\.test\b/.test(path.basename(system)) ? "trial" : "test";
  const gold = path.join(data, set, `${type === "mw" ? "mw" : ""}gold.${set}`);
  return { system, gold, args: ["score", system, gold, "-t", type, ...(verbose ? ["-v"] : [])] };
}

/** Run the CLI, collecting its output. */
function lexgold(args: string[]): Promise<Ran> {
  return runCommand(bin, args);
}

describeWithSharedData(sharedDir, "the official scorer's outputs, byte for byte", () => {
  const files = existsSync(expectedDir) ? readdirSync(expectedDir).filter((f) => f.endsWith(".txt")).sort() : [];
  // Every run starts at once; each test waits for its own.
  const runs = new Map<string, ReturnType<typeof lexgold>>();
  beforeAll(() => {
    for (const f of files) {
      const run = lexgold(invocation(f).args);
      run.catch(() => undefined);
      runs.set(f, run);
    }
  });

  it("has expected outputs to compare with", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)("%s", async (file) => {
    const r = await runs.get(file)!;
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(readFileSync(path.join(expectedDir, file), "utf8"));
  }, 300_000);

  it.each(files.filter((f) => !f.includes(".verbose.")))("%s: no repair changes a figure (no notice; --repaired prints the same)", async (file) => {
    const r = await runs.get(file)!;
    expect(r.stderr).not.toMatch(/with the documented repairs/);
    const repaired = await lexgold([...invocation(file).args, "--repaired"]);
    expect(repaired.status, repaired.stderr).toBe(0);
    expect(repaired.stdout).toBe(readFileSync(path.join(expectedDir, file), "utf8"));
  }, 300_000);

  it("derives the test set's mwids from its mwgold", () => {
    const fromGold = multiwordIds(parseGold(readFileSync(path.join(data, "test/mwgold.test"), "utf8"), "mwgold.test", "mwgold").lines);
    const listed = parseIdList(readFileSync(path.join(data, "test/mwids"), "utf8"), "mwids").ids;
    expect([...fromGold].sort()).toEqual([...listed].sort());
  });

  it.each([
    // T and TM of the real keys (reference §2: 1696 of the 1703 test lines).
    ["test/gold.test", 1696],
    ["trial/gold.trial", 295],
  ])("%s has |T| = %d", (gold, total) => {
    const b = new KeyBuilder(gold);
    for (const l of readFileSync(path.join(data, gold), "utf8").split("\n")) b.push(l);
    const { key, diagnostics } = b.finish();
    expect(key.total).toBe(total);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });
});
