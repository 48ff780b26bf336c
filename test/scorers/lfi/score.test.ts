import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { formatDiagnostic } from "../../../lib/lexsub/diagnostics";
import { LFI_MATCHING, formatLfiResult, parseLogicForms, scoreLfiSentence, scoreLfiTexts } from "../../../lib/scorers/lfi/score";

const predicates = (line: string) => parseLogicForms(line, "x").sentences[0].predicates;
const sentence = (system: string, gold: string) => scoreLfiSentence(predicates(system), predicates(gold));

describe("the reference's worked example", () => {
  const gold = "Earth:n_(x1) provide:v_(e1, x1, x2) food:n_(x2) we(x3) eat:v_(e2, x3, x2, x4) day:n_(x4)\n";
  const system = "Earth:n_(x1) provide:v_(e1, x1, x2) food:n_(x2) we(x3) eat:v_(e2, x3, x4) day:n_(x4)\n";
  const r = scoreLfiTexts({ name: "sys", text: system }, { name: "gold", text: gold });

  it("arguments: 9 correct of 10 given (P .900) and of 11 in the gold (R .818)", () => {
    expect(r.arguments).toMatchObject({ correct: 9, given: 10, gold: 11 });
    expect(r.arguments.precision).toBeCloseTo(0.9, 10);
    expect(r.arguments.recall).toBeCloseTo(9 / 11, 10);
  });

  it("predicates: 5 of 6 correct (P = R = .833)", () => {
    expect(r.predicates).toMatchObject({ correct: 5, given: 6, gold: 6 });
    expect(r.predicates.precision).toBeCloseTo(5 / 6, 10);
    expect(r.predicates.recall).toBeCloseTo(5 / 6, 10);
  });

  it("the sentence is not correct at any sentence level", () => {
    expect(r.sentences).toMatchObject({ gold: 1, attempted: 1, sentA: 0, sentP: 0, sentAP: null, sentAPSent: 0 });
  });

  it("prints the figures, with the matching rules in the header", () => {
    const text = formatLfiResult(r, { system: "sys", gold: "gold" }, { verbose: true });
    for (const line of LFI_MATCHING) expect(text).toContain(line);
    expect(text).toContain("argument   0.900 (9/10)  0.818 (9/11)");
    expect(text).toContain("predicate  0.833 (5/6)   0.833 (5/6)");
    expect(text).toContain("Sent-AP      n/a (0/0)");
    expect(text).toContain("  wrong:   eat:v_(e2, x3, x4)  gold eat:v_(e2, x3, x2, x4)");
  });
});

describe("matching rules", () => {
  it.each([
    // [rule, system, gold, args correct, given, gold, predicates correct]
    ["predicates align by lemma:pos, whatever their order in the line", "see:v_(e1, x1, x2) cat:n_(x1) dog:n_(x2)", "cat:n_(x1) dog:n_(x2) see:v_(e1, x1, x2)", 5, 5, 5, 3],
    ["the k-th predicate with a lemma:pos aligns with the k-th", "cat:n_(x1) chase:v_(e1, x1, x2)", "cat:n_(x1) cat:n_(x2) chase:v_(e1, x1, x2)", 4, 4, 5, 2],
    ["a different part of speech does not align", "cat:v_(e1) mouse:n_(x1)", "cat:n_(x2) mouse:n_(x1)", 1, 2, 2, 1],
    ["arguments compare by slot position", "give:v_(e1, x1, x3, x2) book:n_(x2) girl:n_(x3) she(x1)", "give:v_(e1, x1, x2, x3) book:n_(x2) girl:n_(x3) she(x1)", 5, 7, 7, 3],
    ['";" counts as ","', "eat:v_(e1, x1, x2) we(x1) food:n_(x2)", "eat:v_(e1, x1; x2) we(x1) food:n_(x2)", 5, 5, 5, 3],
    ["a consistent renaming is not an error", "day:n_(x7) eat:v_(e9, x3, x7) we(x3)", "day:n_(x4) eat:v_(e2, x3, x4) we(x3)", 5, 5, 5, 3],
    ["one system variable cannot stand for two gold variables", "cat:n_(x1) dog:n_(x1) see:v_(e1, x1, x1)", "cat:n_(x1) dog:n_(x2) see:v_(e1, x1, x2)", 3, 5, 5, 1],
    ["variables rename kind for kind: an entity is not an event", "run:v_(x5, x1) dog:n_(x1)", "run:v_(e1, x1) dog:n_(x1)", 2, 3, 3, 1],
    ["an extra argument makes the predicate wrong", "eat:v_(e1, x1, x2, x3) we(x1) food:n_(x2)", "eat:v_(e1, x1, x2) we(x1) food:n_(x2)", 5, 6, 5, 2],
  ])("%s", (_rule, system, gold, correct, given, goldArgs, predicatesCorrect) => {
    const r = sentence(system, gold);
    expect(r.arguments).toEqual({ correct, given, gold: goldArgs });
    expect(r.predicates.correct).toBe(predicatesCorrect);
  });

  it("reports the renaming it used", () => {
    expect(sentence("day:n_(x7) eat:v_(e9, x3, x7)", "day:n_(x4) eat:v_(e2, x3, x4)").renamed).toEqual([
      ["x7", "x4"],
      ["e9", "e2"],
    ]);
  });

  it("lists gold predicates nothing aligned with as missing", () => {
    expect(sentence("cat:n_(x1) chase:v_(e1, x1, x2)", "cat:n_(x1) cat:n_(x2) chase:v_(e1, x1, x2)").missing.map((p) => p.name)).toEqual(["cat:n_"]);
  });
});

describe("sentence measures", () => {
  const gold = ["cat:n_(x1) sleep:v_(e1, x1)", "dog:n_(x1) bark:v_(e1, x1)", "bird:n_(x1) sing:v_(e1, x1)", "fish:n_(x1) swim:v_(e1, x1)", ""].join("\n");
  // 1 perfect; 2 has an extra predicate without arguments (all arguments right, a predicate wrong);
  // 3 has a wrong argument; 4 is not attempted.
  const system = ["cat:n_(x1) sleep:v_(e1, x1)", "dog:n_(x1) bark:v_(e1, x1) loud:r_()", "bird:n_(x1) sing:v_(e1, x2)", ""].join("\n");
  const r = scoreLfiTexts({ name: "s", text: system }, { name: "g", text: gold });

  it("are over attempted sentences", () => {
    expect(r.sentences).toMatchObject({ gold: 4, attempted: 3, allArguments: 2, allPredicates: 1, allBoth: 1 });
    expect(r.sentences.sentA).toBeCloseTo(2 / 3, 10);
    expect(r.sentences.sentP).toBeCloseTo(1 / 3, 10);
    expect(r.sentences.sentAP).toBe(1);
    expect(r.sentences.sentAPSent).toBeCloseTo(1 / 3, 10);
  });

  it("count an unattempted sentence in recall, not in precision", () => {
    // arguments given: 3 + 3 + 3 = 9, correct 3 + 3 + 2 = 8; gold 3 × 4 = 12
    expect(r.arguments).toMatchObject({ correct: 8, given: 9, gold: 12 });
    // predicates given 2 + 3 + 2 = 7, correct 2 + 2 + 1 = 5; gold 8
    expect(r.predicates).toMatchObject({ correct: 5, given: 7, gold: 8 });
  });
});

describe("malformed input", () => {
  it.each([
    ["cat:n_(x1", "s:1: error: column 1: expected a predicate \"lemma:pos_(arg, ...)\", found \"cat:n_(x1\""],
    ["cat:n_(x1) and dog:n_(x2)", "s:1: error: column 12: expected a predicate \"lemma:pos_(arg, ...)\", found \"and dog:n_(x2)\""],
    ["see:v_(e1, , x2)", "s:1: error: column 1: \"see:v_(e1, , x2)\" has an empty or malformed argument"],
  ])("%j", (line, message) => {
    const f = parseLogicForms(line + "\n", "s");
    expect(f.diagnostics.map(formatDiagnostic)).toEqual([message]);
    expect(f.sentences[0].predicates).toEqual([]);
  });

  it("warns about a system line with no gold sentence and an empty gold line", () => {
    const r = scoreLfiTexts({ name: "s", text: "a:n_(x1)\nb:n_(x1)\nc:n_(x1)\n" }, { name: "g", text: "a:n_(x1)\n\n" });
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      "g:2: warning: empty gold logic form; the sentence is not scored",
      "s:3: warning: no gold sentence on this line; ignored",
    ]);
    expect(r.sentences.gold).toBe(1);
  });
});

describe("lexgold lfi (CLI)", () => {
  const bin = path.resolve(__dirname, "../../../bin/lexgold");
  const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-lfi-"));
  writeFileSync(path.join(dir, "gold"), "cat:n_(x1) sleep:v_(e1, x1)\ndog:n_(x1) bark:v_(e1, x1)\n");
  writeFileSync(path.join(dir, "sys"), "cat:n_(x4) sleep:v_(e2, x4)\ndog:n_(x1) bark:v_(e1 x1)\n");

  it("prints JSON figures, names the malformed line and exits 1", () => {
    const r = spawnSync(bin, ["lfi", "sys", "gold", "--json"], { cwd: dir, encoding: "utf8" });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('sys:2: error: column 12: "bark:v_(e1 x1)" has an empty or malformed argument');
    const out = JSON.parse(r.stdout);
    expect(out.arguments).toMatchObject({ correct: 3, given: 3, gold: 6, precision: 1, recall: 0.5 });
    expect(out.sentences).toMatchObject({ gold: 2, attempted: 1, sentA: 1, sentP: 1, sentAP: 1, sentAPSent: 1 });
  });
});
