/**
 * Parity with score.pl on random well-formed files: random gold, mwgold and
 * system files — built from the kinds of entries real data holds (CoInCo-style
 * `non x`, `U. S.`, `@card@`, "sharpness", hyphens, apostrophes, unsorted
 * lines, empty fields, CRLF endings, spaces around `;`) — are scored by
 * lexgold (default mode) and by test/support/score-model.pl, a Perl model of
 * score.pl's documented behaviour that uses Perl's own regular expressions,
 * split and hashes. Every count and figure must be equal, to the last bit.
 * Needs perl (Debian's perl-base; every machine here has it). The cases are
 * drawn with a fixed seed (FUZZ_SEED to change it, FUZZ_RUNS for how many) and
 * scored by one Perl process, so the test stays quick; a mismatch is reported
 * with the case's files.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitLines } from "../../../lib/lexsub/diagnostics";
import { type MwResult, type SubstitutionResult, ScoreRun, mwScores, repairReport, scoreTexts, substitutionScores } from "../../../lib/scorers/semeval2007/index";

const MODEL = path.resolve(import.meta.dirname, "../../support/score-model.pl");
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 2007);
const dir = mkdtempSync(path.join(os.tmpdir(), "lexgold-parity-"));

function model(system: string, gold: string, type: "best" | "oot" | "mw"): string {
  const s = path.join(dir, "sys");
  const g = path.join(dir, "gold");
  writeFileSync(s, system);
  writeFileSync(g, gold);
  const r = spawnSync("perl", [MODEL, s, g, type], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`score-model.pl failed: ${r.stderr}`);
  return r.stdout.trim();
}

const n = (x: number | null) => (x === null ? "null" : String(x));

function lexgold(system: string, gold: string, type: "best" | "oot" | "mw"): string {
  const out = scoreTexts({ type, system, gold });
  expect(out.goldDiagnostics.filter((d) => d.severity === "error")).toEqual([]);
  if (type === "mw") {
    const s = (out.result as MwResult).stats;
    const p = mwScores(s);
    return [s.totalMultiwords, s.systemFound, s.genuine, s.matched, p.detectionPrecision, p.detectionRecall, p.identificationPrecision, p.identificationRecall]
      .map((x) => (typeof x === "number" || x === null ? n(x) : x))
      .join(" ");
  }
  const s = (out.result as SubstitutionResult).stats;
  const p = substitutionScores(s);
  return [s.total, s.attempted, n(p.precision), n(p.recall), s.totalWithMode, s.attemptedWithMode, n(p.modePrecision), n(p.modeRecall)].join(" ");
}

/** Score many cases with one Perl process: the model's line for each. */
function modelBatch(cases: { system: string; gold: string; type: "best" | "oot" | "mw" }[]): string[] {
  const list: string[] = [];
  cases.forEach((c, i) => {
    const s = path.join(dir, `sys-${i}`);
    const g = path.join(dir, `gold-${i}`);
    writeFileSync(s, c.system);
    writeFileSync(g, c.gold);
    list.push(`${s} ${g} ${c.type}`);
  });
  const listFile = path.join(dir, "list");
  writeFileSync(listFile, list.join("\n") + "\n");
  const r = spawnSync("perl", [MODEL, "--batch", listFile], { encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`score-model.pl failed: ${r.stderr}`);
  return r.stdout.trim().split("\n");
}

/** Every case scored both ways; the first mismatch is reported with its files. */
function checkAll(cases: { system: string; gold: string; type: "best" | "oot" | "mw" }[]): void {
  const expected = modelBatch(cases);
  expect(expected).toHaveLength(cases.length);
  cases.forEach((c, i) => {
    const got = lexgold(c.system, c.gold, c.type);
    const same = (a: string) => a.split(" ").map((v) => (v === "null" ? null : Number(v)));
    expect(same(got), `case ${i} (${c.type})\n--- gold\n${c.gold}--- system\n${c.system}`).toEqual(same(expected[i]));
  });
}

/** Perl's %.17g and JavaScript's shortest round-trip both read back to the same double: compare as numbers. */
function same(a: string, b: string): void {
  const x = a.split(" ").map((v) => (v === "null" ? null : Number(v)));
  const y = b.split(" ").map((v) => (v === "null" ? null : Number(v)));
  expect(x).toEqual(y);
}

// Substitutes as real gold files hold them, each with the variants an answer may take.
const WORDS = ["glad", "merry", "content", "sharpness", "happen", "take place", "open-air", "open air", "people's", "non public", "non-native", "well-lit", "BSE", "us", "e-mail", "cheer up", "nonnative"];
// Fields a gold line may hold that score.pl reads oddly or not at all.
const ODD_FIELDS = ["U. S. 3", ", 5", "here , 1", "x 1", "@card@ 2", "11.27 kilograms 1", "", "pn 2", "chapter @card@ 1", "garden  1"];

const count = fc.integer({ min: 1, max: 5 });
const field = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...WORDS), count).map(([w, c]) => `${w} ${c}`) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_FIELDS) },
);
const goldLine = fc.record({
  lexelt: fc.constantFrom("bright.a", "e-commerce.a", "stand.n.v", "x.n"),
  fields: fc.array(field, { minLength: 0, maxLength: 5 }),
  sorted: fc.boolean(),
  trailing: fc.constantFrom(";", "", ";;"),
  crlf: fc.integer({ min: 0, max: 9 }).map((k) => k < 3),
});

function writeGoldLine(id: string, l: { lexelt: string; fields: string[]; sorted: boolean; trailing: string; crlf: boolean }): string {
  const countOf = (f: string) => Number(/(\d+)$/.exec(f)?.[1] ?? 0);
  const fields = l.sorted ? [...l.fields].sort((a, b) => countOf(b) - countOf(a)) : l.fields;
  const rest = fields.join(";");
  return `${l.lexelt} ${id} :: ${rest}${rest ? l.trailing : ""}${l.crlf ? "\r" : ""}`;
}

// An answer's guess: a gold word, as written or changed the ways answers change.
const guess = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.constantFrom(...WORDS).map((w) => w.replace(/-/g, " ")),
  fc.constantFrom(...WORDS).map((w) => w.replace(/ /g, "-")),
  fc.constantFrom(...WORDS).map((w) => w.replace("'", "")),
  fc.constantFrom(...WORDS).map((w) => w.replace(/^non[ -]/, "non")),
  fc.constantFrom(...WORDS).map((w) => ` ${w}`),
  fc.constantFrom(...WORDS).map((w) => w.toUpperCase()),
  fc.constantFrom("", "x", "crucifix", "garden ", "U. S."),
);
const systemLine = fc.record({
  which: fc.nat(),
  lexelt: fc.constantFrom("bright.a", "e-commerce.a", "film.n"),
  guesses: fc.array(guess, { minLength: 1, maxLength: 12 }),
  crlf: fc.integer({ min: 0, max: 9 }).map((k) => k < 2),
  broken: fc.integer({ min: 0, max: 9 }).map((k) => k < 1),
});

const files = fc.record({
  gold: fc.array(goldLine, { minLength: 1, maxLength: 12 }),
  system: fc.array(systemLine, { minLength: 1, maxLength: 16 }),
});

function build(f: { gold: { lexelt: string; fields: string[]; sorted: boolean; trailing: string; crlf: boolean }[]; system: { which: number; lexelt: string; guesses: string[]; crlf: boolean; broken: boolean }[] }, type: "best" | "oot") {
  const ids = f.gold.map((_, i) => String(i + 1));
  const gold = f.gold.map((l, i) => writeGoldLine(ids[i], l)).join("\n") + "\n";
  const sep = type === "oot" ? ":::" : "::";
  const system =
    f.system
      .map((s) => {
        const id = s.which % (ids.length + 2) < ids.length ? ids[s.which % (ids.length + 2)] : String(900 + (s.which % 3));
        const answer = s.guesses.join(";");
        return `${s.broken ? "" : s.lexelt + " "}${id} ${sep} ${answer}${s.crlf ? "\r" : ""}`;
      })
      .join("\n") + "\n";
  return { gold, system };
}

describe("parity with score.pl on random well-formed files", () => {
  it.each(["best", "oot"] as const)("%s: every count and figure equals the model's", (type) => {
    const cases = fc.sample(files, { numRuns: RUNS, seed: SEED + (type === "oot" ? 1 : 0) }).map((f) => ({ ...build(f, type), type }));
    checkAll(cases);
  }, 300_000);

  const mwLine = fc.record({
    fields: fc.array(fc.tuple(fc.constantFrom("take place", "bull's eye", "cross section", "look up", "x"), count).map(([w, c]) => `${w} ${c}`), { maxLength: 3 }),
  });
  const mwAnswer = fc.record({
    which: fc.nat(),
    answer: fc.constantFrom("take place", "take place ", "bull's eye", "bulls eye", "Cross section", "cross section", "look up", ""),
    crlf: fc.integer({ min: 0, max: 9 }).map((k) => k < 2),
  });

  it("mw: every count and figure equals the model's", () => {
    const cases = fc.sample(fc.tuple(fc.array(mwLine, { minLength: 1, maxLength: 10 }), fc.array(mwAnswer, { minLength: 1, maxLength: 12 })), { numRuns: RUNS, seed: SEED + 2 }).map(([g, s]) => {
      const gold = g.map((l, i) => `take.v ${i + 1} :: ${[...l.fields].sort((a, b) => Number(b.slice(-1)) - Number(a.slice(-1))).join(";")};`).join("\n") + "\n";
      const system = s.map((a) => `take.v ${(a.which % (g.length + 1)) + 1} :: ${a.answer}${a.crlf ? "\r" : ""}`).join("\n") + "\n";
      return { system, gold, type: "mw" as const };
    });
    checkAll(cases);
  }, 300_000);

  it.each([
    // Hand cases for each rule, each checked against the model and a hand count.
    ["T by fields: an unreadable first field still puts the item in T", "x.n 1 :: U. S. 3;us 1;\n", "x.n 1 :: us\n", "1 1 1 1 1 1 1 1"],
    ["T by fields: an item with no readable entry is in T and never attempted", "x.n 1 :: , 5;here , 1;on , 1;\nx.n 2 :: glad 2;\n", "x.n 1 :: here\nx.n 2 :: glad\n", "2 1 1 0.5 1 1 1 1"],
    ["T by fields, CRLF: a rest of only ';' splits into two fields (Perl keeps the leading empty one)", "x.n 1 :: ;\r\nx.n 2 :: glad 2;\n", "x.n 2 :: glad\n", "2 1 1 0.5 1 1 1 1"],
    ["pn: 'sharpness' is dropped with the pn entries", "x.n 1 :: sharpness 2;edge 1;pn 1;\n", "x.n 1 :: sharpness;edge\n", "0 0 null null 0 0 null null"],
    ["non: gold 'non public' is never credited", "x.n 1 :: non public 2;open 1;\n", "x.n 1 :: non public;open\n", "1 1 0.16666666666666666 0.16666666666666666 1 1 0 0"],
    ["hyphen mode: never hit, though credited", "x.n 1 :: open-air 2;outside 1;\n", "x.n 1 :: open-air\n", "1 1 0.6666666666666666 0.6666666666666666 1 1 0 0"],
    ["mode: the first readable entry", "x.n 1 :: @card@ 3;more than twenty 1;\nx.n 2 :: a 1;b 1;\n", "x.n 1 :: more than twenty\n", "2 1 1 0.5 1 1 1 1"],
  ])("%s", (_, gold, system, expected) => {
    same(model(system, gold, "best"), expected);
    same(lexgold(system, gold, "best"), expected);
  });
});

describe("the repaired figures of a default run: equal to a full repaired run", () => {
  // run.ts scores the noted ids' repaired reading alongside the default pass and
  // adds the other items' default outcomes to it in file order (or, when the
  // system file noted new ids, makes a full repaired run): the figures must equal
  // a `repaired` run's, to the last bit, whatever the files hold.
  it.each(["best", "oot"] as const)("%s, on random files with every kind of repair", (type) => {
    const cases = fc.sample(files, { numRuns: RUNS, seed: SEED + 10 + (type === "oot" ? 1 : 0) }).map((f) => build(f, type));
    let restricted = 0;
    for (const c of cases) {
      for (const by of [undefined, "pos"] as const) {
        const def = scoreTexts({ type, system: c.system, gold: c.gold, by });
        const full = scoreTexts({ type, system: c.system, gold: c.gold, by, repaired: true });
        const got = def.repairs ? def.repairs.result : def.result;
        if (def.repairs) restricted++;
        expect(got.stats, `${type} case:\n--- gold\n${c.gold}--- system\n${c.system}`).toEqual(full.result.stats);
        if (def.repairs) expect(def.repairs.figuresDiffer).toBe(JSON.stringify(def.result.stats) !== JSON.stringify(full.result.stats));
      }
    }
    // The generator makes repairs common: most cases went the restricted way.
    expect(restricted).toBeGreaterThan(cases.length);
  });
});

describe("the repaired figures from the same pass: the same report as a second, full repaired run", () => {
  // A default best/oot run builds a repaired key of the noted ids from the gold lines it
  // kept, scores their system lines both ways as it reads, and adds up the repaired
  // figures in file order (`inlineRepairs`); when the system file noted new ids it
  // declines and the caller reads both files again. Where it answers, the report must
  // equal the one from a full repaired run.
  const feed = (push: (l: string) => void, text: string) => {
    for (const l of splitLines(text)) push(l.crlf ? l.text + "\r" : l.text);
  };
  it.each(["best", "oot"] as const)("%s, on random files", (type) => {
    const drawn = fc.sample(files, { numRuns: RUNS, seed: SEED + 20 + (type === "oot" ? 1 : 0) }).map((f) => build(f, type));
    // The generator makes CRLF lines and spaced answers common (those decline); each case also
    // goes without them, so that most of the second half answers from the same pass.
    const clean = (system: string) =>
      system
        .split("\n")
        .map((l) => l.replace(/\r$/, "").replace(/(:::?) +/, "$1 ").replace(/ *; */g, ";").replace(/ +$/, ""))
        .join("\n");
    const cases = [...drawn, ...drawn.map((c) => ({ ...c, system: clean(c.system) }))];
    let inline = 0;
    let declined = 0;
    for (const c of cases) {
      for (const by of [undefined, "pos"] as const) {
        const run = new ScoreRun({ type, by });
        feed((l) => run.pushGold(l), c.gold);
        run.goldDone();
        feed((l) => run.pushSystem(l), c.system);
        const out = run.finish();
        if (!run.needsRepairedPass) continue;
        const again = run.repairedRun();
        feed((l) => again.pushGold(l), c.gold);
        again.goldDone();
        feed((l) => again.pushSystem(l), c.system);
        const full = repairReport(run, out, again, again.finish());
        const same = run.inlineRepairs(out);
        if (!same) {
          declined++;
          continue;
        }
        inline++;
        const where = `${type} case:\n--- gold\n${c.gold}--- system\n${c.system}`;
        expect(same.result.stats, where).toEqual(full.result.stats);
        expect(same.changes, where).toEqual(full.changes);
        expect(same.figuresDiffer, where).toBe(full.figuresDiffer);
      }
    }
    // Both ways are exercised: most cases answer from the same pass; CRLF and spaced answers decline.
    expect(inline).toBeGreaterThan(cases.length / 4);
    expect(declined).toBeGreaterThan(0);
  });
});
