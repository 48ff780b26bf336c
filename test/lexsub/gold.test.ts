import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type GoldInstance, type GoldOptions, deriveGold, formatGold, formatMwGold, correctedItem } from "../../lib/lexsub/gold";
import { collapseSpace, lemmaTable } from "../../lib/lexsub/normalize";
import { wordnetProposer } from "../../lib/lexsub/morphy";
import { readWordNet } from "../../lib/wordnet/load";
import { MwKey, ScoringKey, parseGold, parseMwGold, parseSystem, scoreBest, scoreMw, scoreOot } from "../../lib/scorers/semeval2007/index";
import type { AnnotatorResponse } from "../../lib/lexsub/types";
import { describeWithSharedData } from "../support/shared-data";

const sharedDir = path.resolve(__dirname, "../../../shared");
const semeval = path.join(sharedDir, "data/semeval2007");

type Answer = string[] | "NAME" | "NIL";

/** One annotator's response; annotators are named A, B, C… by position. */
function responsesFor(lexelt: string, id: string, answers: Answer[], multiwords: (string | null)[] = []): AnnotatorResponse[] {
  return answers.map((a, k) => ({
    annotator: String.fromCharCode(65 + k),
    lexelt,
    instanceId: id,
    kind: a === "NAME" || a === "NIL" ? a : "substitutes",
    substitutes: Array.isArray(a) ? a : [],
    multiword: multiwords[k] ?? null,
  }));
}

interface Case {
  name: string;
  lexelt: string;
  id: string;
  answers: Answer[];
  multiwords?: (string | null)[];
  options?: GoldOptions;
  line: string | null;
  mode: string | null;
  size: number;
  inT: boolean;
  mwLine?: string | null;
  multiword?: string | null;
}

/** The WordNet lemmatiser the project uses (lib/server passes the same one). */
const propose = wordnetProposer(readWordNet());

const table = lemmaTable([
  { form: "data", lemma: "data", decision: "kept" },
  { form: "nato", lemma: "NATO", decision: "overridden" },
]);

// Each expectation worked out by hand from the answers (counts = annotators giving the form).
const cases: Case[] = [
  {
    name: "the paper's happy.a example: glad 3, merry 2, cheerful 1, jovial 1",
    lexelt: "happy.a",
    id: "9999",
    answers: [["glad", "merry"], ["glad"], ["cheerful", "glad"], ["merry"], ["jovial"]],
    line: "happy.a 9999 :: glad 3;merry 2;cheerful 1;jovial 1;",
    mode: "glad",
    size: 7,
    inT: true,
  },
  {
    name: "a tie at the top: no mode",
    lexelt: "bright.a",
    id: "1",
    answers: [["clever"], ["intelligent"], ["clever", "intelligent"], "NIL"],
    line: "bright.a 1 :: clever 2;intelligent 2;",
    mode: null,
    size: 4,
    inT: true,
  },
  {
    name: "ties below the mode in code-point order (hyphen kept)",
    lexelt: "bright.a",
    id: "2",
    answers: [["light", "luminous"], ["luminous"], ["clear"], ["well-lit"]],
    line: "bright.a 2 :: luminous 2;clear 1;light 1;well-lit 1;",
    mode: "luminous",
    size: 5,
    inT: true,
  },
  {
    name: "NAME written as pn with its count; one substitute is not T",
    lexelt: "gall.n",
    id: "212",
    answers: ["NAME", "NAME", "NAME", ["bile"]],
    line: "gall.n 212 :: pn 3;bile 1;",
    mode: null,
    size: 1,
    inT: false,
  },
  {
    name: "pn ties with a substitute: alphabetical, and never the mode",
    lexelt: "gall.n",
    id: "213",
    answers: ["NAME", "NAME", ["bile"], ["bile"], "NIL"],
    line: "gall.n 213 :: bile 2;pn 2;",
    mode: "bile",
    size: 2,
    inT: true,
  },
  {
    name: "NIL is not written",
    lexelt: "cold.a",
    id: "5",
    answers: ["NIL", "NIL", ["chilly"]],
    line: "cold.a 5 :: chilly 1;",
    mode: null,
    size: 1,
    inT: false,
  },
  {
    name: "all NIL: no line",
    lexelt: "cold.a",
    id: "6",
    answers: ["NIL", "NIL", "NIL"],
    line: null,
    mode: null,
    size: 0,
    inT: false,
  },
  {
    name: "spaces collapsed, case kept as typed; one annotator's repeat counts once",
    lexelt: "happy.a",
    id: "7",
    answers: [["glad", "glad "], ["  glad"], ["GLAD"]],
    line: "happy.a 7 :: glad 2;GLAD 1;",
    mode: "glad",
    size: 3,
    inT: true,
  },
  {
    name: "case folded when the coordinator asks for it",
    lexelt: "happy.a",
    id: "7",
    answers: [["glad", "Glad "], ["  glad"], ["GLAD"]],
    options: { foldCase: true },
    line: "happy.a 7 :: glad 3;",
    mode: "glad",
    size: 3,
    inT: true,
  },
  {
    name: "lemmatised by the target's PoS, phrases too (took place → take place)",
    lexelt: "happen.v",
    id: "8",
    answers: [["occurred"], ["occurs"], ["took place"], ["take place"], ["happened"]],
    options: { propose },
    line: "happen.v 8 :: occur 2;take place 2;happen 1;",
    mode: null,
    size: 5,
    inT: true,
  },
  {
    name: "without a proposer nothing is lemmatised",
    lexelt: "happen.v",
    id: "8",
    answers: [["occurred"], ["occurs"]],
    line: "happen.v 8 :: occurred 1;occurs 1;",
    mode: null,
    size: 2,
    inT: true,
  },
  {
    name: "data is a WordNet lemma: kept, and case kept (NATO)",
    lexelt: "figure.n",
    id: "9",
    answers: [["data"], ["data"], ["figures"], ["NATO"]],
    options: { propose },
    line: "figure.n 9 :: data 2;NATO 1;figure 1;",
    mode: "data",
    size: 4,
    inT: true,
  },
  {
    name: "the lemma table keeps numbers and writes nato in capitals",
    lexelt: "figure.n",
    id: "9",
    answers: [["data"], ["Data"], ["numbers"], ["nato"]],
    options: { propose, lemmaTable: lemmaTable([{ form: "numbers", lemma: "numbers", decision: "kept" }, { form: "nato", lemma: "NATO", decision: "overridden" }]) },
    line: "figure.n 9 :: Data 1;NATO 1;data 1;numbers 1;",
    mode: null,
    size: 4,
    inT: true,
  },
  {
    name: "a PoS correction rewrites the item and lemmatises as a verb",
    lexelt: "stand.n",
    id: "131",
    answers: [["waited"], ["wait"], ["remain"]],
    options: { propose, posCorrections: { "131": "v" } },
    line: "stand.n.v 131 :: wait 2;remain 1;",
    mode: "wait",
    size: 3,
    inT: true,
  },
  {
    name: "the same answers as a noun: waited stays, no mode",
    lexelt: "stand.n",
    id: "131",
    answers: [["waited"], ["wait"], ["remain"]],
    options: { propose },
    line: "stand.n 131 :: remain 1;wait 1;waited 1;",
    mode: null,
    size: 3,
    inT: true,
  },
  {
    name: "a multiword majority (lemmatised, space collapsed)",
    lexelt: "take.v",
    id: "29",
    answers: [["happen"], ["occur"], ["happen"], ["participate"], "NIL"],
    multiwords: ["took place", "take place", "take  place", "take part", null],
    options: { propose },
    line: "take.v 29 :: happen 2;occur 1;participate 1;",
    mode: "happen",
    size: 4,
    inT: true,
    mwLine: "take.v 29 :: take place 3;take part 1;",
    multiword: "take place",
  },
  {
    name: "multiwords one each (a hyphen makes another phrase): not a multiword item",
    lexelt: "cross.n",
    id: "59",
    answers: [["section"], ["section"], ["slice"]],
    multiwords: ["cross section", "cross-section", null],
    line: "cross.n 59 :: section 2;slice 1;",
    mode: "section",
    size: 3,
    inT: true,
    mwLine: "cross.n 59 :: cross section 1;cross-section 1;",
    multiword: null,
  },
  {
    name: "a two-two multiword tie: not a multiword item",
    lexelt: "bull.n",
    id: "587",
    answers: [["centre"], ["centre"], ["middle"], ["target"]],
    multiwords: ["bulls eye", "bulls eye", "bull's eye", "bull's eye"],
    line: "bull.n 587 :: centre 2;middle 1;target 1;",
    mode: "centre",
    size: 4,
    inT: true,
    mwLine: "bull.n 587 :: bull's eye 2;bulls eye 2;",
    multiword: null,
  },
  {
    name: "two against one: a multiword item, even on an item outside T",
    lexelt: "stand.v",
    id: "140",
    answers: ["NIL", "NAME", ["support"]],
    multiwords: ["stand by", "stand by", "stand up"],
    line: "stand.v 140 :: pn 1;support 1;",
    mode: null,
    size: 1,
    inT: false,
    mwLine: "stand.v 140 :: stand by 2;stand up 1;",
    multiword: "stand by",
  },
];

describe("deriveGold: hand-computed items", () => {
  it.each(cases)("$name", (c) => {
    const g = deriveGold([{ lexelt: c.lexelt, instanceId: c.id }], responsesFor(c.lexelt, c.id, c.answers, c.multiwords), c.options);
    expect(g.problems).toEqual([]);
    const item = g.items[0];
    expect(item.line).toBe(c.line);
    expect(item.mode).toBe(c.mode);
    expect(item.size).toBe(c.size);
    expect(item.inT).toBe(c.inT);
    expect(item.mwLine).toBe(c.mwLine ?? null);
    expect(item.multiword).toBe(c.multiword ?? null);
  });

  it("keeps every annotator's answer for review, whitespace collapsed and case kept", () => {
    const g = deriveGold([{ lexelt: "gall.n", instanceId: "213" }], responsesFor("gall.n", "213", ["NAME", [" Bile", "bile"], "NIL"], [null, "Gall Bladder", null]));
    expect(g.items[0].responses).toEqual([
      { annotator: "A", kind: "NAME", substitutes: [], multiword: null },
      { annotator: "B", kind: "substitutes", substitutes: ["Bile", "bile"], multiword: "Gall Bladder" },
      { annotator: "C", kind: "NIL", substitutes: [], multiword: null },
    ]);
    expect(g.items[0]).toMatchObject({ names: 1, nils: 1, entries: [{ substitute: "Bile", count: 1 }, { substitute: "bile", count: 1 }, { substitute: "pn", count: 1 }] });
  });
});

describe("deriveGold: exclusions, corrections and the files", () => {
  const instances: GoldInstance[] = [
    { lexelt: "happy.a", instanceId: "9999" },
    { lexelt: "cold.a", instanceId: "6" },
    { lexelt: "stand.n", instanceId: "131" },
    { lexelt: "take.v", instanceId: "29" },
    { lexelt: "bright.a", instanceId: "1", excludedReason: "sentence garbled" },
  ];
  const responses = [
    ...responsesFor("happy.a", "9999", [["glad", "merry"], ["glad"], ["cheerful", "glad"], ["merry"], ["jovial"]]),
    ...responsesFor("cold.a", "6", ["NIL", "NIL"]),
    ...responsesFor("stand.n", "131", [["waited"], ["wait"], ["remain"]], ["stand by", "stand by", null]),
    ...responsesFor("take.v", "29", [["happen"], ["occur"]], ["took place", "take place"]),
    ...responsesFor("bright.a", "1", [["clever"], ["smart"]], ["bright spark", null]),
  ];
  const g = deriveGold(instances, responses, { propose, posCorrections: new Map([["131", "v"]]) });

  it("writes the gold: a leading blank line as the official files, one line per instance with entries", () => {
    expect(formatGold(g.items)).toBe(
      "\n" +
        "happy.a 9999 :: glad 3;merry 2;cheerful 1;jovial 1;\n" +
        "stand.n.v 131 :: wait 2;remain 1;\n" +
        "take.v 29 :: happen 1;occur 1;\n",
    );
    expect(formatGold(g.items, { leadingBlankLine: false })).toBe(formatGold(g.items).slice(1));
  });

  it("writes the mwgold, leaving out the excluded instance", () => {
    expect(formatMwGold(g.items)).toBe("\nstand.n.v 131 :: stand by 2;\ntake.v 29 :: take place 2;\n");
  });

  it("keeps the excluded instance for review, with its reason", () => {
    expect(g.items[4]).toMatchObject({ excluded: "sentence garbled", line: "bright.a 1 :: clever 1;smart 1;", inT: true });
    expect(g.items[2]).toMatchObject({ lexelt: "stand.n.v", originalLexelt: "stand.n", pos: "v" });
  });

  it("summarises the instances not excluded", () => {
    expect(g.summary).toEqual({ instances: 5, excluded: 1, goldLines: 3, inT: 3, withMode: 2, mwLines: 2, mwItems: 2 });
  });

  it("takes exclusions and corrections from options or from the instance records alike", () => {
    const viaOptions = deriveGold(
      [{ lexelt: "stand.n", instanceId: "131" }, { lexelt: "bright.a", instanceId: "1" }],
      responses,
      { propose, posCorrections: { "131": "v" }, exclusions: { "1": "sentence garbled" } },
    );
    const viaRecords = deriveGold(
      [{ lexelt: "stand.n", instanceId: "131", correctedPos: "v" }, { lexelt: "bright.a", instanceId: "1", excludedReason: "sentence garbled" }],
      responses,
      { propose },
    );
    expect(viaOptions.items).toEqual(viaRecords.items);
    expect(formatGold(viaOptions.items)).toBe("\nstand.n.v 131 :: wait 2;remain 1;\n");
  });

  it.each([
    ["stand.n", "v", "stand.n.v"],
    ["stand.n.v", "n", "stand.n"],
    ["stand.n.v", "a", "stand.n.a"],
    ["wild.a", "a", "wild.a"],
    ["no-pos", "v", null],
  ])("correctedItem(%s, %s) = %s", (item, pos, expected) => {
    expect(correctedItem(item, pos)).toBe(expected);
  });
});

describe("deriveGold: bad input becomes problems, never a crash", () => {
  it("reports each problem with the instance and annotator, and goes on", () => {
    const g = deriveGold(
      [
        { lexelt: "happy.a", instanceId: "1" },
        { lexelt: "happy.a", instanceId: "1" },
        { lexelt: "stand.n", instanceId: "2", correctedPos: "q" },
      ],
      [
        { annotator: "A", lexelt: "happy.a", instanceId: "1", kind: "substitutes", substitutes: ["glad;merry", "x", "joyful"], multiword: null },
        { annotator: "A", lexelt: "happy.a", instanceId: "1", kind: "substitutes", substitutes: ["sad"], multiword: null },
        { annotator: "B", lexelt: "happy.a", instanceId: "1", kind: "substitutes", substitutes: ["pn", "joyful"], multiword: "a;b" },
        { annotator: "A", lexelt: "sad.a", instanceId: "1", kind: "substitutes", substitutes: ["glum"], multiword: null },
        { annotator: "A", lexelt: "happy.a", instanceId: "77", kind: "NIL", substitutes: [], multiword: null },
      ],
    );
    expect(g.problems.map((p) => [p.instanceId, p.annotator, p.message.split(";")[0].split(",")[0]])).toEqual([
      ["1", null, "instance id 1 appears twice"],
      ["2", null, 'corrected PoS "q" is not one of n'],
      ["1", "A", 'substitute "glad'],
      ["1", "A", 'substitute "x" is written as given'],
      ["1", "A", "second response from A to instance 1"],
      ["1", "B", 'substitute "pn" would be read as the NAME entry'],
      ["1", "B", 'multiword "a'],
      ["1", "A", "response names lexelt sad.a but instance 1 is happy.a"],
      ["77", "A", "response to unknown instance 77"],
    ]);
    // What was usable is still counted: A's x and joyful, B's joyful.
    expect(g.items[0].line).toBe("happy.a 1 :: joyful 2;x 1;");
    expect(g.items[1]).toMatchObject({ lexelt: "stand.n", pos: "n" });
  });
});

describe("deriveGold: stored answers that break the save rules (substitute-rules.ts)", () => {
  // Answers stored before the rules, or imported by an older version: kept in the
  // gold as written, and listed with the rule they break, once per form.
  const g = deriveGold(
    [
      { lexelt: "take.v", instanceId: "7", head: "took" },
      { lexelt: "take.v", instanceId: "8" },
    ],
    [
      { annotator: "A", lexelt: "take.v", instanceId: "7", kind: "substitutes", substitutes: ["grab, seize", "10", "<b>get</b>"], multiword: "happen soon" },
      { annotator: "B", lexelt: "take.v", instanceId: "7", kind: "substitutes", substitutes: ["grab, seize", "get"], multiword: "took place" },
      { annotator: "A", lexelt: "take.v", instanceId: "8", kind: "substitutes", substitutes: ["get"], multiword: "happen soon" },
    ],
    { unreviewed: "keep" },
  );

  it("lists each with the rule, says whether the scorer reads it back, and keeps it in the gold", () => {
    expect(g.problems.map((p) => [p.instanceId, p.annotator, p.message])).toEqual([
      ["7", "A", 'substitute "grab, seize" is written as given, but the official scorer will not read it back as written; it breaks the "list" rule the workspace applies at save (one substitute per field — put the others in the next fields); a lemma-table entry can rewrite it'],
      ["7", "A", 'substitute "10" is written as given; it breaks the "letters" rule the workspace applies at save (a substitute has at least two letters); a lemma-table entry can rewrite it'],
      ["7", "A", 'substitute "<b>get</b>" is written as given, but the official scorer will not read it back as written; it breaks the "markup" rule the workspace applies at save (no markup: the gold files cannot hold “<” or “>”); a lemma-table entry can rewrite it'],
      ["7", "A", 'multiword "happen soon" is written as given; it breaks the "target" rule the workspace applies at save (the phrase must contain the target word: “took” or “take”); a lemma-table entry can rewrite it'],
    ]);
    expect(g.items[0].line).toBe("take.v 7 :: grab, seize 2;10 1;<b>get</b> 1;get 1;");
  });

  it("checks a multiword against its target only where the instance's head word is known", () => {
    expect(g.problems.filter((p) => p.instanceId === "8")).toEqual([]);
    expect(g.items[1].mwLine).toBe("take.v 8 :: happen soon 1;");
  });
});

describe("deriveGold → formatGold → the project's scorer", () => {
  // The documentation's example, from responses: glad;cheerful scores (3 + 1) / (2 · 7) = .286
  // for best, (3 + 1) / 7 for oot, and the best guess glad is the mode.
  const g = deriveGold(
    [
      { lexelt: "happy.a", instanceId: "9999" },
      { lexelt: "bright.a", instanceId: "1" },
      { lexelt: "take.v", instanceId: "29" },
    ],
    [
      ...responsesFor("happy.a", "9999", [["glad", "merry"], ["glad"], ["cheerful", "glad"], ["merry"], ["jovial"]]),
      ...responsesFor("bright.a", "1", [["clever"], ["intelligent"], ["clever", "intelligent"], "NIL"]),
      ...responsesFor("take.v", "29", [["happen"], ["occur"], ["happen"]], ["took place", "take place", "take part"]),
    ],
    { propose },
  );
  const { key, diagnostics } = ScoringKey.fromGold(parseGold(formatGold(g.items), "gold").lines, "gold");

  it("reads back without a diagnostic, with the same T, |H_i| and modes", () => {
    expect(diagnostics).toEqual([]);
    expect(key.total).toBe(g.summary.inT);
    expect(key.totalWithMode).toBe(g.summary.withMode);
    for (const item of g.items) {
      const o = key.find(item.instanceId);
      expect(o >= 0).toBe(item.inT);
      expect(key.mode(o)).toBe(item.mode);
      expect(key.humanResponses(o)).toBe(item.size);
    }
  });

  it("scores best and oot as the hand computation says", () => {
    const best = scoreBest(key, parseSystem("happy.a 9999 :: glad;cheerful\nbright.a 1 :: smart\n", "s", "best").lines);
    // Items in T: 3. Credits: 9999 4/14; bright.a 1 0; take.v 29 unanswered.
    expect(best.scores.precision).toBeCloseTo(4 / 14 / 2, 15);
    expect(best.scores.recall).toBeCloseTo(4 / 14 / 3, 15);
    // TM = {9999 (glad), 29 (happen)}; AM = {9999}: the best guess glad is its mode.
    expect(best.scores.modePrecision).toBe(1);
    expect(best.scores.modeRecall).toBe(0.5);
    const oot = scoreOot(key, parseSystem("happy.a 9999 ::: glad;cheerful\n", "s", "oot").lines);
    expect(oot.scores.recall).toBeCloseTo(4 / 7 / 3, 15);
  });

  it("scores the mwgold: take place is the multiword of 29", () => {
    const mw = MwKey.fromGold(parseMwGold(formatMwGold(g.items), "mwgold").lines);
    const r = scoreMw(mw, parseSystem("take.v 29 :: take place\n", "s", "mw").lines);
    expect(r.scores.identificationRecall).toBe(1);
    expect(r.scores.detectionPrecision).toBe(1);
  });
});

describeWithSharedData(semeval, "the official gold files", () => {
  /** The official line's entries (test-only reading: `sub n;` fields). */
  const entriesOf = (line: string) =>
    line
      .split(" :: ")[1]
      .split(";")
      .filter((f) => f.trim() !== "")
      .map((f) => {
        const i = f.lastIndexOf(" ");
        return { substitute: f.slice(0, i), count: Number(f.slice(i + 1)) };
      });

  /** Responses that reproduce a line's counts: annotator k gives every entry with count > k. */
  function responsesOf(lexelt: string, id: string, entries: { substitute: string; count: number }[]): AnnotatorResponse[] {
    const out: AnnotatorResponse[] = [];
    const names = entries.find((e) => e.substitute === "pn")?.count ?? 0;
    for (let k = 0; k < names; k++) out.push({ annotator: `N${k}`, lexelt, instanceId: id, kind: "NAME", substitutes: [], multiword: null });
    const subs = entries.filter((e) => e.substitute !== "pn");
    const top = Math.max(0, ...subs.map((e) => e.count));
    for (let k = 0; k < top; k++) {
      const given = subs.filter((e) => e.count > k).map((e) => e.substitute);
      out.push({ annotator: `S${k}`, lexelt, instanceId: id, kind: "substitutes", substitutes: given, multiword: null });
    }
    return out;
  }

  it.each(["trial/gold.trial", "test/gold.test"])("%s: every line is rewritten identically up to the order of ties", (file) => {
    const lines = readFileSync(path.join(semeval, file), "utf8").split("\n").filter((l) => l.trim() !== "");
    const instances: GoldInstance[] = [];
    const responses: AnnotatorResponse[] = [];
    const expected: string[] = [];
    for (const line of lines) {
      const [lexelt, id] = line.split(" ", 2);
      const entries = entriesOf(line);
      // Lines the normalisation would change (double spaces) are not comparable; capitals are kept.
      if (entries.some((e) => collapseSpace(e.substitute) !== e.substitute)) continue;
      instances.push({ lexelt, instanceId: id });
      responses.push(...responsesOf(lexelt, id, entries));
      const sorted = [...entries].sort((a, b) => b.count - a.count || (a.substitute < b.substitute ? -1 : a.substitute > b.substitute ? 1 : 0));
      expected.push(`${lexelt} ${id} :: ${sorted.map((e) => `${e.substitute} ${e.count};`).join("")}`);
    }
    expect(instances.length).toBeGreaterThan(lines.length * 0.95);
    const g = deriveGold(instances, responses, { unreviewed: "keep" });
    expect(g.items.map((i) => i.line)).toEqual(expected);
  });

  it("gold.test: T (|H_i| >= 2, pn not counted) has the 1696 items the paper reports (§2.1)", () => {
    const lines = readFileSync(path.join(semeval, "test/gold.test"), "utf8").split("\n").filter((l) => l.trim() !== "");
    const instances: GoldInstance[] = [];
    const responses: AnnotatorResponse[] = [];
    for (const line of lines) {
      const [lexelt, id] = line.split(" ", 2);
      instances.push({ lexelt, instanceId: id });
      responses.push(...responsesOf(lexelt, id, entriesOf(line)));
    }
    expect(deriveGold(instances, responses, { unreviewed: "keep" }).summary.inT).toBe(1696);
  });

  it("mwgold.test: the multiword rule (two or more, no tie) picks exactly the ids in mwids", () => {
    const mwids = new Set(
      readFileSync(path.join(semeval, "test/mwids"), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => l.trim().split(/\s+/)[0]),
    );
    const lines = readFileSync(path.join(semeval, "test/mwgold.test"), "utf8").split("\n").filter((l) => l.trim() !== "");
    const instances: GoldInstance[] = [];
    const responses: AnnotatorResponse[] = [];
    for (const line of lines) {
      const [lexelt, id] = line.split(" ", 2);
      instances.push({ lexelt, instanceId: id });
      let k = 0;
      for (const e of entriesOf(line)) {
        for (let c = 0; c < e.count; c++) {
          responses.push({ annotator: `M${k++}`, lexelt, instanceId: id, kind: "NIL", substitutes: [], multiword: e.substitute });
        }
      }
    }
    const g = deriveGold(instances, responses, { unreviewed: "keep" });
    expect(new Set(g.items.filter((i) => i.multiword !== null).map((i) => i.instanceId))).toEqual(mwids);
  });
});
