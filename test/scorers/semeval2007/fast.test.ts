/**
 * The scorer's fast lane (lib/scorers/semeval2007/fast.ts) against the full scorer
 * (ScoreRun, itself checked against score.pl's model in score-parity.test.ts):
 * on random gold and system files — mostly in the lane's form, with now and
 * then a line that is not (a `pn` entry, an apostrophe, a CRLF, a repeated id,
 * spaces around a guess, a line in no format): gold lines outside the form go
 * to the full reader inside the lane, system lines outside it make the lane
 * decline. Wherever it answers, its figures, diagnostics, line counts and
 * repair report must be the full scorer's, to the last bit and the last
 * character. The system file is fed in random pieces of whole lines, as the
 * file layer feeds it. FUZZ_SEED / FUZZ_RUNS as in score-parity.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FastKey, FastScorer } from "../../../lib/scorers/semeval2007/fast";
import { type SubstitutionResult } from "../../../lib/scorers/semeval2007/substitution";
import { scoreTexts } from "../../../lib/scorers/semeval2007/texts";
import { scoreFast } from "../../../bin/commands/score-files";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 2007);

// Substitutes in the lane's form, and fields that are not (each makes the lane decline).
const WORDS = ["glad", "merry", "content", "open-air", "open air", "well-lit", "e-mail", "cheer up", "BSE", "us", "x2", "take-off", "a b-c"];
const ODD_FIELDS = ["pn 2", "sharpness 1", "people's 2", "non public 1", "nonnative 1", "x 1", "", "garden  1", "U. S. 3", "caf\u00e9 2", "glad 1234567890"];
/** What makes the lane decline in a system line. */
const ODD_GUESSES = ["garden ", " glad", "caf\u00e9", "a\tb"];

const count = fc.integer({ min: 0, max: 5 });
const field = fc.oneof(
  { weight: 30, arbitrary: fc.tuple(fc.constantFrom(...WORDS), count).map(([w, c]) => `${w} ${c}`) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_FIELDS) },
);
const goldLine = fc.record({
  lexelt: fc.constantFrom("bright.a", "stand.n.v", "x.n", "e-commerce.a"),
  fields: fc.array(field, { minLength: 0, maxLength: 6 }),
  sorted: fc.integer({ min: 0, max: 9 }).map((k) => k < 8),
  trailing: fc.constantFrom(";", "", ";;"),
  odd: fc.integer({ min: 0, max: 99 }),
});

const guess = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 2, arbitrary: fc.constantFrom(...WORDS).map((w) => w.replace(/-/g, " ")) },
  { weight: 2, arbitrary: fc.constantFrom(...WORDS).map((w) => w.replace(/ /g, "-")) },
  { weight: 1, arbitrary: fc.constantFrom(...WORDS).map((w) => `${w.slice(0, 2)}'${w.slice(2)}`) },
  { weight: 1, arbitrary: fc.constantFrom("non-native", "non native", "non'native", "nonnative", "non-", "non") },
  { weight: 1, arbitrary: fc.constantFrom(...WORDS).map((w) => w.toUpperCase()) },
  { weight: 1, arbitrary: fc.constantFrom("", "x", "crucifix", ...ODD_GUESSES) },
);
const systemLine = fc.record({
  which: fc.nat(),
  lexelt: fc.constantFrom("bright.a", "film.n", "e-commerce.a"),
  guesses: fc.array(guess, { minLength: 0, maxLength: 13 }),
  trailing: fc.constantFrom("", "", "", ";", ";;", " "),
  odd: fc.integer({ min: 0, max: 99 }),
});
const files = fc.record({
  gold: fc.array(goldLine, { minLength: 0, maxLength: 14 }),
  system: fc.array(systemLine, { minLength: 0, maxLength: 18 }),
  idStyle: fc.integer({ min: 0, max: 9 }),
  /** Below 6 the files are kept in the lane's form; else odd lines and fields stay in. */
  mess: fc.integer({ min: 0, max: 9 }),
  finalNewline: fc.integer({ min: 0, max: 9 }).map((k) => k < 8),
});

type Files = typeof files extends fc.Arbitrary<infer T> ? T : never;

function build(f: Files, type: "best" | "oot"): { gold: string; system: string } {
  // Mostly canonical ids; now and then a sparse one, "0", "007" or a word (the lane declines those in a gold).
  const ids = f.gold.map((_, i) => (f.idStyle === 0 && i === 1 ? "007" : f.idStyle === 1 && i === 2 ? "word" : f.idStyle === 2 ? String(1000 * (i + 1)) : String(i + 1)));
  const countOf = (x: string) => Number(/(\d+)$/.exec(x)?.[1] ?? 0);
  const clean = f.mess < 6;
  const word = (x: string) => x.slice(0, x.lastIndexOf(" "));
  const goldLines = f.gold.map((l, i) => {
    // A substitute given twice in a line makes the lane decline: only in messy files.
    let fields = clean ? l.fields.filter((x, k) => !ODD_FIELDS.includes(x) && l.fields.findIndex((y) => word(y) === word(x)) === k) : l.fields;
    if (l.sorted) fields = [...fields].sort((a, b) => countOf(b) - countOf(a));
    const rest = fields.join(";");
    const id = l.odd === 0 && i > 0 ? ids[i - 1] : ids[i]; // a repeated id
    // A lexelt score.pl reads in part ("e-commerce.a" as "commerce.a") makes the lane decline: only in messy files.
    const text = `${clean && l.lexelt.includes("-") ? "x.n" : l.lexelt} ${id} :: ${rest}${rest ? l.trailing : ""}`;
    if (clean) return text;
    if (l.odd === 1) return text + "\r";
    if (l.odd === 2) return "";
    if (l.odd === 3) return `  ${text}`;
    return text;
  });
  const sep = type === "oot" ? ":::" : "::";
  const systemLines = f.system.map((s) => {
    const k = s.which % (ids.length + 3);
    const id = k < ids.length ? ids[k] : k === ids.length ? "07" : String(900 + k);
    const guesses = clean ? s.guesses.filter((g) => !ODD_GUESSES.includes(g)) : s.guesses;
    const line = `${clean && s.lexelt.includes("-") ? "film.n" : s.lexelt} ${id} ${sep} ${guesses.join(";")}${clean && s.trailing === " " ? "" : s.trailing}`;
    if (clean) return line;
    if (s.odd === 0) return line + "\r";
    if (s.odd === 1) return "";
    if (s.odd === 2) return `${id} ${sep} x`;
    if (s.odd === 3) return line.replace(` ${sep} `, ` ${sep}  `);
    return line;
  });
  const end = f.finalNewline ? "\n" : "";
  return { gold: goldLines.join("\n") + (goldLines.length ? end : ""), system: systemLines.join("\n") + (systemLines.length ? end : "") };
}

/** The fast lane over texts, the system file pushed in random pieces of whole lines; null when it declines. */
function fast(gold: string, system: string, type: "best" | "oot", cuts: number[]) {
  const key = FastKey.build(Buffer.from(gold), { type, goldName: "gold", systemName: "system" });
  if (!key) return null;
  const scorer = new FastScorer(key);
  const bytes = Buffer.from(system);
  const ends: number[] = [];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 10) ends.push(i + 1);
  const pieces = [...new Set(cuts.map((c) => ends[c % Math.max(1, ends.length)]).filter((e) => e !== undefined))].sort((a, b) => a - b);
  let from = 0;
  for (const to of pieces) {
    if (!scorer.push(bytes, from, to)) return null;
    from = to;
  }
  if (!scorer.pushLast(bytes, from, bytes.length)) return null;
  return { key, score: scorer.finish() };
}

function compare(gold: string, system: string, type: "best" | "oot", cuts: number[]): boolean {
  const got = fast(gold, system, type, cuts);
  if (!got) return false;
  const want = scoreTexts({ type, system, gold });
  const where = `${type} case:\n--- gold\n${gold}\n--- system\n${system}`;
  expect(got.key.diagnostics, where).toEqual(want.goldDiagnostics);
  expect(got.key.totalInT, where).toBe((want.result as SubstitutionResult).stats.total);
  const { result, systemDiagnostics, lines, repairs } = got.score;
  expect(result.stats, where).toEqual(want.result.stats);
  expect(result.scores, where).toEqual((want.result as typeof result).scores);
  expect(result.ignored, where).toEqual((want.result as typeof result).ignored);
  expect(result.diagnostics, where).toEqual(want.result.diagnostics);
  expect(systemDiagnostics, where).toEqual(want.systemDiagnostics);
  expect(lines, where).toEqual(want.lines);
  if (want.repairs === null) expect(repairs, where).toBeNull();
  else {
    expect(repairs, where).not.toBeNull();
    expect(repairs!.result.stats, where).toEqual(want.repairs.result.stats);
    expect(repairs!.figuresDiffer, where).toBe(want.repairs.figuresDiffer);
    expect(repairs!.changes, where).toEqual(want.repairs.changes);
  }
  return true;
}

describe("the fast lane gives the full scorer's answer wherever it answers", () => {
  it.each(["best", "oot"] as const)("%s, on random files", (type) => {
    const cases = fc.sample(fc.tuple(files, fc.array(fc.nat(), { maxLength: 4 })), { numRuns: RUNS, seed: SEED + 40 + (type === "oot" ? 1 : 0) });
    let answered = 0;
    let hyphenModes = 0;
    let mixed = 0;
    for (const [f, cuts] of cases) {
      const { gold, system } = build(f, type);
      if (compare(gold, system, type, cuts)) {
        answered++;
        const key = FastKey.build(Buffer.from(gold), { type, goldName: "gold", systemName: "system" })!;
        if (key.noted > 0) hyphenModes++;
        if (key.delegated > 0 && key.total > 0) mixed++;
      }
    }
    // The generator keeps most files in the form; the lane answers for most, some with gold
    // lines the full reader took, and declines the rest.
    expect(answered).toBeGreaterThan(cases.length * 0.5);
    expect(answered).toBeLessThan(cases.length * 0.95);
    expect(mixed).toBeGreaterThan(cases.length * 0.1);
    expect(hyphenModes).toBeGreaterThan(cases.length * 0.1);
  });

  it("lists ten warnings of a kind and counts the rest, as the full scorer does", () => {
    // 30 unsorted gold lines; 25 system lines answering an id twice, 25 oot lines with eleven guesses, each repeating one.
    const gold = Array.from({ length: 30 }, (_, i) => `w.n ${i + 1} :: glad 1;merry 2;open-air 3\n`).join("");
    const guesses = ["glad", "glad", "merry", "x", "y", "z", "u", "v", "open air", "t", "s"].join(";");
    const system = Array.from({ length: 30 }, (_, i) => `w.n ${i + 1} ::: ${guesses}\nw.n ${i + 1} ::: glad\n`).join("") + "w.n 99 ::: glad\n";
    expect(compare(gold, system, "oot", [3, 17])).toBe(true);
    const got = fast(gold, system, "oot", [])!;
    expect(got.key.diagnostics.filter((d) => d.line === 0).map((d) => d.message)).toEqual(["20 more lines not sorted by count not listed (30 in all)"]);
    expect(got.score.result.ignored).toEqual({ outsideT: 1, repeats: 30, unscorable: 0 });
  });

  it("lists the hyphenated modes of lines read here and of the full reader's in gold order, as one run would", () => {
    // Odd ids carry a "pn 1" field (the full reader's lines), even ids are in the form; every answer hits the mode with spaces.
    const gold = Array.from({ length: 24 }, (_, i) => `w.n ${i + 1} :: open-air 3;glad 1${i % 2 === 0 ? ";pn 1" : ""}\n`).join("");
    const system = Array.from({ length: 24 }, (_, i) => `w.n ${24 - i} :: open air\n`).join("");
    expect(compare(gold, system, "best", [5])).toBe(true);
    const got = fast(gold, system, "best", [])!;
    expect(got.key.delegated).toBe(12);
    expect(got.score.repairs!.changes).toMatchObject([{ rule: "hyphen-mode", items: 24, ids: ["1", "2", "3", "4", "5"] }]);
  });

  it("hands a gold line outside the form to the full reader, and its system lines; reads an odd system line with the full reader's reader; declines where a repair reads otherwise, or an id given twice", () => {
    const gold = "w.n 1 :: glad 2;merry 1\n";
    expect(fast(gold, "w.n 1 :: glad\n", "best", [])!.key.delegated).toBe(0);
    for (const odd of ["w.n 2 :: pn 2;glad 1;sharpness 1", "w.n 2 :: glad 2;merry 1\r", "w.n 02 :: glad 2", "w.n 2 :: glad 2;glad 1", " w.n 2 :: glad 2", "w.n 2 :: people's 2;x 1", "not a gold line at all"]) {
      const text = gold + odd + "\n";
      const system = "w.n 1 :: glad\nw.n 2 :: glad;x\nw.n 02 :: glad\n";
      expect(compare(text, system, "best", [1]), odd).toBe(true);
      expect(fast(text, system, "best", [])?.key.delegated, odd).toBe(1);
    }
    for (const twice of ["w.n 1 :: x2 2\n", "w.n 1 :: pn 2;x2 2\n"]) expect(FastKey.build(Buffer.from(gold + twice), { type: "best", goldName: "g", systemName: "s" }), twice).toBeNull();
    // A repair reads these otherwise (spaces around a guess, CRLF): the full scorer scores the run.
    for (const odd of ["w.n 1 :: glad \n", "w.n 1 :: glad\r\n", "w.n 1 ::  glad\n"]) {
      expect(fast(gold, odd, "best", []), odd).toBeNull();
    }
    // These the lane reads with the full reader's reader and scores itself (#40): a line in no format, a blank one,
    // a letter outside ASCII (CoInCo's), a lexelt with a space, an id that is no canonical number.
    for (const odd of ["w.n 1 ::: glad\n", "   \n", "w.n 1 :: caf\u00e9;glad;merry\n", "e commerce.n 1 :: glad;caf\u00e9\n", "w.n 01 :: glad\n"]) {
      expect(compare(gold, `${odd}w.n 1 :: merry\n`, "best", []), odd).toBe(true);
      expect(compare(gold, `w.n 1 ::: glad;merry;caf\u00e9;glad\n${odd.replace(" :: ", " ::: ")}`, "oot", [0]), odd).toBe(true);
    }
  });
});

describe("scoreFast (bin/commands/score-files.ts)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-fast-"));
  const write = (name: string, text: string) => {
    const p = path.join(dir, name);
    writeFileSync(p, text);
    return p;
  };

  it("reads the files and answers as the full scorer does", () => {
    const gold = write("gold", "w.n 1 :: open-air 3;glad 1\nw.n 2 :: merry 2\nw.n 3 :: x1 1\n");
    const system = write("sys", "w.n 1 :: open air;glad\nw.n 2 :: merry\nw.n 3 :: x1");
    const got = scoreFast(system, gold, "best", "sys.best", "gold.test")!;
    const want = scoreTexts({ type: "best", system: "w.n 1 :: open air;glad\nw.n 2 :: merry\nw.n 3 :: x1", gold: "w.n 1 :: open-air 3;glad 1\nw.n 2 :: merry 2\nw.n 3 :: x1 1\n", systemName: "sys.best", goldName: "gold.test" });
    expect(got.total).toBe(2);
    expect(got.score.result.stats).toEqual(want.result.stats);
    expect(got.score.systemDiagnostics).toEqual(want.systemDiagnostics);
    expect(got.score.repairs!.changes).toEqual(want.repairs!.changes);
    expect(got.score.repairs!.changes[0]).toMatchObject({ rule: "hyphen-mode", items: 1, ids: ["1"] });
  });

  it("declines what it cannot read, leaving the error to the full scorer", () => {
    const gold = write("gold2", "w.n 1 :: glad 2\n");
    expect(scoreFast(path.join(dir, "missing"), gold, "best")).toBeNull();
    expect(scoreFast(write("sys2", "w.n 1 :: glad\n"), path.join(dir, "missing"), "best")).toBeNull();
    expect(scoreFast(write("sys3", "w.n 1 :: glad\n"), dir, "best")).toBeNull();
  });
});
