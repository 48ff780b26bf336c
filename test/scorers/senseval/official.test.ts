/**
 * The SENSEVAL sample cases in ../shared/data/senseval: scorer2's exact output,
 * reproduced byte for byte by `lexgold senseval`, run from the case folder with
 * the same relative names (`answers key sensemap [-g coarse|mixed] [-m]`).
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { formatSensevalScore, scoreSensevalTexts } from "../../../lib/scorers/senseval/score";
import { describeWithSharedData } from "../../support/shared-data";

const sharedDir = path.resolve(__dirname, "../../../../shared");
const casesDir = path.join(sharedDir, "data/senseval");
const bin = path.resolve(__dirname, "../../../bin/lexgold");
const run = promisify(execFile);

const cases = existsSync(casesDir) ? readdirSync(casesDir).filter((d) => existsSync(path.join(casesDir, d, "expected"))).sort() : [];

/** expected/<grain>[-minimal].txt → the command-line flags that produce it. */
function flags(expectedFile: string): string[] {
  const [grain, minimal] = expectedFile.replace(/\.txt$/, "").split("-");
  return [...(grain === "fine" ? [] : ["-g", grain]), ...(minimal === "minimal" ? ["-m"] : [])];
}

describeWithSharedData(casesDir, "SENSEVAL sample cases (scorer2's expected output)", () => {
  it("has the cases", () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  describe.each(cases)("%s", (name) => {
    const dir = path.join(casesDir, name);
    const expectedFiles = readdirSync(path.join(dir, "expected")).sort();
    const text = (f: string) => readFileSync(path.join(dir, f), "utf8");

    it.each(expectedFiles)("library: %s", (file) => {
      const [grain, minimal] = file.replace(/\.txt$/, "").split("-");
      const r = scoreSensevalTexts(
        { answers: { name: "answers", text: text("answers") }, key: { name: "key", text: text("key") }, sensemap: { name: "sensemap", text: text("sensemap") } },
        { granularity: grain as "fine" | "coarse" | "mixed", treatment: minimal ? "minimal" : "generous" },
      );
      expect(formatSensevalScore(r, "answers", "key")).toBe(text(path.join("expected", file)));
      expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    });

    it("lexgold senseval, every expected file, byte for byte", async () => {
      const outputs = await Promise.all(
        expectedFiles.map((file) => run(bin, ["senseval", "answers", "key", "sensemap", ...flags(file)], { cwd: dir, encoding: "utf8" })),
      );
      outputs.forEach((out, i) => expect(out.stdout, expectedFiles[i]).toBe(text(path.join("expected", expectedFiles[i]))));
    });
  });
});
