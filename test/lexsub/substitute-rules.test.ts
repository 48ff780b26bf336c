import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatGoldLine, parseGold } from "../../lib/lexsub/formats/gold";
import { deriveGold } from "../../lib/lexsub/gold";
import {
  MAX_PHRASE_LENGTH,
  MAX_SUBSTITUTE_LENGTH,
  type Rule,
  checkResponse,
  containsTarget,
  phraseBreak,
  readsBack,
  substituteBreak,
  targetBreak,
  tidy,
} from "../../lib/lexsub/substitute-rules";

// Answers written for these tests (targets: quiet, took/take).
const quiet = { lemma: "quiet", head: "quiet" };
const took = { lemma: "take", head: "took" };

describe("substituteBreak: what a substitute field accepts", () => {
  it.each([
    "calm",
    "Calm",
    "at peace",
    "well-lit",
    "people's",
    "route 66",
    "3D effect",
    "  full \t of   quiet ",
    "a".repeat(MAX_SUBSTITUTE_LENGTH),
    // Any script, accents and all, in every project (English too).
    "naïve",
    "café",
    "pequeño",
    "crío",
    "Fußweg",
    "Ausmaß",
    "ήσυχος",
    "тихий",
    "spokojny dzień",
    "Straßen-Café",
    "l'été",
  ])("accepts %j", (s) => {
    expect(substituteBreak(s)).toBeNull();
  });

  it("stores what was typed, NFC, with curly apostrophes read as ' and nothing folded", () => {
    const r = checkResponse(
      { kind: "substitutes", substitutes: ["cafe\u0301", "people’s", "crío"], multiword: false, phrase: "" },
      quiet,
    );
    expect(r.errors).toEqual({});
    expect(r.substitutes).toEqual(["café", "people's", "crío"]);
    expect(r.substitutes[0]).toBe("caf\u00e9");
    expect(tidy("Fußweg")).toBe("Fußweg");
    expect(tidy("  n\u0303  ")).toBe("ñ");
  });

  it.each<[string, string, Rule, RegExp]>([
    ["a comma list", "secluded, peaceful, tranquil, calm", "list", /^One substitute per field — put the others in the next fields\.$/],
    ["a semicolon list", "calm; still", "list", /^One substitute per field/],
    ["a slash list", "calm/still", "list", /^One substitute per field/],
    ["a tag", "<b>calm</b>", "markup", /^No markup: the gold files cannot hold “<” or “>”/],
    ["an entity", "calm&nbsp;", "markup", /^The gold files cannot hold “&”; write “and”/],
    ["an ampersand", "peace & quiet", "markup", /“&”/],
    ["a zero-width space", "ca\u200blm", "control", /invisible character \(U\+200B\)/],
    ["a control character", "calm\u0007", "control", /invisible character \(U\+0007\)/],
    ["a full stop", "a.m.", "characters", /^“\.” cannot be part of a substitute: write letters \(any script, accents too\), digits, spaces, hyphens and apostrophes\.$/],
    ["a double colon", "calm::still", "characters", /^“:” cannot be part of a substitute/],
    ["a trailing semicolon", "calm;", "characters", /^“;” cannot be part of a substitute/],
    ["a Greek question mark", "ήσυχος;", "characters", /^“;” cannot be part/],
    ["an emoji", "calm 🙂", "characters", /^“🙂” cannot be part/],
    ["a backtick", "it`s", "characters", /^“`” cannot be part/],
    ["one Cyrillic letter", "я", "letters", /at least two letters/],
    ["a lone combining mark", "\u0301", "letters", /at least two letters/],
    ["Cyrillic markup", "<b>тихий</b>", "markup", /No markup/],
    ["a bidi mark in Greek", "ήσυ\u200fχος", "control", /invisible character \(U\+200F\)/],
    ["pn", "pn", "pn", /choose NAME instead/],
    ["PN", "PN", "pn", /choose NAME instead/],
    ["one letter", "x", "letters", /^A substitute has at least two letters\.$/],
    ["digits only", "10", "letters", /at least two letters/],
    ["punctuation only", "--", "letters", /at least two letters/],
    ["a leading hyphen", "-ish", "start", /^A substitute starts with a letter or digit, not “-”\.$/],
    ["a leading apostrophe", "'tis", "start", /not “'”/],
    ["one character too many", "a".repeat(MAX_SUBSTITUTE_LENGTH + 1), "length", /at most 60 characters \(this one has 61\)/],
  ])("refuses %s", (_what, s, rule, message) => {
    const b = substituteBreak(s);
    expect(b?.rule).toBe(rule);
    expect(b?.message).toMatch(message);
  });

  it("gives the TSV hint in a file", () => {
    expect(substituteBreak("calm, still", "file")?.message).toBe("One substitute per field — separate substitutes with “;” (at most 3).");
  });

  it("a substitute that is the target word itself, by lemma or head, any case", () => {
    expect(targetBreak("Take", took)?.rule).toBe("target");
    expect(targetBreak(" took ", took)?.message).toBe('"took" is the target word itself; give a different word or phrase.');
    expect(targetBreak("taken", took)).toBeNull();
  });
});

describe("phraseBreak: the multiword phrase", () => {
  it.each(["take place", "took place", "Took Place", "take-off", "take  part   in", "bull's eye take"])("accepts %j for took/take", (p) => {
    expect(phraseBreak(p, took)).toBeNull();
  });

  it.each<[string, string, Rule, RegExp]>([
    ["no form of the target", "happen soon", "target", /^The phrase must contain the target word: “took” or “take”\.$/],
    ["an inflection that is neither lemma nor head", "takes place", "target", /“took” or “take”/],
    ["the target inside another word", "mistake place", "target", /target word/],
    ["one word", "take", "words", /^A multiword phrase has at least two words\.$/],
    ["markup", "<i>take</i> place", "markup", /No markup/],
    ["a list", "take place, take part", "list", /^One phrase only/],
    ["a full stop", "take place.", "characters", /^“\.” cannot be part of a phrase/],
    ["too long", "take " + "p".repeat(MAX_PHRASE_LENGTH), "length", /at most 80 characters/],
  ])("refuses %s", (_what, p, rule, message) => {
    const b = phraseBreak(p, took);
    expect(b?.rule).toBe(rule);
    expect(b?.message).toMatch(message);
  });

  it.each(["take café", "take l’été"])("accepts %j (any script)", (p) => {
    expect(phraseBreak(p, took)).toBeNull();
  });

  it("finds the target in any script, folding case in the project's language", () => {
    const weg = { lemma: "Weg", head: "Wege", language: "de" };
    expect(phraseBreak("Fußweg Wege", weg)).toBeNull();
    expect(containsTarget("zu WEGE bringen", weg)).toBe(true);
    expect(targetBreak("WEG", weg)?.rule).toBe("target");
    expect(targetBreak("Fußweg", weg)).toBeNull();
    // Turkish: İ lower-cases to i in tr, to i̇ (i + dot) elsewhere.
    const tr = { lemma: "iyi", head: "İyi", language: "tr" };
    expect(targetBreak("İYİ", tr)?.rule).toBe("target");
    expect(targetBreak("İYİ", { ...tr, language: "en" })).toBeNull();
  });

  it("names the target once when lemma and head are the same word", () => {
    expect(phraseBreak("hush money", quiet)?.message).toBe("The phrase must contain the target word: “quiet”.");
  });

  it("checks no target when none is given", () => {
    expect(phraseBreak("happen soon")).toBeNull();
  });

  it.each<[string, boolean]>([
    ["quiet corner", true],
    ["QUIET corner", true],
    ["a quiet-ish corner", true],
    ["quietly", false],
    ["disquiet", false],
  ])("containsTarget(%j, quiet) = %s", (p, want) => {
    expect(containsTarget(p, quiet)).toBe(want);
  });
});

describe("checkResponse: a whole response, as the browser and the server check it", () => {
  it("keeps tidied substitutes and phrase when nothing is broken", () => {
    expect(checkResponse({ kind: "substitutes", substitutes: [" calm ", "", "at  peace"], multiword: true, phrase: " quiet  word " }, quiet)).toEqual({
      substitutes: ["calm", "at peace"],
      multiword: "quiet word",
      errors: {},
    });
  });

  it("reports every broken field at once, in field order, each with its own message", () => {
    const r = checkResponse({ kind: "substitutes", substitutes: ["calm, still", "x", "<b>hush</b>"], multiword: true, phrase: "hush money" }, quiet);
    expect(Object.keys(r.errors)).toEqual(["substitute1", "substitute2", "substitute3", "multiword"]);
    expect(r.errors).toEqual({
      substitute1: "One substitute per field — put the others in the next fields.",
      substitute2: "A substitute has at least two letters.",
      substitute3: "No markup: the gold files cannot hold “<” or “>”.",
      multiword: "The phrase must contain the target word: “quiet”.",
    });
  });

  it.each<[string, Parameters<typeof checkResponse>[0], string, RegExp]>([
    ["the target itself", { kind: "substitutes", substitutes: ["Quiet"], multiword: false, phrase: "" }, "substitute1", /"Quiet" is the target word itself/],
    ["a repeat", { kind: "substitutes", substitutes: ["calm", "CALM"], multiword: false, phrase: "" }, "substitute2", /"CALM" repeats substitute 1/],
    ["a repeat in another script", { kind: "substitutes", substitutes: ["тихий", "ТИХИЙ"], multiword: false, phrase: "" }, "substitute2", /"ТИХИЙ" repeats substitute 1/],
    ["a repeat in NFD", { kind: "substitutes", substitutes: ["café", "cafe\u0301"], multiword: false, phrase: "" }, "substitute2", /"café" repeats substitute 1/],
    ["nothing", { kind: "substitutes", substitutes: ["", ""], multiword: false, phrase: "" }, "substitute1", /Give at least one substitute/],
    ["NIL with a substitute", { kind: "NIL", substitutes: ["calm"], multiword: false, phrase: "" }, "substitute1", /NIL carries no substitutes/],
    ["four substitutes", { kind: "substitutes", substitutes: ["aa", "bb", "cc", "dd"], multiword: false, phrase: "" }, "form", /At most 3 substitutes/],
    ["an empty phrase", { kind: "NAME", substitutes: [], multiword: true, phrase: "  " }, "multiword", /Type the multiword phrase/],
  ])("refuses %s", (_what, input, field, message) => {
    const r = checkResponse(input, quiet);
    expect(r.errors[field as keyof typeof r.errors]).toMatch(message);
  });
});

describe("the rules agree with the gold writer and the official scorer's reader", () => {
  const ALPHABET = ["a", "b", "Z", "7", "_", " ", " ", "-", "'", ",", ";", ".", ":", "<", "&", "é", "’", "\t", "\u200b", "ß"];
  const text = fc.array(fc.constantFrom(...ALPHABET), { minLength: 1, maxLength: 12 }).map((cs) => cs.join(""));

  it("every substitute accepted is written to a gold line and read back exactly as stored", () => {
    fc.assert(
      fc.property(text, (raw) => {
        if (raw.trim() === "" || substituteBreak(raw) !== null) return;
        const stored = tidy(raw);
        const line = formatGoldLine("quiet.a", "1", [{ substitute: stored, count: 2 }]);
        expect(line).toBe(`quiet.a 1 :: ${stored} 2;`);
        // Accented letters are read back by the UTF-8 reading (`perl -CSD`), plain ASCII by the byte-level one too.
        if (!/^[\x20-\x7e]*$/.test(stored)) return;
        expect(readsBack(stored)).toBe(true);
        const read = parseGold(line, "g");
        expect(read.diagnostics).toEqual([]);
        expect(read.lines[0].entries).toEqual([{ substitute: stored, count: 2 }]);
      }),
      { numRuns: 2000 },
    );
  });

  it("every plain-ASCII substitute the byte-level scorer would not read back is refused", () => {
    fc.assert(
      fc.property(text, (raw) => {
        const stored = raw.replace(/\s+/g, " ").trim();
        if (stored !== "" && /^[\x20-\x7e]*$/.test(stored) && !readsBack(stored)) expect(substituteBreak(raw)).not.toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it("the gold derivation lists a stored substitute exactly when the workspace would refuse it", () => {
    fc.assert(
      fc.property(text, (raw) => {
        const form = raw.replace(/\s+/g, " ").trim().toLowerCase();
        if (form === "" || form === "quiet") return;
        const g = deriveGold(
          [{ lexelt: "quiet.a", instanceId: "1" }],
          [{ annotator: "A", lexelt: "quiet.a", instanceId: "1", kind: "substitutes", substitutes: [form], multiword: null }],
          { unreviewed: "keep" },
        );
        expect(g.problems.length > 0).toBe(substituteBreak(form) !== null);
      }),
      { numRuns: 1000 },
    );
  });
});
