/**
 * Fuzzing the gold, mwgold and system readers and the scoring path built on
 * them (KeyBuilder, the scorers, scoreTexts): whatever the texts, nothing
 * throws, every error names a line of its file, every figure is a number or
 * null (never NaN or Infinity), and the two ways of building a key (streamed
 * lines, parsed lines) score alike.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { officialEntry } from "../../lib/lexsub/formats/gold";
import {
  type ItemScore,
  KeyBuilder,
  ScoringKey,
  bestScorer,
  ootScorer,
  parseGold,
  parseMwGold,
  parseSystem,
  scoreTexts,
} from "../../lib/scorers/semeval2007/index";
import type { Diagnostic } from "../../lib/lexsub/diagnostics";
import { splitLines } from "../../lib/lexsub/diagnostics";
import { RUNS, inputs, lineCount } from "./mutate";

const GOLD = [
  [
    "bright.a 1 :: intelligent 3;clever 3;smart 1;",
    "bright.a 2 :: luminous 4;shining 2;vivid 1;",
    "stand.n.v 3 :: booth 2;stall 1;",
    "a.a 4 :: open-air 3;open air 1;",
    "a.a 5 :: people's 2;folk 1;",
    "a.a 6 :: non-native 2;alien 1;",
    "a.a 7 :: garden 2;lot 1;garden  1;",
    "take.v 8 :: take place 5;happen 1;",
    "x.n 9 :: 11.27 kilograms 1;x 1;crucifix 1;",
    "x.n 10 ::",
    "",
  ].join("\n"),
  "sky.n 1 :: heavens 2;\r\nsky.n 2 :: firmament 1;welkin 1;\r\n",
  "\ufeffd.n d1 :: café 2;naïve 1;\n",
];
const MWGOLD = ["take.v 8 :: take place 5;\ncross.n 54 :: cross section 2;cross-section 1;\n", "run.v 3\t::  run off 1;\n"];
const BEST = [
  "bright.a 1 :: clever;smart\nbright.a 2 :: shining\nstand.n.v 3 :: booth\na.a 4 :: open air\na.a 5 :: peoples\na.a 6 :: nonnative\na.a 7 :: garden \ntake.v 8 :: take place\nx.n 9 :: crucifix\n",
  "bright.a 1 :: ;;\nbright.a 2 :: luminous; vivid ;\r\nzzz.n 99 :: nothing\n",
];
const OOT = [
  "bright.a 1 ::: clever;smart;intelligent;bright;brainy;sharp;quick;able;apt;gifted;wise\nbright.a 2 ::: shining;shining;vivid\nstand.n.v 3 ::: booth;stall\n",
  "a.a 4 ::: open-air;open air\ntake.v 8 ::: happen;take place;\n",
];
const MW = ["take.v 8 :: take place\ncross.n 54 :: cross-section\nrun.v 3   ::   run off  \n", "take.v 8 ::\n"];

const PIECES = ["bright.a", "take.v", "stand.n.v", " ", "1", "8", "::", ":::", " :: ", " ::: ", "clever", "take place", "3", ";", " 2;", "open-air", "'", "non-", "\t"];

const GOLD_INPUTS = inputs(GOLD, PIECES);
const MWGOLD_INPUTS = inputs(MWGOLD, PIECES);
const SYSTEM_INPUTS = { best: inputs(BEST, PIECES), oot: inputs(OOT, PIECES), mw: inputs(MW, PIECES) };

/** Lines as the readers count them (a final newline starts no line). */
const linesOf = (text: string) => Math.max(splitLines(text).length, lineCount(text) - 1);

/**
 * Every diagnostic names its file and a line of it. Only whole-file warnings
 * (totals, summaries) and the summary of errors not listed may name none.
 */
function checkDiagnostics(ds: readonly Diagnostic[], file: string, text: string) {
  const n = linesOf(text);
  for (const d of ds) {
    expect(d.file).toBe(file);
    expect(Number.isInteger(d.line), d.message).toBe(true);
    expect(d.line, d.message).toBeGreaterThanOrEqual(0);
    expect(d.line, d.message).toBeLessThanOrEqual(n);
    if (d.line === 0 && d.severity === "error") expect(d.message, d.message).toMatch(/more .* not listed|^no line is in the/);
  }
}

/** Every number in a result is finite. */
function checkNumbers(value: unknown, where = "result"): void {
  if (typeof value === "number") expect(Number.isFinite(value), `${where} = ${value}`).toBe(true);
  else if (Array.isArray(value)) value.forEach((v, i) => checkNumbers(v, `${where}[${i}]`));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) checkNumbers(v, `${where}.${k}`);
}

describe("fuzz: gold and mwgold readers", () => {
  it("read every sample without errors", () => {
    for (const g of GOLD) expect(parseGold(g, "g").diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    for (const g of MWGOLD) expect(parseMwGold(g, "g").diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it.each(["gold", "mwgold"] as const)("%s: lines or errors naming a line, never a throw", (kind) => {
    fc.assert(
      fc.property(kind === "gold" ? GOLD_INPUTS : MWGOLD_INPUTS, (text) => {
        const r = parseGold(text, "g", kind);
        checkDiagnostics(r.diagnostics, "g", text);
        const n = linesOf(text);
        const ids = new Set<string>();
        for (const l of r.lines) {
          expect(l.line).toBeGreaterThanOrEqual(1);
          expect(l.line).toBeLessThanOrEqual(n);
          expect(ids.has(l.id), `id ${l.id} twice`).toBe(false);
          ids.add(l.id);
          for (const e of l.entries) {
            expect(e.substitute.length).toBeGreaterThanOrEqual(2);
            expect(Number.isInteger(e.count) && e.count >= 0, `count ${e.count}`).toBe(true);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe("fuzz: system readers", () => {
  it.each(["best", "oot", "mw"] as const)("%s: lines or errors naming a line, never a throw", (kind) => {
    fc.assert(
      fc.property(SYSTEM_INPUTS[kind], (text) => {
        const r = parseSystem(text, "s", kind);
        checkDiagnostics(r.diagnostics, "s", text);
        for (const l of r.lines) {
          expect(l.line).toBeGreaterThanOrEqual(1);
          expect(l.line).toBeLessThanOrEqual(linesOf(text));
          if (l.alternatives) expect(l.alternatives).toHaveLength(l.guesses.length);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

function scoreWith(key: ScoringKey, type: "best" | "oot", system: string) {
  const items: ItemScore[] = [];
  const scorer = type === "best" ? bestScorer(key, { onItem: (i) => items.push(i) }) : ootScorer(key, { onItem: (i) => items.push(i) });
  for (const l of parseSystem(system, "s", type).lines) scorer.add(l);
  return { items, result: scorer.finish() };
}

describe("fuzz: scoring", () => {
  it.each(["best", "oot"] as const)("%s: scoreTexts gives finite figures and line-numbered diagnostics for any gold and system text", (type) => {
    fc.assert(
      fc.property(GOLD_INPUTS, SYSTEM_INPUTS[type], fc.constantFrom(undefined, "pos" as const, "lexelt" as const), (gold, system, by) => {
        const out = scoreTexts({ type, gold, system, goldName: "g", systemName: "s", by });
        checkDiagnostics(out.goldDiagnostics, "g", gold);
        checkDiagnostics(out.systemDiagnostics, "s", system);
        checkNumbers(out.result);
        checkNumbers(out.items);
        expect(out.lines.matched + out.lines.refused).toBeLessThanOrEqual(out.lines.read);
        const r = out.result as { stats: { attempted: number; total: number } };
        expect(r.stats.attempted).toBeLessThanOrEqual(r.stats.total);
        expect(out.items).toHaveLength(r.stats.attempted);
      }),
      { numRuns: RUNS },
    );
  });

  it("mw: scoreTexts gives finite figures and line-numbered diagnostics for any mwgold and system text", () => {
    fc.assert(
      fc.property(MWGOLD_INPUTS, SYSTEM_INPUTS.mw, (gold, system) => {
        const out = scoreTexts({ type: "mw", gold, system, goldName: "g", systemName: "s" });
        checkDiagnostics(out.goldDiagnostics, "g", gold);
        checkDiagnostics(out.systemDiagnostics, "s", system);
        checkNumbers(out.result);
        checkNumbers(out.items);
      }),
      { numRuns: RUNS },
    );
  });

  it("a key streamed line by line and one built from parsed lines score alike", () => {
    fc.assert(
      fc.property(GOLD_INPUTS, fc.constantFrom("best" as const, "oot" as const), fc.oneof(SYSTEM_INPUTS.best, SYSTEM_INPUTS.oot), (gold, type, raw) => {
        // Answer in the right format for the type, whatever the input's separator.
        const system = type === "oot" ? raw.replace(/ :: /g, " ::: ") : raw.replace(/ ::: /g, " :: ");
        const streamed = new KeyBuilder("g");
        for (const l of splitLines(gold)) streamed.push(l.crlf ? l.text + "\r" : l.text);
        const a = streamed.finish().key;
        const b = ScoringKey.fromGold(parseGold(gold, "g").lines, "g").key;
        expect(a.total).toBe(b.total);
        expect(a.totalWithMode).toBe(b.totalWithMode);
        for (let o = 0; o < a.total; o++) expect(a.item(o)).toEqual(b.item(o));
        const x = scoreWith(a, type, system);
        const y = scoreWith(b, type, system);
        expect(x.items).toEqual(y.items);
        expect(x.result).toEqual(y.result);
      }),
      { numRuns: RUNS },
    );
  });
});

/** Bugs the fuzzing found, kept as plain regression tests. */
describe("gold reader: regressions found by fuzzing", () => {
  const ENTRY = /(\w[\w' \t\n\r\f-]+) (\d+)/;

  it("reads an entry exactly as the official pattern does, in linear time", () => {
    const field = fc.array(fc.constantFrom("a", "Z", "9", "_", " ", " ", "1", "'", "-", "\t", "\n", "\r", "\f", "\v", ";", ".", "é", "x y", " 12"), { maxLength: 30 }).map((cs) => cs.join(""));
    fc.assert(
      fc.property(field, (f) => {
        const m = ENTRY.exec(f);
        const o = officialEntry(f);
        if (!m) expect(o).toBeNull();
        else expect(o && { whole: o[0], sub: o[1], count: o[2], index: o.index }).toEqual({ whole: m[0], sub: m[1], count: m[2], index: m.index });
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ["one long entry with no count", "word ".repeat(200_000)],
    ["one long token", "x".repeat(1_000_000)],
    ["many short fields", "a;".repeat(500_000)],
    ["digits with no substitute", "1".repeat(1_000_000)],
    ["100,000 distinct entries", Array.from({ length: 100_000 }, (_, i) => `w${i} 1`).join(";")],
    ["100,000 entries, a hyphen and repeats", Array.from({ length: 100_000 }, (_, i) => `w-${i % 50_000} 1`).join(";")],
  ])("reads a 1 MB gold line of %s (it was quadratic: minutes; timed by npm run bench:parsers)", (_name, rest) => {
    const text = `bright.a 1 :: ${rest}\nbright.a 2 :: clever 2;smart 1;\n`;
    const r = parseGold(text, "g");
    const out = scoreTexts({ type: "best", gold: text, system: "bright.a 2 :: clever\n" });
    expect(r.lines.map((l) => l.id)).toEqual(["1", "2"]);
    expect(out.items).toHaveLength(1);
  });
});

describe("gold reader: counts", () => {
  it("refuses a count of more than 15 digits (it read as Infinity and every score as NaN), naming the line", () => {
    const gold = `bright.a 1 :: clever 2;smart 1;\nbright.a 2 :: word ${"9".repeat(400)};other 1;\n`;
    const r = parseGold(gold, "g");
    expect(r.diagnostics).toEqual([expect.objectContaining({ severity: "error", line: 2, message: expect.stringMatching(/has a count of 400 digits; a count has at most 15/) })]);
    const out = scoreTexts({ type: "best", gold, system: "bright.a 1 :: clever\nbright.a 2 :: word\n", goldName: "g" });
    expect(out.goldDiagnostics.filter((d) => d.severity === "error").map((d) => d.line)).toEqual([2]);
    checkNumbers(out.result);
    // Fifteen digits are still read.
    expect(parseGold(`bright.a 3 :: word ${"9".repeat(15)};\n`, "g").lines[0].entries[0].count).toBe(999_999_999_999_999);
  });
});
