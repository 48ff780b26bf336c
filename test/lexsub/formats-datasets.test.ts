/** The dataset readers and writers on items that did not come from the dataset (lexelt XML + responses). */
import { describe, expect, it } from "vitest";
import { carriedSubstitute, parseCoinco, writeCoinco } from "../../lib/lexsub/formats/coinco";
import { type ExportItem, counted, mergedEntries } from "../../lib/lexsub/formats/dataset";
import { parseSwords, writeSwords } from "../../lib/lexsub/formats/swords";
import { parseTsar, writeTsar } from "../../lib/lexsub/formats/tsar";

const item = (over: Partial<ExportItem> = {}): ExportItem => ({
  lexelt: "calm.a",
  instanceId: "c1",
  before: "a ",
  head: "calm",
  after: " & quiet <sea>",
  excluded: null,
  meta: null,
  imported: [],
  derived: [
    { substitute: "still", count: 3 },
    { substitute: "pn", count: 1 },
    { substitute: "serene", count: 1 },
  ],
  mwEntries: [{ substitute: "calm down", count: 1 }],
  ...over,
});

describe("mergedEntries", () => {
  it("adds response counts to imported entries (SWORDS labels as TRUE) and counts NAME answers apart", () => {
    const m = mergedEntries(item({ imported: [{ substitute: "still", count: 1, labels: ["TRUE", "FALSE"], meta: { id: "s:1" } }] }));
    expect(m.names).toBe(1);
    expect(m.entries).toEqual([
      { substitute: "still", count: 4, labels: ["TRUE", "FALSE", "TRUE", "TRUE", "TRUE"], meta: { id: "s:1" } },
      { substitute: "serene", count: 1, labels: null, meta: null },
    ]);
  });
});

describe("writers read back by their readers", () => {
  it("CoInCo: one sentence holding the target token, escaped, with the counts", () => {
    const out = writeCoinco([item()]);
    const back = parseCoinco(out.text, "out.xml");
    expect(back.errors).toEqual([]);
    expect(back.instances).toHaveLength(1);
    expect(back.instances[0]).toMatchObject({ instanceId: "c1", lexelt: "calm.a", before: "a ", head: "calm", after: " & quiet <sea>" });
    expect(back.instances[0].entries.map((e) => [e.substitute, e.count])).toEqual([["still", 3], ["serene", 1]]);
    expect(out.lost.join(" ")).toMatch(/1 NAME answer .* was dropped.*1 instance had multiword answers/s);
  });

  it("SWORDS: a new target at the head's offset, counts as TRUE labels", () => {
    const out = writeSwords([item(), item({ instanceId: "c2", excluded: "noise" })]);
    const back = parseSwords(out.text, "out.json");
    expect(back.errors).toEqual([]);
    expect(back.instances).toHaveLength(1);
    expect(back.instances[0]).toMatchObject({ lexelt: "calm.a", before: "a ", head: "calm", after: " & quiet <sea>" });
    expect(back.instances[0].entries.map((e) => [e.substitute, e.labels])).toEqual([["still", ["TRUE", "TRUE", "TRUE"]], ["serene", ["TRUE"]]]);
    expect(out.lost.join(" ")).toMatch(/1 excluded instance was left out/);
  });

  it("TSAR: the sentence, the head and each substitute repeated by its count", () => {
    const out = writeTsar([item()]);
    expect(out.text).toBe("a calm & quiet <sea>\tcalm\tstill\tstill\tstill\tserene\n");
    const back = parseTsar(out.text, "out.tsv");
    expect(back.instances[0]).toMatchObject({ instanceId: "out:1", before: "a ", head: "calm", lexelt: "calm.x" });
  });

  it.each([
    ["a cat scattered the cat food", "cat", "a "],
    ["scattered cats, then a cat", "cat", "scattered cats, then a "],
    ["concatenate", "cat", "con"],
  ])("TSAR finds the complex word whole before any part of a word: %s", (sentence, word, before) => {
    expect(parseTsar(`${sentence}\t${word}\tx\n`, "t.tsv").instances[0].before).toBe(before);
  });
});

describe("CoInCo entries the gold cannot hold as written", () => {
  it("replaces each ';' and line break by a space, collapses spaces and trims; other substitutes are left exactly as they are", () => {
    expect(carriedSubstitute("genus ;")).toBe("genus");
    expect(carriedSubstitute("exact ; u")).toBe("exact u");
    expect(carriedSubstitute(";")).toBe("");
    expect(carriedSubstitute("a\nb")).toBe("a b");
    expect(carriedSubstitute(" country 's ")).toBe(" country 's ");
  });

  it("locates targets after a contraction split with an overlap and after a token glued to the target", () => {
    const sent = (target: string, tokens: string) =>
      `<?xml version="1.0"?>\n<document>\n<sent MASCfile="f" MASCsentID="s"><precontext></precontext><targetsentence>${target}</targetsentence><postcontext></postcontext><tokens>\n${tokens}</tokens></sent>\n</document>\n`;
    const tok = (id: string, w: string, pos = "VB") => `<token id="${id}" wordform="${w}" lemma="${w}" posMASC="${id === "XXX" ? "XXX" : pos}" posTT="VV" >${id === "XXX" ? "" : `<substitutions><subst lemma="x${id}" pos="VV" freq="1" /></substitutions>`}</token>\n`;
    // "hadn’t spoken … wasn’t": the XXX "n’t" is found only in "wasn’t", past "spoken".
    const a = parseCoinco(sent("She hadn’t spoken, so I wasn’t sure.", tok("XXX", "She") + tok("1", "hadn") + tok("XXX", "n’t") + tok("2", "spoken") + tok("3", "wasn") + tok("XXX", "n’t")), "a.xml");
    expect(a.issues).toEqual([]);
    expect(a.instances.map((i) => [i.instanceId, i.before, i.head])).toEqual([
      ["1", "She ", "hadn"],
      ["2", "She hadn’t ", "spoken"],
      ["3", "She hadn’t spoken, so I ", "wasn"],
    ]);
    // "…back": the XXX token holds the target after it.
    const b = parseCoinco(sent("Come …back now.", tok("XXX", "Come") + tok("XXX", "…back") + tok("1", "back", "RB") + tok("2", "now", "RB")), "b.xml");
    expect(b.instances.map((i) => [i.instanceId, i.before, i.head])).toEqual([
      ["1", "Come …", "back"],
      ["2", "Come …back ", "now"],
    ]);
  });
});

describe("what one writer carries for another format, read back (#29)", () => {
  it("SWORDS keeps a TSAR line's lexelt (PoS x, written pos null), instance id and column order; TSAR writes them again", () => {
    const tsar = parseTsar("we merged them and merged again\tmerged\tjoined\tfused\tjoined\n", "t.tsv");
    const [inst] = tsar.instances;
    // The head a TSAR reader takes is the first whole-word "merged".
    expect(inst.before).toBe("we ");
    const asItem = (i: typeof inst, meta = i.meta): ExportItem => ({ ...i, excluded: null, meta, imported: i.entries, derived: [], mwEntries: [] });
    const swords = writeSwords([asItem(inst)]);
    expect(swords.lost.join(" ")).toMatch(/1 instance has a PoS other than n, v, a, r and was written with pos null \(its lexelt is kept in extra\.lexelt\) \(t:1\)/);
    const back = parseSwords(swords.text, "s.json");
    expect(back.errors).toEqual([]);
    expect(back.instances[0]).toMatchObject({ instanceId: "t:1", lexelt: "merged.x", before: "we ", head: "merged" });
    // The column order comes back from the SWORDS file's extra, not count-descending.
    expect(writeTsar([asItem(back.instances[0])]).text).toBe("we merged them and merged again\tmerged\tjoined\tfused\tjoined\n");
  });

  it("SWORDS refuses two targets naming the same instance", () => {
    const doc = JSON.parse(writeSwords([item(), item({ before: "one ", head: "calm" })]).text);
    const [a, b] = Object.keys(doc.targets);
    expect(doc.targets[a].extra.lexgold_instance).toBe("c1");
    expect(doc.targets[b].extra.lexgold_instance).toBe("c1");
    const back = parseSwords(JSON.stringify(doc), "s.json");
    expect(back.errors.map((e) => `${e.where}: ${e.message}`)).toEqual([`s.json: $.targets[${JSON.stringify(b)}].extra.lexgold_instance: instance id "c1" is already used by $.targets[${JSON.stringify(a)}]`]);
  });

  it("TSAR reports each head a reader would put elsewhere, with its id", () => {
    const moved = item({ instanceId: "m1", lexelt: "cat.n", before: "a cat saw the ", head: "cat", after: "" });
    const kept = item({ instanceId: "k1", lexelt: "cat.n", before: "scattered ", head: "cat", after: " food" });
    const out = writeTsar([moved, kept]);
    expect(out.lost).toContain(
      "1 instance has its head at another occurrence of the word than the one a reader takes (the first whole-word occurrence in the sentence, else the first): TSAR gives no position, so an import (lexgold's too) puts the head there (m1)",
    );
    const back = parseTsar(out.text, "o.tsv").instances;
    expect(back.map((i) => i.before)).toEqual(["a ", "scattered "]);
  });

  it("CoInCo: a head after an earlier occurrence of its word is reached through XXX tokens for the words before it", () => {
    const out = writeCoinco([item({ lexelt: "cat.n", before: "the concatenated cat and the ", head: "cat", after: " slept" })]);
    expect(out.text).toContain('<token id="XXX" wordform="concatenated" lemma="" posMASC="XXX" posTT="XXX" />');
    const back = parseCoinco(out.text, "o.xml");
    expect(back.errors).toEqual([]);
    expect(back.instances[0]).toMatchObject({ before: "the concatenated cat and the ", head: "cat", after: " slept" });
    expect(out.lost.join(" ")).not.toMatch(/could not be placed/);
    // Without an earlier occurrence, the target token alone, as before.
    expect(writeCoinco([item()]).text).not.toContain('id="XXX"');
  });
});

describe("counted: a report line agrees with its count (#40)", () => {
  it.each([
    [1, "instances had multiword answers, which TSAR cannot carry (7)", "1 instance had multiword answers, which TSAR cannot carry (7)"],
    [2, "instances had multiword answers", "2 instances had multiword answers"],
    [1, "NAME answers (pn) were dropped: TSAR has no proper-name entry", "1 NAME answer (pn) was dropped: TSAR has no proper-name entry"],
    [1, "excluded instances were left out", "1 excluded instance was left out"],
    [1, "instances' SWORDS labels are written as counts", "1 instance's SWORDS labels are written as counts"],
    [1, "lines have a cell beginning with =", "1 line has a cell beginning with ="],
  ])("%i %s", (n, text, want) => {
    expect(counted(n, text)).toBe(want);
  });
});
