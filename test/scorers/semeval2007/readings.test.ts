/**
 * The cheap check that spares a default run the UTF-8 reading (#40): only lines
 * outside ASCII can read differently, and when each of them parses alike under
 * both readings the figures are equal. Files written here.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ReadingLines } from "../../../lib/scorers/semeval2007/readings";
import { scoreTexts } from "../../../lib/scorers/semeval2007";
import { laneDeclines } from "../../../bin/commands/score-files";

function lines(gold: string, system: string): ReadingLines {
  const r = new ReadingLines();
  for (const l of gold.split("\n")) r.noteGold(l);
  for (const l of system.split("\n")) r.noteSystem(l);
  return r;
}

const figures = (type: "best" | "oot", gold: string, system: string, reading: "bytes" | "utf8") => scoreTexts({ type, gold, system, reading }).result.stats;

describe("ReadingLines: could the UTF-8 reading score differently?", () => {
  it.each<[string, string, string, boolean]>([
    ["ASCII files", "bank.n 1 :: shore 2;edge 1;\n", "bank.n 1 :: shore\n", false],
    // A stray sign is no word character either way: the entry is not read in both readings.
    ["a ¢ among the entries and answers", "cent.n 2 :: penny 2;¢ 1;\n", "cent.n 2 :: penny;¢\n", false],
    // `métodos 2`: bytes read `todos`, UTF-8 reads `métodos`.
    ["an accented entry", "way.n 3 :: métodos 2;road 1;\n", "way.n 3 :: road\n", true],
    // An answer is read whole either way: only the gold's entries and the lines' lexelts depend on the classes.
    ["an accented answer", "way.n 3 :: road 2;\n", "way.n 3 :: métodos\n", false],
    ["an accented answer matching an accented entry", "way.n 3 :: métodos 2;\n", "way.n 3 :: métodos\n", true],
    ["a lexelt with an umlaut", "Plünderung.n 5 :: Raub 2;\n", "Plünderung.n 5 :: Raub\n", true],
  ])("%s: %s", (_n, gold, system, differ) => {
    const r = lines(gold, system);
    expect(r.couldDiffer("best")).toBe(differ);
    // Where it says they cannot, they do not.
    if (!differ) expect(figures("best", gold, system, "utf8")).toEqual(figures("best", gold, system, "bytes"));
  });

  it("never says 'cannot differ' when the two readings' figures differ (random files of ASCII and accented words)", () => {
    const word = fc.constantFrom("road", "way", "métodos", "naïve", "¢", "a-b", "x", "über", "café au lait", "gare");
    const entries = fc.array(fc.tuple(word, fc.integer({ min: 1, max: 3 })), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom("way.n", "weg.n", "für.a"), entries, fc.array(word, { minLength: 1, maxLength: 3 })), { minLength: 1, maxLength: 6 }), fc.constantFrom("best" as const, "oot" as const), (items, type) => {
        const gold = items.map(([lexelt, es], i) => `${lexelt} ${i + 1} :: ${es.map(([w, c]) => `${w} ${c}`).join(";")};`).join("\n") + "\n";
        const system = items.map(([lexelt, , gs], i) => `${lexelt} ${i + 1} ${type === "oot" ? ":::" : "::"} ${gs.join(";")}`).join("\n") + "\n";
        if (!lines(gold, system).couldDiffer(type)) expect(figures(type, gold, system, "utf8")).toEqual(figures(type, gold, system, "bytes"));
      }),
      { numRuns: 300 },
    );
  });
});

describe("laneDeclines: system files the fast lane would give up on", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it.each<[string, string, boolean]>([
    ["plain lines, an empty answer", "bank.n 1 :: shore;edge\n\nbank.n 2 :: \n", false],
    // The lane reads these with the full reader's reader (#40).
    ["a byte outside ASCII", "cent.n 2 :: penny;¢\n", false],
    ["a lexelt with a space", "e commerce.n 3 :: trade\n", false],
    // A repair reads these otherwise.
    ["CRLF", "bank.n 1 :: shore\r\n", true],
    ["a space after a ;", "bank.n 1 :: shore; edge\n", true],
    ["a tab before a ;", "bank.n 1 :: shore\t;edge\n", true],
  ])("%s", (_n, text, declines) => {
    expect(laneDeclines(enc(text))).toBe(declines);
  });
});
