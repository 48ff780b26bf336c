/**
 * TSAR/MLSP files whose complex word is not in the sentence as written: another case,
 * stray spaces, a German lemma of the sentence's inflected form. Each is found and
 * reported (line, word, how); a word with no occurrence, or a lemma with two different
 * forms in the sentence, is refused with its line. Files written here, not the task's.
 */
import { describe, expect, it } from "vitest";
import type { ExportItem } from "../../lib/lexsub/formats/dataset";
import { locateComplexWord, parseTsar, writeTsar } from "../../lib/lexsub/formats/tsar";
import { asExportItems } from "../support/export-items";

const items = (text: string, file = "f.tsv"): ExportItem[] => asExportItems(parseTsar(text, file).instances);

describe("TSAR/MLSP: locating the complex word", () => {
  it("case: a lower-cased word that opens the sentence capitalised is found there and reported", () => {
    const text = "Réparer la barque prend du temps.\tréparer\tcorriger\tcorriger\n";
    const r = parseTsar(text, "case.tsv");
    expect(r.errors).toEqual([]);
    const [i] = r.instances;
    expect([i.before, i.head, i.after.slice(0, 4), i.lexelt]).toEqual(["", "Réparer", " la ", "réparer.x"]);
    expect(r.issues?.map((d) => [d.file, d.line, d.action, d.message])).toEqual([
      ["case.tsv", 1, "repaired", `complex word "réparer": repaired: found in another case, as "Réparer"; the head is "Réparer" and an export writes the complex word back as the file has it`],
    ]);
  });

  it("case: a whole word in another case wins over the word as written inside a longer word", () => {
    // "Ai" stands alone; "ai" as written is only inside "aide".
    expect(locateComplexWord("Il aide. Ai dit!", "ai")).toEqual({ at: 9, length: 2, how: "case" });
    expect(locateComplexWord("une aide", "ai")).toEqual({ at: 4, length: 2, how: "exact" });
  });

  it("case folding follows the language given (Turkish dotted capital İ)", () => {
    expect(locateComplexWord("İstanbul büyük", "istanbul", "tr")).toEqual({ at: 0, length: 8, how: "case" });
    expect(locateComplexWord("İstanbul büyük", "istanbul")).toBeNull();
  });

  it("spaces: stray spaces around the complex word are trimmed, reported, and written back", () => {
    const text = "la casa es antigua\tantigua \tvieja\nLa puerta\t la\tuna\n";
    const r = parseTsar(text, "spaces.tsv");
    expect(r.errors).toEqual([]);
    expect(r.instances.map((i) => [i.head, i.lexelt])).toEqual([
      ["antigua", "antigua.x"],
      ["La", "la.x"],
    ]);
    expect(r.issues?.map((d) => `${d.line}: ${d.message.split(";")[0]}`)).toEqual([
      '1: complex word "antigua ": repaired: stray spaces trimmed',
      '2: complex word " la": repaired: stray spaces trimmed',
    ]);
    expect(r.issues?.[1].message).toMatch(/stray spaces trimmed; found in another case, as "La"/);
    expect(writeTsar(items(text)).text).toBe(text);
  });

  it("lemma: a German infinitive not in the sentence is found as the form beginning with its stem, or its zu-infinitive", () => {
    const text = [
      "Der Hund bellte laut in der Nacht.\tbellen\tkläffen",
      "Sie wurde gestern gewählt.\twählen\tküren\tküren",
      "Er versuchte, das Thema aufzunehmen.\taufnehmen\taufgreifen",
      "",
    ].join("\n");
    const r = parseTsar(text, "lemma.tsv");
    expect(r.errors).toEqual([]);
    expect(r.instances.map((i) => [i.head, i.lexelt])).toEqual([
      ["bellte", "bellen.x"],
      ["gewählt", "wählen.x"],
      ["aufzunehmen", "aufnehmen.x"],
    ]);
    expect(r.issues?.map((d) => `${d.line}: ${d.message}`)).toEqual([
      `1: complex word "bellen": repaired: not in the sentence; found as "bellte", a form of the lemma (its stem, ge- and its stem, or its zu-infinitive); the head is "bellte" and an export writes the complex word back as the file has it`,
      `2: complex word "wählen": repaired: not in the sentence; found as "gewählt", a form of the lemma (its stem, ge- and its stem, or its zu-infinitive); the head is "gewählt" and an export writes the complex word back as the file has it`,
      `3: complex word "aufnehmen": repaired: not in the sentence; found as "aufzunehmen", a form of the lemma (its stem, ge- and its stem, or its zu-infinitive); the head is "aufzunehmen" and an export writes the complex word back as the file has it`,
    ]);
    expect(writeTsar(items(text)).text).toBe(text);
  });

  it("lemma: two different forms of the lemma tie, and the line is refused naming them", () => {
    const r = parseTsar("Er spielte und spielt noch.\tspielen\tx\n", "tie.tsv");
    expect(r.errors).toEqual([
      { where: "tie.tsv:1", field: "complex word (column 2)", message: `"spielen" does not occur in the sentence; its lemma's forms "spielte", "spielt" tie, so the head is not chosen` },
    ]);
    // With a language given the rule is German's only.
    expect(locateComplexWord("Der Hund bellte.", "bellen", "de-AT")).toEqual({ at: 9, length: 6, how: "lemma" });
    expect(locateComplexWord("They listed it.", "listen", "en")).toBeNull();
    // The same form twice is one form: its first occurrence, as for any word.
    expect(locateComplexWord("Er spielte, sie spielte.", "spielen")).toEqual({ at: 3, length: 7, how: "lemma" });
  });

  it("not found: no occurrence in any case nor as a lemma's form refuses the import, naming the line", () => {
    const r = parseTsar("a calm sea\tcalm\tstill\nthe second line\tabsent\tx\nDer Mann ging.\tgehen\tlaufen\n", "missing.tsv");
    expect(r.errors.map((e) => `${e.where}: ${e.message}`)).toEqual([
      'missing.tsv:2: "absent" does not occur in the sentence, in any case, nor as a form of its lemma',
      // Ablaut (ging) is not a form the stem rule knows.
      'missing.tsv:3: "gehen" does not occur in the sentence, in any case, nor as a form of its lemma',
    ]);
  });

  it("a few lines that cannot be carried (a tenth of the file at most) are left out and reported; more refuse the file", () => {
    const good = (k: number) => `the river ${k} ran calm\tcalm\tstill\tquiet`;
    const lines = Array.from({ length: 20 }, (_, k) => good(k));
    lines[4] = "nothing to find here\tabsent\tx";
    lines[11] = "a calm morning\tcalm\tstill;quiet";
    const r = parseTsar(lines.join("\n") + "\n", "odd.tsv");
    expect(r.errors).toEqual([]);
    expect(r.instances.map((i) => i.instanceId)).toHaveLength(18);
    expect(r.instances.some((i) => i.instanceId === "odd:5" || i.instanceId === "odd:12")).toBe(false);
    expect((r.issues ?? []).map((i) => `${i.file}:${i.line}: ${i.message}`)).toEqual([
      'odd.tsv:5: complex word (column 2): left out: "absent" does not occur in the sentence, in any case, nor as a form of its lemma',
      'odd.tsv:12: annotation 1 (column 3): left out: "still;quiet" holds a ";", which no gold line can carry',
    ]);
    // A third odd line in 20 is past a tenth: the file is refused, each line named.
    lines[15] = "";
    const refused = parseTsar(lines.join("\n") + "\n", "odd.tsv");
    expect(refused.errors.map((e) => e.where)).toEqual(["odd.tsv:5", "odd.tsv:12", "odd.tsv:16"]);
    expect(refused.issues ?? []).toEqual([]);
  });

  it("round trip: a file mixing every kind comes back byte for byte, and each head is where it was read", () => {
    const text = [
      "Effectuer un tour du lac\teffectuer\tfaire\tfaire\tréaliser",
      "Sie tobten draußen.\ttoben \twüten",
      "plain words here\twords\tterms",
      "Mi prese un colpo\tmi prese",
      "",
    ].join("\n");
    const read = items(text);
    const out = writeTsar(read);
    expect(out.text).toBe(text);
    expect(out.lost.join("\n")).not.toMatch(/another occurrence/);
    expect(items(out.text).map((i) => [i.before, i.head])).toEqual(read.map((i) => [i.before, i.head]));
    expect(read.map((i) => i.head)).toEqual(["Effectuer", "tobten", "words", "Mi prese"]);
  });

  it("an instance whose head was moved is written with its head, not the file's word, and reported", () => {
    const [i] = items("Effectuer puis effectuer\teffectuer\tfaire\n");
    const moved = { ...i, before: "Effectuer puis ", head: "effectuer", after: "" };
    const out = writeTsar([moved]);
    expect(out.text).toBe("Effectuer puis effectuer\teffectuer\tfaire\n");
    expect(out.lost.join("\n")).not.toMatch(/another occurrence/);
    const other = { ...i, before: "Effectuer puis ", head: "Effectuer", after: "" };
    expect(writeTsar([other]).text).toBe("Effectuer puis Effectuer\tEffectuer\tfaire\n");
  });

  it("control characters a Windows-1252 text read as Latin-1 holds are read as its letters, reported, and written back", () => {
    const text = "l\u0092home parla\thome\tpersona\tl\u0092individu\n";
    const r = parseTsar(text, "c1.tsv");
    expect(r.errors).toEqual([]);
    expect(r.instances[0].before).toBe("l’");
    expect(r.instances[0].entries.map((e) => e.substitute)).toEqual(["persona", "l’individu"]);
    expect(r.issues?.map((d) => `${d.line}: ${d.message}`)).toEqual([
      '1: sentence (column 1) and others: repaired: control characters read as Windows-1252 letters (U+0092 as "’"); an export writes them back as the file has them',
    ]);
    expect(writeTsar(items(text)).text).toBe(text);
    // U+0081 is unassigned in Windows-1252: still refused.
    expect(parseTsar("a\u0081b c\tc\n", "u.tsv").errors[0].message).toMatch(/control character \(U\+0081\)/);
  });
});

describe("TSAR/MLSP export: cells a spreadsheet would run", () => {
  const text = "-- a dash opens it\tdash\tline\n@@@ three signs\tsigns\t=sum\nplain\tplain\tx\n";

  it("are written exactly by default (raw cells, as the task's files have them) and reported with their ids", () => {
    const out = writeTsar(items(text, "d.tsv"));
    expect(out.text).toBe(text);
    expect(out.lost).toContain(
      "2 lines have a cell beginning with =, +, -, @, written as it is (raw cells, as the shared task's files have them): a spreadsheet opening this file would run it as a formula — download with spreadsheet-safe cells to open it in one (d:1, d:2)",
    );
    // Read back: the same sentences, heads and annotations.
    expect(items(out.text, "d.tsv").map((i) => [i.before + i.head + i.after, i.head, i.meta?.annotations])).toEqual(
      items(text, "d.tsv").map((i) => [i.before + i.head + i.after, i.head, i.meta?.annotations]),
    );
  });

  it("get a leading apostrophe with spreadsheet-safe cells, reported since the task's scripts read the apostrophe, and read back restored", () => {
    const out = writeTsar(items(text, "d.tsv"), { cells: "spreadsheet-safe" });
    expect(out.text).toBe("'-- a dash opens it\tdash\tline\n'@@@ three signs\tsigns\t'=sum\nplain\tplain\tx\n");
    expect(out.lost).toContain(
      "2 lines have a cell beginning with =, +, -, @ (a spreadsheet would run it as a formula), written with a leading apostrophe (spreadsheet-safe cells, as asked); the shared task's scripts read the apostrophe as part of the sentence or word — the default, raw cells, writes them as they are (d:1, d:2)",
    );
    // The import restores the cells: exporting the re-read file raw gives the original bytes.
    expect(writeTsar(items(out.text, "d.tsv")).text).toBe(text);
  });

  it("raw: a cell that itself begins with an apostrophe before a formula character is reported, since a restoring reader drops one", () => {
    // The file's first cell is the value "'-x" written spreadsheet-safe ("''-x"): read as "'-x".
    const out = writeTsar(items("''-x marks it\tmarks\ty\n", "q.tsv"));
    expect(out.text).toBe("'-x marks it\tmarks\ty\n");
    expect(out.lost.join("\n")).toMatch(/^1 line has a cell beginning with an apostrophe before =, \+, -, @: written as it is, but a reader that restores spreadsheet-safe cells \(lexgold's import\) reads it one apostrophe short \(q:1\)$/m);
    expect(writeTsar(items("''-x marks it\tmarks\ty\n", "q.tsv"), { cells: "spreadsheet-safe" }).text).toBe("''-x marks it\tmarks\ty\n");
  });
});
