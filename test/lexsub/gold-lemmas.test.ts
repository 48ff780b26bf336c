/**
 * Exporting gold from substitutes that are lemmas already keeps them as written
 * (issue #12): CoInCo's sample as responses of pseudo-annotators, and crafted
 * lines for each form the old lemmatiser broke. The project's export writes
 * forms nobody decided as typed (lib/server/gold/gold.ts passes `unreviewed:
 * "keep"`); with the proposals applied (`--apply-proposals`, what `propose`
 * alone does here) inflected forms are lemmatised and the derivation lists every
 * proposal it applied.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type GoldInstance, deriveGold } from "../../lib/lexsub/gold";
import { lemmaTable } from "../../lib/lexsub/normalize";
import type { AnnotatorResponse } from "../../lib/lexsub/types";
import { wordnet, wordnetLemmaProposer } from "../../lib/wordnet/load";
import { coincoGoldInputs, coincoTargets } from "../support/coinco";

/** The proposer lib/server/gold/gold.ts derives the project's gold with (its proposals applied only on request). */
const propose = wordnetLemmaProposer();

const coinco = path.resolve(__dirname, "../../../shared/data/coinco/coinco-sample.xml");

/** A line's entries as substitute → count. */
function entries(line: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of line.split(" :: ")[1].split(";")) {
    if (f === "") continue;
    const i = f.lastIndexOf(" ");
    out.set(f.slice(0, i), Number(f.slice(i + 1)));
  }
  return out;
}

describe.runIf(existsSync(coinco))("CoInCo's sample (substitutes given as lemmas) through the gold export", () => {
  // runIf still collects the suite: without the sample (../shared absent) there is nothing to read.
  if (!existsSync(coinco)) return;
  const targets = coincoTargets(readFileSync(coinco, "utf8"));
  const { instances, responses, expected } = coincoGoldInputs(targets);
  const g = deriveGold(instances, responses, { propose });
  const unchanged = g.items.filter((item, k) => item.line === expected[k]).length;

  it("reads the sample's targets", () => {
    expect(targets.length).toBeGreaterThan(300);
    expect(g.problems).toEqual([]);
  });

  it(`with the proposals applied, comes back unchanged but for the proposals it lists, each an inflected form WordNet knows only as a form of an existing lemma (${unchanged} of ${expected.length} lines unchanged)`, () => {
    const wn = wordnet();
    const lemmaAnywhere = (s: string) => ["n", "v", "a", "r"].some((p) => wn.lemmas[p as "n"].has(s.toLowerCase().replace(/ /g, "_")));
    for (const a of g.applied) {
      expect(lemmaAnywhere(a.form), `${a.form} is a WordNet lemma and must be kept`).toBe(false);
      expect(wn.lemmas[a.pos as "n"].has(a.lemma.toLowerCase().replace(/ /g, "_")), `${a.lemma} must exist as a ${a.pos}`).toBe(true);
    }
    const mapped = new Map(g.applied.map((a) => [`${a.pos} ${a.form}`, a.lemma]));
    g.items.forEach((item, k) => {
      // The expected line with the applied proposals merged in. Counts are annotators, and the
      // pseudo-annotators giving a substitute are the first n, so a merged entry counts the larger n.
      const want = new Map<string, number>();
      for (const [s, n] of entries(expected[k])) {
        const l = mapped.get(`${item.pos} ${s}`) ?? s;
        want.set(l, Math.max(want.get(l) ?? 0, n));
      }
      expect(entries(item.line!)).toEqual(want);
    });
  });

  it("as the export writes it by default, and with every form kept (lexgold lemmas keep --all), every line comes back exactly, case included", () => {
    expect(deriveGold(instances, responses, { propose, unreviewed: "keep" }).items.map((i) => i.line)).toEqual(expected);
    const forms = new Set(responses.flatMap((r) => r.substitutes.map((s) => s.toLowerCase())));
    const table = lemmaTable([...forms].map((form) => ({ form, lemma: form, decision: "kept" as const })));
    const reviewed = deriveGold(instances, responses, { propose, lemmaTable: table });
    expect(reviewed.items.map((i) => i.line)).toEqual(expected);
    expect(reviewed.applied).toEqual([]);
  });
});

/** One instance; annotator k gives the k-th list. */
function item(lexelt: string, id: string, answers: string[][]): { instance: GoldInstance; responses: AnnotatorResponse[] } {
  return {
    instance: { lexelt, instanceId: id },
    responses: answers.map((substitutes, k) => ({ annotator: `a${k}`, lexelt, instanceId: id, kind: "substitutes", substitutes, multiword: null })),
  };
}

describe("crafted substitutes that are lemmas already: written exactly as typed", () => {
  // Each form here was rewritten by the old lemmatiser (boss → bos, species → specie,
  // means → mean, corps → corp, lay → lie, would → will, outer → out, hinder → hind,
  // rating → rat, ground → grind, ingress → ingres) or lower-cased (November, TV, BSE).
  const cases = [
    item("chief.n", "c1", [["boss", "head"], ["boss"], ["Boss"]]),
    item("kind.n", "c2", [["species", "sort"], ["species"]]),
    item("way.n", "c3", [["means"], ["means", "method"]]),
    item("unit.n", "c4", [["corps"], ["corps", "troop"]]),
    item("entry.n", "c5", [["ingress"], ["rating", "access"]]),
    item("month.n", "c6", [["November"], ["November", "Nov."]]),
    item("set.n", "c7", [["TV", "television"], ["tv"], ["TV"]]),
    item("disease.n", "c8", [["BSE"], ["the Eucharist"]]),
    item("put.v", "c9", [["lay", "place"], ["lay"], ["ground"]]),
    item("might.v", "c10", [["would"], ["would", "could"]]),
    item("external.a", "c11", [["outer"], ["outer", "outside"]]),
    item("block.v", "c12", [["hinder"], ["hinder", "impede"]]),
    item("coin.n", "c13", [["penny"], ["penny", "cent"]]),
    item("good.a", "c14", [["better"], ["better", "superior"]]),
  ];
  const g = deriveGold(
    cases.map((c) => c.instance),
    cases.flatMap((c) => c.responses),
    { propose },
  );

  it("keeps every line as typed, case included, and applies no proposal", () => {
    expect(g.items.map((i) => i.line)).toEqual([
      "chief.n c1 :: boss 2;Boss 1;head 1;",
      "kind.n c2 :: species 2;sort 1;",
      "way.n c3 :: means 2;method 1;",
      "unit.n c4 :: corps 2;troop 1;",
      "entry.n c5 :: access 1;ingress 1;rating 1;",
      "month.n c6 :: November 2;Nov. 1;",
      "set.n c7 :: TV 2;television 1;tv 1;",
      "disease.n c8 :: BSE 1;the Eucharist 1;",
      "put.v c9 :: lay 2;ground 1;place 1;",
      "might.v c10 :: would 2;could 1;",
      "external.a c11 :: outer 2;outside 1;",
      "block.v c12 :: hinder 2;impede 1;",
      "coin.n c13 :: penny 2;cent 1;",
      "good.a c14 :: better 2;superior 1;",
    ]);
    expect(g.applied).toEqual([]);
  });

  it("folds case only when asked", () => {
    const folded = deriveGold([cases[6].instance], cases[6].responses, { propose, foldCase: true });
    expect(folded.items[0].line).toBe("set.n c7 :: tv 3;television 1;");
  });
});

describe("inflected substitutes: lemmatised, and listed as applied proposals", () => {
  const cases = [
    item("movie.n", "i1", [["films", "pictures"], ["film"], ["Films"]]),
    item("grab.v", "i2", [["took", "seized"], ["take"]]),
    item("rodent.n", "i3", [["mice"], ["mouse", "rats"]]),
    item("glad.a", "i4", [["happier"], ["happy"]]),
    // pence is not a lemma in WordNet 3.1: noun.exc makes it penny, so the two merge.
    item("cent.n", "i5", [["pence"], ["penny"]]),
    item("happen.v", "i6", [["took place"], ["occurred"]]),
  ];
  const g = deriveGold(
    cases.map((c) => c.instance),
    cases.flatMap((c) => c.responses),
    { propose },
  );

  it("writes the lemmas, keeping the case typed", () => {
    expect(g.items.map((i) => i.line)).toEqual([
      "movie.n i1 :: film 2;Film 1;picture 1;",
      "grab.v i2 :: take 2;seize 1;",
      "rodent.n i3 :: mouse 2;rat 1;",
      "glad.a i4 :: happy 2;",
      "cent.n i5 :: penny 2;",
      "happen.v i6 :: occur 1;take place 1;",
    ]);
  });

  it("lists each applied proposal with how often it was used", () => {
    expect(g.applied.map((a) => `${a.form}→${a.lemma} ${a.pos} ${a.count}`)).toEqual([
      "Films→Film n 1",
      "films→film n 1",
      "happier→happy a 1",
      "mice→mouse n 1",
      "occurred→occur v 1",
      "pence→penny n 1",
      "pictures→picture n 1",
      "rats→rat n 1",
      "seized→seize v 1",
      "took→take v 1",
      "took place→take place v 1",
    ]);
  });
});
