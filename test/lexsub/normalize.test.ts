import { describe, expect, it } from "vitest";
import {
  buildLemmaReview,
  collapseSpace,
  createLemmatiser,
  decisionFor,
  lemmaTable,
  normaliseForm,
  posFromLexelt,
  proposeLemma,
} from "../../lib/lexsub/normalize";
import type { AnnotatorResponse } from "../../lib/lexsub/types";

describe("normaliseForm", () => {
  it.each([
    ["glad", "glad"],
    ["  Glad  ", "glad"],
    ["Take\tPlace", "take place"],
    ["take \n  place ", "take place"],
    ["WELL-LIT", "well-lit"],
    ["", ""],
    ["   ", ""],
  ])("%j → %j", (raw, expected) => {
    expect(normaliseForm(raw)).toBe(expected);
  });

  it("collapseSpace keeps case", () => {
    expect(collapseSpace("  New   York ")).toBe("New York");
  });
});

describe("proposeLemma: single words, by the target's PoS", () => {
  it.each([
    ["children", "n", "child"],
    ["glasses", "n", "glass"],
    ["meetings", "n", "meeting"],
    ["leaves", "n", "leaf"],
    ["leaves", "v", "leave"],
    ["waiting", "n", "waiting"],
    ["waiting", "v", "wait"],
    ["ran", "v", "run"],
    ["happened", "v", "happen"],
    ["happier", "a", "happy"],
    ["merrier", "a", "merry"],
    // Adverbs are kept: the adjective lemmatiser would turn "better" into "good".
    ["better", "r", "better"],
    ["better", "a", "good"],
    // Unknown PoS: normalised only.
    ["Glad", "x", "glad"],
    // Hyphenated compounds inflect on their last part.
    ["cross-checked", "v", "cross-check"],
    ["do-nothings", "n", "do-nothing"],
    ["well-lit", "a", "well-lit"],
    // Object.prototype names are ordinary words to the lemmatiser.
    ["constructor", "n", "constructor"],
    ["__proto__", "v", "__proto__"],
  ])("%s (%s) → %s", (form, pos, expected) => {
    expect(proposeLemma(form, pos)).toBe(expected);
  });
});

describe("proposeLemma: phrases lemmatise the word that inflects", () => {
  it.each([
    // Verbs: the first word, past a leading -ly adverb.
    ["took place", "v", "take place"],
    ["Took  Place", "v", "take place"],
    ["gave up", "v", "give up"],
    ["went on", "v", "go on"],
    ["quickly ran off", "v", "quickly run off"],
    ["applied for", "v", "apply for"],
    ["flies away", "v", "fly away"],
    // "apply" ends in -ly but is a verb: the second word is left alone.
    ["apply changes", "v", "apply changes"],
    // Nouns: the head, the last word before a preposition or else the last word.
    ["bus stops", "n", "bus stop"],
    ["states of mind", "n", "state of mind"],
    ["pieces of cake", "n", "piece of cake"],
    // Adjective and adverb phrases are left as typed.
    ["more cheerful", "a", "more cheerful"],
    ["out of sorts", "r", "out of sorts"],
  ])("%s (%s) → %s", (form, pos, expected) => {
    expect(proposeLemma(form, pos)).toBe(expected);
  });
});

describe("lemmaTable and createLemmatiser", () => {
  const table = lemmaTable([
    { form: " Data ", lemma: "data", decision: "kept" },
    { form: "nato", lemma: "NATO", decision: "overridden" },
    { form: "happier", lemma: "happy", decision: "accepted" },
    { form: "", lemma: "x", decision: "kept" },
    { form: "numbers", lemma: "figure", decision: "overridden" },
    // A later row for the same form wins.
    { form: "Numbers", lemma: "  number  ", decision: "accepted" },
  ]);

  it("normalises keys, collapses lemmas, skips empty forms, later rows win", () => {
    expect([...table.keys()]).toEqual(["data", "nato", "happier", "numbers"]);
    expect(table.get("numbers")).toEqual({ lemma: "number", decision: "accepted" });
  });

  it.each([
    // The table decides: kept form, case kept from the entry, accepted proposal.
    ["DATA", "n", "data"],
    ["Nato", "n", "NATO"],
    ["happier", "a", "happy"],
    // No entry: the proposal.
    ["children", "n", "child"],
    ["  ", "n", ""],
  ])("with the table, %j (%s) → %j", (raw, pos, expected) => {
    expect(createLemmatiser(table)(raw, pos)).toBe(expected);
  });

  it("with unreviewed 'keep', forms without an entry are only normalised", () => {
    const lemmatise = createLemmatiser(table, { unreviewed: "keep" });
    expect(lemmatise(" Children ", "n")).toBe("children");
    expect(lemmatise("Nato", "n")).toBe("NATO");
  });

  it("memoises per PoS: the same raw form under two PoS gives two answers", () => {
    const lemmatise = createLemmatiser();
    expect(lemmatise("leaves", "n")).toBe("leaf");
    expect(lemmatise("leaves", "v")).toBe("leave");
    expect(lemmatise("leaves", "n")).toBe("leaf");
  });

  it.each([
    ["happier", "happy", "happy", "accepted"],
    ["data", "data", "datum", "kept"],
    ["NATO", "NATO", "nato", "kept"],
    ["numbers", "figure", "number", "overridden"],
  ] as const)("decisionFor(%s, %s, proposed %s) = %s", (form, lemma, proposed, expected) => {
    expect(decisionFor(form, lemma, proposed)).toBe(expected);
  });
});

const resp = (
  annotator: string,
  lexelt: string,
  instanceId: string,
  substitutes: string[],
  multiword: string | null = null,
  kind: AnnotatorResponse["kind"] = "substitutes",
): AnnotatorResponse => ({ annotator, lexelt, instanceId, kind, substitutes, multiword });

describe("buildLemmaReview", () => {
  const responses: AnnotatorResponse[] = [
    resp("A", "bright.a", "1", ["Clever", "smart"]),
    resp("B", "bright.a", "1", ["clever", "cleverer"]),
    resp("C", "bright.a", "1", ["clever"]),
    resp("A", "happen.v", "2", ["occurred", "took place"], "took place"),
    resp("B", "happen.v", "2", ["occur"]),
    resp("C", "happen.v", "2", ["Occurred", "occurred"]),
    // NAME and NIL carry no forms, even if substitutes were left in the record.
    resp("D", "happen.v", "2", ["ignored"], null, "NIL"),
    resp("A", "leaf.n", "3", ["leaves"]),
    resp("B", "leave.v", "4", ["leaves"]),
    resp("C", "leave.v", "4", ["leaves"]),
  ];
  const table = lemmaTable([{ form: "cleverer", lemma: "cleverer", decision: "kept" }]);
  const rows = buildLemmaReview(responses, posFromLexelt, table);

  it("lists changed forms first, then by count, then by form", () => {
    // Changed: occurred 2 (C's duplicate counts once), took place 2 (substitute and multiword),
    // leaves 3, cleverer 1. Unchanged: clever 3, occur 1, smart 1.
    expect(rows.map((r) => [r.form, r.count, r.changed])).toEqual([
      ["leaves", 3, true],
      ["occurred", 2, true],
      ["took place", 2, true],
      ["cleverer", 1, true],
      ["clever", 3, false],
      ["occur", 1, false],
      ["smart", 1, false],
    ]);
  });

  it("shows the proposal, the decision and what the gold records", () => {
    const byForm = new Map(rows.map((r) => [r.form, r]));
    expect(byForm.get("took place")).toMatchObject({ proposed: "take place", decision: null, lemma: "take place", pos: ["v"] });
    expect(byForm.get("cleverer")).toMatchObject({ proposed: "clever", decision: "kept", lemma: "cleverer", pos: ["a"] });
    expect(byForm.get("clever")).toMatchObject({ proposed: "clever", decision: null, lemma: "clever" });
  });

  it("lists per-PoS proposals when they differ, the most frequent PoS first", () => {
    const leaves = rows.find((r) => r.form === "leaves")!;
    expect(leaves.proposed).toBe("leave");
    expect(leaves.pos).toEqual(["v", "n"]);
    expect(leaves.proposals).toEqual([
      { pos: "v", count: 2, proposed: "leave" },
      { pos: "n", count: 1, proposed: "leaf" },
    ]);
    expect(rows.find((r) => r.form === "occurred")!.proposals).toBeUndefined();
  });

  it("with unreviewed 'keep', unreviewed rows record the form", () => {
    const kept = buildLemmaReview(responses, posFromLexelt, table, { unreviewed: "keep" });
    expect(kept.find((r) => r.form === "occurred")).toMatchObject({ proposed: "occur", lemma: "occurred" });
  });

  it("uses the PoS lookup it is given (a corrected PoS)", () => {
    const asVerb = buildLemmaReview([resp("A", "stand.n", "131", ["waiting"])], () => "v");
    expect(asVerb).toEqual([{ form: "waiting", proposed: "wait", count: 1, changed: true, decision: null, lemma: "wait", pos: ["v"] }]);
  });
});
