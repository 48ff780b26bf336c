/**
 * `lexgold baseline wordnet`: from a lexelt XML file and from a project (and
 * stored as its runs), with the frequency note on stderr.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { wordnetCandidates } from "../../lib/lexsub/baseline/wordnet";
import { wordnetGraph } from "../../lib/wordnet/load";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-baseline-cli-"));
const db = path.join(dir, "b.db");
const xml = path.join(dir, "b.xml");
writeFileSync(
  xml,
  `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="severely.r">
<instance id="1"><context>He was <head>severely</head> hurt .</context></instance>
</lexelt>
<lexelt item="take.v">
<instance id="2"><context>The meeting will <head>take</head> place on Monday .</context></instance>
</lexelt>
</corpus>
`,
);

function lexgold(args: string[]) {
  const r = spawnSync(bin, args, { encoding: "utf8", env: { ...process.env, LEXGOLD_BCRYPT_COST: "4", LEXGOLD_DB: db } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("lexgold baseline wordnet", () => {
  it("writes best, oot and mw system files from a lexelt XML file, saying how candidates are ranked", () => {
    const g = wordnetGraph();
    const severely = wordnetCandidates(g, "severely", "r").map((c) => c.word);
    const take = wordnetCandidates(g, "take", "v").map((c) => c.word);
    const best = lexgold(["baseline", "wordnet", xml, "-t", "best"]);
    expect(best.status).toBe(0);
    expect(best.stdout).toBe(`severely.r 1 :: ${severely[0]}\ntake.v 2 :: ${take[0]}\n`);
    expect(best.stderr).toContain("WordNet best baseline: 2 lines, 0 instances unanswered; candidates ranked by WordNet 3.1's sense tag counts (SemCor), not by BNC frequencies");
    const out = path.join(dir, "b.oot");
    expect(lexgold(["baseline", "wordnet", xml, "-t", "oot", "-o", out]).status).toBe(0);
    expect(readFileSync(out, "utf8").split("\n")[0]).toBe(`severely.r 1 ::: ${severely.join(";")}`);
    const mw = lexgold(["baseline", "wordnet", xml, "-t", "mw"]);
    expect(mw.stdout).toBe("take.v 2 :: take place\n");
    expect(mw.stderr).toContain("1 line, 1 instance unanswered");
  });

  it("stores the three as runs of a project; refuses a missing or doubled source", () => {
    expect(lexgold(["project", "create", "base"]).status).toBe(0);
    expect(lexgold(["import", xml, "--project", "base"]).status).toBe(0);
    const stored = lexgold(["baseline", "wordnet", "--project", "base", "--store"]);
    expect(stored.status).toBe(0);
    expect(stored.stdout).toMatch(/^stored run \d+: WordNet baseline \(best\), 0 instances unanswered\nstored run \d+: WordNet baseline \(oot\), 0 instances unanswered\nstored run \d+: WordNet baseline \(mw\), 1 instance unanswered\n$/);
    // A second time: the names are taken, nothing stored.
    const again = lexgold(["baseline", "wordnet", "--project", "base", "--store"]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('A best run named "WordNet baseline" is already stored for this gold');
    expect(lexgold(["baseline", "wordnet", "-t", "best"]).stderr).toContain("give a lexelt XML file or --project NAME");
    expect(lexgold(["baseline", "wordnet", xml, "--project", "base"]).status).toBe(1);
  });
});
