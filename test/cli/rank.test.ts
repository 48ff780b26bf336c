/**
 * `lexgold rank`: the ranked table, the reference printouts, JSON, gzip input
 * and located errors (own samples under samples/ranking and test/fixtures/ranking).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const bin = path.resolve(__dirname, "../../bin/lexgold");
const root = path.resolve(__dirname, "../..");
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-rank-cli-"));
const s = (f: string) => path.join(root, "samples/ranking", f);

function lexgold(args: string[]) {
  const r = spawnSync(bin, args, { encoding: "utf8", env: { ...process.env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("lexgold rank", () => {
  it("tsar: runs ranked by ACC@1 with tsar_eval.py's floored figures, and its printout", () => {
    const r = lexgold(["rank", "-b", "tsar", "-g", s("tsar-gold.tsv"), "-s", s("tsar-run-weak.tsv"), "-s", s("tsar-run-good.tsv"), "--report"]);
    expect(r.code).toBe(0);
    const rows = r.out.split("\n").filter((l) => /^\d\s/.test(l));
    expect(rows[0]).toContain("tsar-run-good.tsv");
    // weak: ACC@1 1/3, MAP@3 (1/6 + 2/3)/3 — floored
    expect(rows[1]).toMatch(/tsar-run-weak\.tsv\s+0\.3333\s/);
    expect(rows[1]).toContain("0.2777");
    expect(r.out).toContain("MAP@1/Potential@1/Precision@1 = 0.3333");
  });
  it("swords: a gzipped dataset, eval.py's metric line", () => {
    const gz = path.join(dir, "sample.json.gz");
    writeFileSync(gz, gzipSync(readFileSync(path.join(root, "test/fixtures/ranking/swords-sample.json"))));
    const r = lexgold(["rank", "-b", "swords", "-g", gz, "-s", path.join(root, "test/fixtures/ranking/swords-sample-result.json"), "--json"]);
    expect(r.code).toBe(0);
    const t = JSON.parse(r.out);
    const i = t.columns.indexOf("strict_a_p@10");
    expect(t.rows[0].values[i]).toBeCloseTo((100 * 2) / 8, 10);
  });
  it("a run line the gold lacks: an error naming file and line, exit status 1", () => {
    const bad = path.join(dir, "bad.tsv");
    writeFileSync(bad, "Unknown sentence.\tword\tx\n");
    const r = lexgold(["rank", "-b", "tsar", "-g", s("tsar-gold.tsv"), "-s", bad]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}:1: error`);
  });
  it("tsar: a file that is not UTF-8 is refused (tsar_eval.py stops with UnicodeDecodeError), naming line and byte offset; nothing printed", () => {
    const bad = path.join(dir, "latin1.tsv");
    // "caf\xe9" in Latin-1: the byte 0xe9 at offset 3 of line 1 is not UTF-8
    writeFileSync(bad, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x09, 0x78, 0x0a]));
    const r = lexgold(["rank", "-b", "tsar", "-g", s("tsar-gold.tsv"), "-s", bad]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${bad}:1: error: not UTF-8: byte 0xe9 at byte offset 3`);
    expect(r.out).toBe("");
  });
  it("swords: a run target the dataset lacks stops eval.py, which prints no figures: nor does lexgold, exit status 1", () => {
    const run = path.join(dir, "unknown-target.json");
    writeFileSync(run, JSON.stringify({ substitutes_lemmatized: false, substitutes: { "t:boss": [["manager", 1]], "t:nowhere": [["x", 1]] } }));
    const r = lexgold(["rank", "-b", "swords", "-g", path.join(root, "test/fixtures/ranking/swords-sample.json"), "-s", run]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("t:nowhere");
    expect(r.out).toBe("");
  });
  it("refuses an unknown benchmark", () => {
    const r = lexgold(["rank", "-b", "bleu", "-g", s("tsar-gold.tsv"), "-s", s("tsar-run-good.tsv")]);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("--benchmark");
  });
});
