/**
 * tsar_eval.py's reading rules, on files written here. The expected figures
 * follow from what the script does: `open(path).readlines()` (universal
 * newlines: \n, \r\n and a lone \r end a line; strict UTF-8, a byte-order mark
 * kept), each line `.strip().split("\t")`, each substitute `.strip()`, the key
 * `sentence + "__" + word` looked up exactly, `key.split('__')` unpacked into two.
 */
import { describe, expect, it } from "vitest";
import { parseTsarGold, parseTsarPredictions, rankRuns, scoreTsar } from "../../../lib/scorers/ranking";
import { decodePythonUtf8, invalidUtf8At, pyReadLines } from "../../../lib/scorers/shared/python-text";
import { py3Strip as pyStrip } from "../../../lib/scorers/shared/pyfloat";

// Two instances; gold types: {dog 2, pet 1} and {auto 1, vehicle 1}.
const GOLD = "the cat sat\tcat\tdog\tdog\tpet\na red car\tcar\tauto\tvehicle\n";
const score = (pred: string, options: { repaired?: boolean } = {}) =>
  scoreTsar(parseTsarGold(GOLD, "gold.tsv", options), parseTsarPredictions(pred, "run.tsv", options), options);

describe("lines as Python's universal newlines split them", () => {
  it("a lone CR ends a line: two instances, one right at rank 1 → ACC@1 0.5 (read as one line it was 0.0)", () => {
    const r = score("the cat sat\tcat\tdog\ra red car\tcar\tbus\r");
    expect(r.instances).toBe(2);
    expect(r.figures).toMatchObject({ acc1: 0.5, potential: { 3: 0.5 }, accuracyTop1: { 1: 0.5 } });
    // MAP@3: (1/1)/3 for the first, 0 for the second, averaged and floored: 0.1666
    expect(r.figures!.map[3]).toBe(0.1666);
  });
  it("CRLF, CR and LF give the same figures", () => {
    const lf = score("the cat sat\tcat\tdog\na red car\tcar\tbus\n").figures;
    expect(score("the cat sat\tcat\tdog\r\na red car\tcar\tbus\r\n").figures).toEqual(lf);
    expect(scoreTsar(parseTsarGold(GOLD.replaceAll("\n", "\r"), "g"), parseTsarPredictions("the cat sat\tcat\tdog\na red car\tcar\tbus", "r")).figures).toEqual(lf);
  });
  it("pyReadLines: no empty line after a final line end; a final line without one counts", () => {
    expect(pyReadLines("a\r\nb\rc\n").map((l) => l.text)).toEqual(["a", "b", "c"]);
    expect(pyReadLines("a\n\n").map((l) => l.text)).toEqual(["a", ""]);
    expect(pyReadLines("a\nb").map((l) => l.line)).toEqual([1, 2]);
  });
  it("a blank line stops the script (IndexError), inside or at the end: an error naming the line, no figures", () => {
    for (const [pred, line] of [["the cat sat\tcat\tdog\n\na red car\tcar\tbus\n", 2], ["the cat sat\tcat\tdog\na red car\tcar\tbus\n\n", 3]] as const) {
      const run = parseTsarPredictions(pred, "run.tsv");
      expect(run.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", line, message: expect.stringContaining("blank line") }));
    }
    expect(parseTsarPredictions("the cat sat\n", "run.tsv").diagnostics).toContainEqual(expect.objectContaining({ severity: "error", message: expect.stringContaining("no tab") }));
  });
});

describe("fields as str.strip() and split('\\t') give them", () => {
  it("an empty field between tabs is an empty substitute at its rank; trailing tabs go with the strip", () => {
    // first: ["", "dog"] → dog right at rank 2; second: ["auto"] right at rank 1
    const r = score("the cat sat\tcat\t\tdog\na red car\tcar\tauto\t\t\n");
    expect(r.items.map((i) => i.labels)).toEqual([["", "dog"], ["auto"]]);
    // ACC@1 1/2; MAP@3 ((1/2)/3 + 1/3)/2 = 0.25; Potential@3 1
    expect(r.figures).toMatchObject({ acc1: 0.5, map: { 3: 0.25 }, potential: { 3: 1 } });
  });
  it("a leading tab is stripped with the line, so the fields shift (sentence `cat`, word `dog`)", () => {
    const g = parseTsarGold("\tcat\tdog\tdog\n", "g");
    expect([...g.items.keys()]).toEqual(["cat__dog"]);
  });
  it("Python's whitespace, not JavaScript's: U+001C is stripped, U+FEFF is not", () => {
    expect(pyStrip("\u001c dog\u0085\u001f")).toBe("dog");
    expect(pyStrip("\uFEFFdog")).toBe("\uFEFFdog");
    expect(score("the cat sat\tcat\tdog\u001c\n").items[0].relevant).toEqual([true]);
    expect(score("a red car\tcar\tauto\uFEFF\n").items[0].relevant).toEqual([false]);
  });
  it("matching is exact and case-sensitive; the complex word and repeats are filtered, first place kept", () => {
    const r = score("the cat sat\tcat\tDog\tdog\tdog\na red car\tcar\tcar\tauto\n");
    expect(r.items.map((i) => i.labels)).toEqual([["Dog", "dog"], ["auto"]]);
    expect(r.figures).toMatchObject({ acc1: 0.5, map: { 3: 0.25 }, potential: { 3: 1 } });
  });
  it("a sentence with `__` makes the script's key.split('__') fail (ValueError): an error; repaired reads it whole", () => {
    const text = "the__cat sat\tcat\tdog\n";
    expect(parseTsarPredictions(text, "run.tsv").diagnostics).toContainEqual(expect.objectContaining({ severity: "error", line: 1, message: expect.stringContaining("ValueError") }));
    const r = scoreTsar(parseTsarGold(text, "g", { repaired: true }), parseTsarPredictions(text, "r", { repaired: true }), { repaired: true });
    expect(r.figures!.acc1).toBe(1);
  });
});

describe("bytes as Python 3 decodes them", () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it("not UTF-8: refused, naming file, line and byte offset (the script stops with UnicodeDecodeError)", () => {
    const bytes = new Uint8Array([...enc("the cat sat\tcat\tdog\na red car\tcar\tbus"), 0xff, 0x0a]);
    const d = decodePythonUtf8(bytes, "run.tsv");
    expect(d.text).toBeNull();
    expect(d.diagnostics).toEqual([expect.objectContaining({ severity: "error", file: "run.tsv", line: 2, message: expect.stringContaining("byte 0xff at byte offset 37") })]);
  });
  it("a lone CR counts as a line end when locating the bad byte", () => {
    expect(decodePythonUtf8(new Uint8Array([0x61, 0x0d, 0x62, 0x0d, 0x0a, 0xc3]), "f").diagnostics[0].line).toBe(3);
  });
  it("overlong forms, surrogates and code points above U+10FFFF are not UTF-8; a BOM is kept", () => {
    expect(invalidUtf8At(new Uint8Array([0x41, 0xc0, 0x80]))).toBe(1);
    expect(invalidUtf8At(new Uint8Array([0xed, 0xa0, 0x80]))).toBe(0);
    expect(invalidUtf8At(new Uint8Array([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
    expect(invalidUtf8At(enc("é€𝄞"))).toBe(-1);
    expect(decodePythonUtf8(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]), "f").text).toBe("\uFEFFa");
  });
  it("a BOM stays part of the first sentence, which the gold then lacks (KeyError): no figures; repaired drops it", () => {
    const pred = "\uFEFFthe cat sat\tcat\tdog\na red car\tcar\tbus\n";
    const r = score(pred);
    expect(r.figures).toBeNull();
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ severity: "error", line: 1 }));
    expect(score(pred, { repaired: true }).figures!.acc1).toBe(0.5);
  });
  it("through rankRuns, the CR file ranks with ACC@1 0.5", () => {
    const t = rankRuns("tsar", { name: "gold.tsv", text: GOLD }, [{ name: "run.tsv", text: "the cat sat\tcat\tdog\ra red car\tcar\tbus\r" }], null);
    expect(t.rows[0].values[0]).toBe(0.5);
  });
});
