/**
 * TSAR/MLSP files whose cells are CSV-quoted (MLSP 2024's
 * `multilex_test_all_combined_ls_unlabelled.tsv` is written so: a cell holding "," or
 * a quote is in double quotes, inner quotes doubled). The file is recognised, each
 * line read with csv-parse, a line that cannot be read is left out and reported
 * (never the whole file), and the export writes the lines back quoted the same way.
 * A plain TSAR file with quotes in its sentences still reads as plain TSAR. Files
 * written here, not the task's.
 */
import { describe, expect, it } from "vitest";
import type { ExportItem } from "../../lib/lexsub/formats/dataset";
import { parseTsar, writeTsar } from "../../lib/lexsub/formats/tsar";
import { asExportItems } from "../support/export-items";

const items = (text: string, file = "f.tsv", language?: string): ExportItem[] => asExportItems(parseTsar(text, file, { language }).instances);

/** Four lines: a quote inside (doubled), a comma only, a quoted complex word, a plain line. */
const QUOTED = [
  '"The keeper said ""no entry"" and shut the gate."\tkeeper',
  '"Slowly, the tide came back."\ttide',
  '"She wrote l\'""avenir"" on the board."\t"l\'""avenir"',
  "A plain line with no quote.\tplain",
].join("\n") + "\n";

describe("TSAR/MLSP: CSV-quoted cells", () => {
  it("reads each cell unquoted, finds the complex word, and says how the file was read", () => {
    const r = parseTsar(QUOTED, "all.tsv");
    expect(r.errors).toEqual([]);
    expect(r.issues).toEqual([]);
    expect(r.instances.map((i) => [i.before + i.head + i.after, i.head, i.lexelt])).toEqual([
      ['The keeper said "no entry" and shut the gate.', "keeper", "keeper.x"],
      ["Slowly, the tide came back.", "tide", "tide.x"],
      ['She wrote l\'"avenir" on the board.', 'l\'"avenir', 'l\'"avenir.x'],
      ["A plain line with no quote.", "plain", "plain.x"],
    ]);
    expect(r.notes.join(" ")).toMatch(/^all\.tsv: read as CSV-quoted cells/);
  });

  it("writes the lines back quoted as the file quotes them: byte for byte", () => {
    const out = writeTsar(items(QUOTED, "all.tsv"));
    expect(out.text).toBe(QUOTED);
  });

  it("leaves out a line csv-parse cannot read, reporting its line, and imports the others", () => {
    const text = QUOTED + '"An unclosed quote runs on\ton\n"A stray "quote" after the close""\tclose\n';
    const r = parseTsar(text, "all.tsv");
    expect(r.errors).toEqual([]);
    expect(r.instances).toHaveLength(4);
    expect(r.issues?.map((d) => [d.line, d.action])).toEqual([
      [5, "left out"],
      [6, "left out"],
    ]);
    expect(r.issues?.[0].message).toMatch(/^the line: left out: not readable as CSV-quoted cells \(Quote Not Closed: .+\)$/);
    expect(r.issues?.[1].message).toMatch(/^the line: left out: not readable as CSV-quoted cells \(Invalid Closing Quote: got "q" instead of delimiter.+\)$/);
  });

  it("leaves out, rather than refusing the file, a line whose complex word is not in its sentence", () => {
    const r = parseTsar(QUOTED + '"Nothing, here."\tabsent\n', "all.tsv");
    expect(r.errors).toEqual([]);
    expect(r.instances).toHaveLength(4);
    expect(r.issues?.map((d) => d.message)).toEqual([`complex word (column 2): left out: "absent" does not occur in the sentence, in any case, nor as a form of its lemma`]);
  });

  it("reads lines of several languages in one file, each word found under the project's language (a file with no language column)", () => {
    const mixed = ['"Der Hund, sagte er, bellte."\tHund', '"El perro, dijo, ladró."\tperro', '"Il cane, disse, abbaiò ""forte""."\tcane'].join("\n") + "\n";
    for (const language of ["mul", "en", "de", undefined]) {
      const r = parseTsar(mixed, "m.tsv", { language });
      expect(r.instances.map((i) => i.head), String(language)).toEqual(["Hund", "perro", "cane"]);
      expect(writeTsar(items(mixed, "m.tsv", language), { language }).text).toBe(mixed);
    }
  });

  it("in a `mul` project a German line's infinitive is found as its form, as in a German project; in an English one it is not", () => {
    // MLSP's All trial file mixes German lines whose complex word is the infinitive of the sentence's form.
    const mixed = "Die Katze miaute lange.\tmiauen\tjaulen\nThe cat slept.\tslept\tdozed\n";
    for (const language of ["mul", "und", "de"]) {
      const r = parseTsar(mixed, "m.tsv", { language });
      expect(r.instances.map((i) => i.head), language).toEqual(["miaute", "slept"]);
      expect(r.issues?.[0].message).toMatch(/^complex word "miauen": repaired: not in the sentence; found as "miaute"/);
    }
    expect(parseTsar(mixed, "m.tsv", { language: "en" }).errors.map((e) => e.where)).toEqual(["m.tsv:1"]);
  });

  it("a plain TSAR file whose sentences hold quotes, one of them wrapped whole in quotes, is read as plain TSAR", () => {
    const plain = '"Yes, I did."\tdid\tmanaged\nHe said "stop" and "wait".\tstop\thalt\n';
    const r = parseTsar(plain, "p.tsv");
    expect(r.notes).toEqual([]);
    expect(r.instances.map((i) => i.before + i.head + i.after)).toEqual(['"Yes, I did."', 'He said "stop" and "wait".']);
    expect(writeTsar(items(plain, "p.tsv")).text).toBe(plain);
  });

  it("spreadsheet-safe cells are quoted after the apostrophe, and read back", () => {
    const text = '"-Before, a dash."\tdash\n"A ""quoted"" line."\tline\n';
    expect(writeTsar(items(text, "d.tsv")).text).toBe(text);
    const safe = writeTsar(items(text, "d.tsv"), { cells: "spreadsheet-safe" }).text;
    expect(safe).toBe(`"'-Before, a dash."\tdash\n"A ""quoted"" line."\tline\n`);
    expect(items(safe, "d.tsv")[0].before).toBe("-Before, a ");
    expect(writeTsar(items(safe, "d.tsv")).text).toBe(text);
  });
});
