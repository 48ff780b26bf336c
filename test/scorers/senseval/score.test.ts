import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../lib/lexsub/diagnostics";
import {
  type Granularity,
  type SensevalOptions,
  formatSensevalScore,
  parseSenseMap,
  parseSensevalAnswers,
  parseSensevalKey,
  scoreSensevalTexts,
  sensevalJson,
  subsumption,
} from "../../../lib/scorers/senseval/score";
import { formatSensevalReport, sensevalReportTexts } from "../../../lib/scorers/senseval/report";
import { cFixed, formatTable } from "../../../lib/scorers/shared/table";

// A small sense tree of our own:
//   art-1 has 2 sub-senses (art-1.1, art-1.2); art-1.1 has 3 (art-1.1a, .1b, .1c); art-2, art-3 stand alone.
const SENSEMAP = ["art-1", "art-1.1 2 art-1", "art-1.1a 3 art-1.1 2 art-1", "art-1.1b 3 art-1.1 2 art-1", "art-1.1c 3 art-1.1 2 art-1", "art-1.2 2 art-1", "art-2", "art-3", ""].join("\n");

function score(key: string, answers: string, options: SensevalOptions = {}, sensemap: string | null = SENSEMAP) {
  return scoreSensevalTexts(
    { answers: { name: "answers", text: answers }, key: { name: "key", text: key }, sensemap: sensemap === null ? null : { name: "sensemap", text: sensemap } },
    options,
  );
}

/** Score one instance: key tags and one answer line's tags. */
function one(keyTags: string, answerTags: string, options: SensevalOptions = {}) {
  const r = score(`art.n 1 ${keyTags}\n`, `art.n 1 ${answerTags}\n`, options);
  return { score: r.correct, attempted: r.attempted };
}

describe("SENSEVAL weights (scorer2's rules)", () => {
  it.each([
    // [answer, score, attempted, why]
    ["art-1.1", 1, 1, "one unweighted tag has weight 1"],
    ["art-1.1/3 art-2/1", 0.75, 1, "weights summing above one are divided by their sum: 3/4"],
    ["art-1.1/0.5 art-2/0.25", 0.5, 0.75, "weights summing below one are kept; only .75 counts as attempted"],
    ["art-1.1 art-2", 0.5, 1, "several unweighted tags share the mass: 1/2 each"],
    ["art-1.1/0.2 art-2", 0.5, 1, "one tag without a weight makes every weight 1, then 1/2 each"],
    ["art-1.1/0 art-2/0", 0, 0, "all-zero weights attempt nothing"],
    ["art-1.1 art-1.1", 1, 1, "a repeated tag earns its credit twice (1/2 + 1/2)"],
  ])("key art-1.1, answer %s → score %s of %s attempted (%s)", (answer, s, attempted) => {
    const r = one("art-1.1", answer);
    expect(r.score).toBeCloseTo(s, 6);
    expect(r.attempted).toBeCloseTo(attempted, 6);
  });
});

describe("SENSEVAL granularity", () => {
  it.each<[Granularity, string, string, number]>([
    // fine: exact tags only
    ["fine", "art-1.1a", "art-1.1b/0.3 art-1.2/0.3 art-2/0.4", 0],
    // coarse: art-1.1b and art-1.2 both become art-1 (weights add: .6); the key art-1.1a becomes art-1
    ["coarse", "art-1.1a", "art-1.1b/0.3 art-1.2/0.3 art-2/0.4", 0.6],
    ["coarse", "art-2", "art-1.1b/0.3 art-1.2/0.3 art-2/0.4", 0.4],
    // mixed, key subsumes answer: full credit
    ["mixed", "art-1.1", "art-1.1a", 1],
    ["mixed", "art-1", "art-1.1a", 1],
    // mixed, answer subsumes key: 1 / product of the branching factors between them
    ["mixed", "art-1.1a", "art-1.1", 1 / 3],
    ["mixed", "art-1.1a", "art-1", 1 / 6],
    ["mixed", "art-1.2", "art-1", 1 / 2],
    // mixed, siblings: nothing
    ["mixed", "art-1.1a", "art-1.1b", 0],
    // generous caps each tag's credit at 1: art-1 subsumes both key tags (1/2 + 1/2)
    ["mixed", "art-1.1 art-1.2", "art-1", 1],
    ["mixed", "art-1.1 art-1.2 art-2", "art-1 art-2", 1],
  ])("%s: key %s, answer %s → %s", (granularity, keyTags, answer, expected) => {
    expect(one(keyTags, answer, { granularity }).score).toBeCloseTo(expected, 6);
  });

  it("subsumption follows the sense-map path", () => {
    const map = parseSenseMap(SENSEMAP, "sensemap");
    expect(subsumption("art-1.1", "art-1.1c", map)).toBeCloseTo(1 / 3, 6);
    expect(subsumption("art-1", "art-1.1c", map)).toBeCloseTo(1 / 6, 6);
    expect(subsumption("art-2", "art-1.1c", map)).toBe(0);
    expect(subsumption("art-1", "unknown", map)).toBe(0);
  });

  it("coarse merges duplicate key tags, so minimal keeps an instance fine-grained scoring leaves out", () => {
    const key = "art.n 1 art-1.1 art-1.2\nart.n 2 art-2\n";
    const answers = "art.n 1 art-1\nart.n 2 art-2\n";
    const fine = score(key, answers, { treatment: "minimal" });
    expect(fine.total).toBe(1);
    expect(fine.correct).toBe(1);
    const coarse = score(key, answers, { granularity: "coarse", treatment: "minimal" });
    expect(coarse.total).toBe(2);
    expect(coarse.correct).toBe(2);
    const mixed = score(key, answers, { granularity: "mixed", treatment: "minimal" });
    expect(mixed.total).toBe(1);
  });

  it("without a sense map scoring is fine whatever was asked, with a warning", () => {
    const r = score("art.n 1 art-1.1\n", "art.n 1 art-1.1a\n", { granularity: "mixed" }, null);
    expect(r.granularity).toBe("fine");
    expect(r.correct).toBe(0);
    expect(r.diagnostics.map(formatDiagnostic)).toContain("senseval: warning: no sense map given: fine-grained scoring is used, not mixed");
  });
});

describe("SENSEVAL treatments of disjunctive gold", () => {
  // The reference's examples, gold {A, B}: g(t) = 1/2 for each.
  it.each([
    ["art-1", 1, 0.5, 0.5],
    ["art-1/0.5 art-2/0.5", 1, 0.5, 1],
    ["art-1/0.3 art-3/0.7", 0.3, 0.15, 0.3],
  ])("gold {art-1, art-2}, answer %s → generous %s, stingy product %s, overlap %s", (answer, generous, product, overlap) => {
    expect(one("art-1 art-2", answer).score).toBeCloseTo(generous, 6);
    expect(one("art-1 art-2", answer, { treatment: "stingy", stingy: "product" }).score).toBeCloseTo(product, 6);
    expect(one("art-1 art-2", answer, { treatment: "stingy", stingy: "overlap" }).score).toBeCloseTo(overlap, 6);
  });

  it("stingy equals generous on a single-tag key", () => {
    expect(one("art-2", "art-2/0.6 art-3/0.4", { treatment: "stingy" }).score).toBeCloseTo(0.6, 6);
    expect(one("art-2", "art-2/0.6 art-3/0.4", { treatment: "stingy", stingy: "overlap" }).score).toBeCloseTo(0.6, 6);
  });

  it("stingy under mixed: a parent answer gets 1/branching per key tag, split by the gold mass", () => {
    // key {art-1.1, art-1.2}, answer art-1: credit 1/2 against each; product = 1 * 1/2 * 1/2 * 2 = 1/2;
    // overlap = min(1/2, 1/2) * 2 = 1; generous = min(1, 1/2 + 1/2) = 1.
    expect(one("art-1.1 art-1.2", "art-1", { granularity: "mixed", treatment: "stingy" }).score).toBeCloseTo(0.5, 6);
    expect(one("art-1.1 art-1.2", "art-1", { granularity: "mixed", treatment: "stingy", stingy: "overlap" }).score).toBeCloseTo(1, 6);
  });

  it("minimal leaves disjunctive key instances out of the total and ignores their answers", () => {
    const r = score("art.n 1 art-1 art-2\nart.n 2 art-2\nart.n 3 art-3\n", "art.n 1 art-1\nart.n 2 art-2\n", { treatment: "minimal" });
    expect([r.correct, r.attempted, r.total]).toEqual([1, 1, 2]);
    expect(r.events[0]).toMatchObject({ kind: "unscored", reason: "excluded-or-scored" });
    expect(r.diagnostics).toEqual([]);
  });
});

describe("SENSEVAL instances", () => {
  const key = "art.n 2 art-2\nart.n 1 art-1\nart.n 3 art-3\n";

  it("reads unsorted files: the totals do not depend on line order", () => {
    const a = score(key, "art.n 3 art-3\nart.n 1 art-2\nart.n 2 art-2/0.5\n");
    const b = score("art.n 1 art-1\nart.n 2 art-2\nart.n 3 art-3\n", "art.n 1 art-2\nart.n 2 art-2/0.5\nart.n 3 art-3\n");
    expect([a.correct, a.attempted, a.total]).toEqual([1.5, 2.5, 3]);
    expect([b.correct, b.attempted, b.total]).toEqual([1.5, 2.5, 3]);
  });

  it("counts the first line for an instance, reports and ignores a repeated one", () => {
    const r = score(key, "art.n 1 art-2\nart.n 1 art-1\n");
    expect([r.correct, r.attempted]).toEqual([0, 1]);
    expect(r.diagnostics.map(formatDiagnostic)).toEqual(["answers:2: warning: instance art.n 1 was already answered on line 1; this line is ignored"]);
  });

  it("reports and ignores an instance not in the key (the lexelt is part of the instance)", () => {
    const r = score(key, "art.n 9 art-1\nband.n 1 art-1\n");
    expect([r.correct, r.attempted, r.total]).toEqual([0, 0, 3]);
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      "answers:1: warning: instance art.n 9 is not in the key; ignored",
      "answers:2: warning: instance band.n 1 is not in the key; ignored",
    ]);
  });

  it("strips comments and skips blank lines; reads a last line without a newline", () => {
    const r = score(key, "\nart.n 1 art-1 !! sure\n  \nart.n 2 art-2!!no space");
    expect([r.correct, r.attempted]).toEqual([2, 2]);
    expect(r.diagnostics).toEqual([]);
  });
});

describe("SENSEVAL malformed input", () => {
  it.each([
    ["answers", "art.n 1 art-1/x\n", "answers:1: error: malformed weight \"x\" in \"art-1/x\" (expected a non-negative decimal number)"],
    ["answers", "art.n 1 art-1\nart.n 2 art-2/-1\n", "answers:2: error: malformed weight \"-1\" in \"art-2/-1\" (expected a non-negative decimal number)"],
    ["answers", "art.n 1 art-1/1e-3\n", "answers:1: error: malformed weight \"1e-3\" in \"art-1/1e-3\" (expected a non-negative decimal number)"],
    ["answers", "art.n 1 /0.5\n", "answers:1: error: \"/0.5\" has a weight but no sense tag"],
    ["answers", "art.n 1\n", "answers:1: error: expected \"lexelt instance tag[/weight] ...\", found no sense tag"],
    ["key", "art.n 1\n", "key:1: error: expected \"lexelt instance tag [tag ...]\", found 2 fields"],
    ["key", "art.n 1 art-1\nart.n 1 art-2\n", "key:2: error: instance art.n 1 is already in the key (line 1); this line is ignored"],
    ["sensemap", "art-1\nart-1.1 2\n", "sensemap:2: error: expected \"tag [branching parent ...]\": the fields after the tag must come in pairs"],
    ["sensemap", "art-1.1 two art-1\n", "sensemap:1: error: branching factor \"two\" is not a positive number"],
    ["sensemap", "art-1.1 0 art-1\n", "sensemap:1: error: branching factor \"0\" is not a positive number"],
    ["sensemap", "art-1\nart-1\n", "sensemap:2: error: sense art-1 is already in the sense map (line 1); this line is ignored"],
  ])("%s %j → %s", (which, text, message) => {
    const ds =
      which === "answers"
        ? parseSensevalAnswers(text, "answers").diagnostics
        : which === "key"
          ? parseSensevalKey(text, "key").diagnostics
          : parseSenseMap(text, "sensemap").diagnostics;
    expect(ds.map(formatDiagnostic)).toContain(message);
  });

  it("does not score a malformed answer line, and a later good line for the instance counts", () => {
    const r = score("art.n 1 art-1\n", "art.n 1 art-1/x\nart.n 1 art-1\n");
    expect([r.correct, r.attempted]).toEqual([1, 1]);
    expect(r.events[0]).toMatchObject({ kind: "unscored", reason: "invalid" });
  });
});

describe("SENSEVAL output", () => {
  it("prints scorer2's summary", () => {
    const r = score("art.n 1 art-1\nart.n 2 art-2\n", "art.n 1 art-1/0.5\n");
    expect(formatSensevalScore(r, "sys.txt", "keyfile")).toBe(
      [
        "",
        'Fine-grained score for "sys.txt" using key "keyfile":',
        " precision: 1.000 (0.50 correct of 0.50 attempted)",
        " recall: 0.250 (0.50 correct of 2.00 in total)",
        " attempted: 25.00 % (0.50 attempted of 2.00 in total)",
        "",
        "",
      ].join("\n"),
    );
  });

  it("prints scorer2's -v trace: coarse tags, final weights, and 0-based line numbers", () => {
    const r = score("art.n 1 art-1.1 art-1.2\n", "art.n 1 art-1.1a/3 art-1.2/1 art-2/4\nart.n 7 art-1\nart.n 1 art-2\n", { granularity: "coarse", treatment: "minimal" });
    expect(formatSensevalScore(r, "a", "k", { verbose: true })).toBe(
      [
        'score for "art.n_1": 0.500',
        " key   = art-1",
        " guess = art-1/0.500 art-2/0.500",
        "",
        'Unable to score answer for "art.n_7" (line 1): Does not exist.',
        "",
        'Unable to score answer for "art.n_1" (line 2): Excluded or already scored.',
        "",
        "",
        'Coarse-grained minimal score for "a" using key "k":',
        " precision: 0.500 (0.50 correct of 1.00 attempted)",
        " recall: 0.500 (0.50 correct of 1.00 in total)",
        " attempted: 100.00 % (1.00 attempted of 1.00 in total)",
        "",
        "",
      ].join("\n"),
    );
  });

  it("names the stingy reading in the title", () => {
    const r = score("art.n 1 art-1 art-2\n", "art.n 1 art-1\n", { treatment: "stingy", stingy: "overlap" });
    expect(formatSensevalScore(r, "a", "k").split("\n")[1]).toBe('Fine-grained stingy (overlap) score for "a" using key "k":');
  });

  it("prints what C prints when nothing was attempted", () => {
    const r = score("art.n 1 art-1\n", "");
    expect(formatSensevalScore(r, "a", "k").split("\n").slice(2, 5)).toEqual([
      " precision: -nan (0.00 correct of 0.00 attempted)",
      " recall: 0.000 (0.00 correct of 1.00 in total)",
      " attempted: 0.00 % (0.00 attempted of 1.00 in total)",
    ]);
  });

  it("gives the --json figures with exactly the issue's keys, null where undefined", () => {
    const r = score("art.n 1 art-1\nart.n 2 art-2\n", "art.n 1 art-1/0.5\n", { treatment: "minimal" });
    expect(sensevalJson(r)).toEqual({ granularity: "fine", minimal: true, correct: 0.5, attemptedInstances: 0.5, totalInstances: 2, precision: 1, recall: 0.25, attempted: 0.25 });
    expect(sensevalJson(score("", "")).precision).toBeNull();
  });
});

describe("printf-exact formatting", () => {
  it.each([
    [0.125, 2, "0.12"],
    [0.375, 2, "0.38"],
    [2.5, 0, "2"],
    [3.5, 0, "4"],
    [0.1, 3, "0.100"],
    [1 / 3, 3, "0.333"],
    [-0.5, 2, "-0.50"],
    [100, 2, "100.00"],
    [Math.fround(0.015), 2, "0.01"], // the float is 0.014999999664723873
    [Number.NaN, 3, "-nan"],
    [Number.POSITIVE_INFINITY, 3, "inf"],
  ])("%s with %s decimals prints %s", (x, digits, text) => {
    expect(cFixed(x, digits)).toBe(text);
  });

  it("lays out a table with groups over columns", () => {
    expect(formatTable([["x", "123456"], ["yyy", "7"]], ["left", "right"], 2, [{ label: "ab", from: 1, span: 1 }])).toEqual(["     - ab -", "x    123456", "yyy       7"]);
  });
});

describe("SENSEVAL-1 report", () => {
  const key = "art.n 1 art-1.1 art-1.2\nart.n 2 art-2\nbat.n 1 bat-1\n";
  const answers = "art.n 1 art-1\nart.n 2 art-1.1\nbat.n 1 bat-1/0.5\n";
  const report = sensevalReportTexts({ answers: { name: "a", text: answers }, key: { name: "k", text: key }, sensemap: { name: "m", text: SENSEMAP } });

  it.each([
    // [lexelt, grain, treatment, correct, attempted, total]
    ["art.n", "fine", "generous", 0, 2, 2],
    ["art.n", "fine", "minimal", 0, 1, 1],
    ["art.n", "coarse", "generous", 1, 2, 2], // art-1 = art-1 (the key's two tags merge); art-1 ≠ art-2
    ["art.n", "coarse", "minimal", 1, 2, 2],
    ["art.n", "coarse", "stingy", 1, 2, 2],
    ["art.n", "mixed", "generous", 1, 2, 2], // art-1 subsumes art-1.1 and art-1.2: 1/2 + 1/2
    ["art.n", "mixed", "stingy", 0.5, 2, 2], // product: 1 · 1/2 · 1/2, twice
    ["art.n", "mixed", "minimal", 0, 1, 1],
    ["bat.n", "fine", "generous", 0.5, 0.5, 1],
    ["overall", "mixed", "generous", 1.5, 2.5, 3],
    ["overall", "fine", "minimal", 0.5, 1.5, 2],
  ] as const)("%s %s %s: %s correct of %s attempted, %s in total", (lexelt, grain, treatment, correct, attempted, total) => {
    const row = lexelt === "overall" ? report.overall : report.lexelts.find((l) => l.lexelt === lexelt);
    const cell = row?.cells[grain][treatment];
    expect(cell?.correct).toBeCloseTo(correct, 6);
    expect(cell?.attemptedInstances).toBeCloseTo(attempted, 6);
    expect(cell?.totalInstances).toBe(total);
    expect(cell?.attempted).toBeCloseTo(attempted / total, 6);
  });

  it("lists lexelts in the key's order and prints one line per granularity", () => {
    expect(report.lexelts.map((l) => [l.lexelt, l.instances])).toEqual([["art.n", 2], ["bat.n", 1]]);
    const text = formatSensevalReport(report, { answers: "a", key: "k", sensemap: "m" });
    const lines = text.split("\n");
    expect(lines[4]).toBe("                            ------ minimal ------  ----- generous ------  ------ stingy -------");
    expect(lines[5]).toBe("lexelt   instances  grain    prec  recall   att %   prec  recall   att %   prec  recall   att %");
    expect(lines[6]).toBe("art.n            2  fine    0.000   0.000  100.00  0.000   0.000  100.00  0.000   0.000  100.00");
    expect(lines[8]).toBe("                    mixed   0.000   0.000  100.00  0.500   0.500  100.00  0.250   0.250  100.00");
    expect(lines[12]).toBe("overall          3  fine    0.333   0.250   75.00  0.200   0.167   83.33  0.200   0.167   83.33");
  });
});

describe("lexgold senseval (CLI)", () => {
  const bin = path.resolve(__dirname, "../../../bin/lexgold");
  const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-senseval-"));
  writeFileSync(path.join(dir, "key"), "art.n 1 art-1 art-2\nart.n 2 art-2\n");
  writeFileSync(path.join(dir, "answers"), "art.n 2 art-2\nart.n 1 art-1/0.5 art-3/0.5\nart.n 1 art-2 !! again\nart.n 3 art-1/0.5x\n");
  const run = (args: string[]) => spawnSync(bin, args, { cwd: dir, encoding: "utf8" });

  it("scores, warns, names the malformed line, and exits 1 because of it", () => {
    const r = run(["senseval", "answers", "key", "--stingy"]);
    expect(r.stdout).toBe(
      '\nFine-grained stingy (product) score for "answers" using key "key":\n precision: 0.625 (1.25 correct of 2.00 attempted)\n recall: 0.625 (1.25 correct of 2.00 in total)\n attempted: 100.00 % (2.00 attempted of 2.00 in total)\n\n',
    );
    expect(r.stderr).toContain("answers:3: warning: instance art.n 1 was already answered on line 2; this line is ignored");
    expect(r.stderr).toContain('answers:4: error: malformed weight "0.5x" in "art-1/0.5x"');
    expect(r.status).toBe(1);
  });

  it("prints the JSON figures", () => {
    const r = run(["senseval", "answers", "key", "-m", "--json"]);
    expect(JSON.parse(r.stdout)).toEqual({ granularity: "fine", minimal: true, correct: 1, attemptedInstances: 1, totalInstances: 1, precision: 1, recall: 1, attempted: 1 });
  });

  it("prints the report grid as JSON, with the stingy reading asked for", () => {
    writeFileSync(path.join(dir, "sensemap"), SENSEMAP);
    const r = run(["senseval", "report", "answers", "key", "sensemap", "--stingy", "overlap", "--json"]);
    const out = JSON.parse(r.stdout);
    expect(out.stingy).toBe("overlap");
    // art.n 1: gold {art-1, art-2}, answer .5 art-1 .5 art-3 → overlap min(.5, .5) = .5; art.n 2: 1
    expect(out.overall.cells.fine.stingy).toMatchObject({ correct: 1.5, attemptedInstances: 2, totalInstances: 2 });
    expect(out.overall.cells.fine.minimal).toMatchObject({ correct: 1, attemptedInstances: 1, totalInstances: 1 });
  });

  it.each([
    [["senseval", "report", "answers", "key", "sensemap", "-m"], /-g, -m and -v do not apply/],
    [["senseval", "answers", "key", "-m", "--stingy"], /choose one treatment/],
    [["senseval", "answers", "key", "--stingy", "lots"], /--stingy takes "product" or "overlap"/],
    [["senseval", "answers", "nokey"], /cannot read nokey: no such file/],
    [["senseval", "answers", "key", "-g", "medium"], /medium/],
  ])("refuses %j", (args, message) => {
    const r = run(args as string[]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
  });
});
