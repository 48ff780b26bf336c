/**
 * MLSP 2024's combined layout (#40): `id<TAB>language<TAB>sentence<TAB>complex word
 * <TAB>complexity<TAB>substitutes…`, lines of several languages in one file, each
 * read in its own language; and its complexity-prediction (LCP) files, which hold no
 * substitutes and are refused saying so. Lines written here, shaped like MLSP's.
 */
import { describe, expect, it } from "vitest";
import type { ExportItem } from "../../lib/lexsub/formats/dataset";
import { parseTsar, writeTsar } from "../../lib/lexsub/formats/tsar";
import { asExportItems } from "../support/export-items";

const COMBINED = [
  "en_1\tenglish\tThe lantern flickered in the draughty hall.\tflickered\t0.25\twavered\twavered\tshimmered",
  // A German line whose complex word is the infinitive of the sentence's form: only German's lemma rule finds it.
  "de_1\tgerman\tDie Kinder bastelten den ganzen Nachmittag.\tbasteln \t0.4\twerkeln\twerkeln\tbauen",
  // A French line whose word opens the sentence capitalised.
  "fr_1\tfrench\tEffleurer la surface suffit.\teffleurer\t0.3\ttoucher\tfrôler",
  "de_2\tgerman\tDer Weg war steinig.\tsteinig\t0.2\tfelsig",
].join("\n") + "\n";

const items = (text: string, file = "all.tsv", options: Parameters<typeof parseTsar>[2] = {}): ExportItem[] => asExportItems(parseTsar(text, file, options).instances);

describe("MLSP's combined layout", () => {
  it("reads each line in its own language, with the file's ids, complexities and substitutes, whatever the project's language", () => {
    const r = parseTsar(COMBINED, "all.tsv", { language: "en" });
    expect(r.errors).toEqual([]);
    expect(r.instances.map((i) => [i.instanceId, i.lexelt, i.head, i.entries.map((e) => `${e.substitute} ${e.count}`)])).toEqual([
      ["en_1", "flickered.x", "flickered", ["wavered 2", "shimmered 1"]],
      ["de_1", "basteln.x", "bastelten", ["werkeln 2", "bauen 1"]],
      ["fr_1", "effleurer.x", "Effleurer", ["toucher 1", "frôler 1"]],
      ["de_2", "steinig.x", "steinig", ["felsig 1"]],
    ]);
    expect(r.instances[1].meta).toMatchObject({ layout: "mlsp-combined", id: "de_1", language: "german", complexity: "0.4", complexWord: "basteln " });
    // Found otherwise than as written: reported as for the per-language files.
    expect(r.issues!.map((i) => [i.line, i.action])).toEqual([
      [2, "repaired"],
      [3, "repaired"],
    ]);
    expect(r.notes.join("\n")).toMatch(/combined layout .*each line is read with its own language \(english 1, german 2, french 1\)/);
    // Several languages in a project of one: the note says which project fits.
    expect(r.notes.join("\n")).toMatch(/the lines are in 3 languages and the project's language is en: import the file into a project whose language is mul/);
    expect(parseTsar(COMBINED, "all.tsv", { language: "mul" }).notes.join("\n")).not.toMatch(/project's language/);
  });

  it("imports one language's lines on request, naming those left for another import", () => {
    const r = parseTsar(COMBINED, "all.tsv", { onlyLanguage: "de" });
    expect(r.instances.map((i) => i.instanceId)).toEqual(["de_1", "de_2"]);
    expect(r.notes.join("\n")).toMatch(/only the lines in de were imported; not imported: english 1, french 1/);
    expect(parseTsar("The sky.\tsky\tair\n", "plain.tsv", { onlyLanguage: "de" }).errors[0]).toMatchObject({ field: "language" });
  });

  it("writes the lines back in the combined layout, byte for byte", () => {
    expect(writeTsar(items(COMBINED), { language: "mul" }).text).toBe(COMBINED);
  });
});

describe("MLSP's complexity-prediction (LCP) files", () => {
  it.each([
    ["unlabelled (id, language, sentence, word)", "en_31\tenglish\tThe lantern flickered.\tlantern\nde_31\tgerman\tDer Weg war steinig.\tWeg\n"],
    ["labelled (and a complexity)", "en_1\tenglish\tThe lantern flickered.\tlantern\t0.1\nde_1\tgerman\tDer Weg war steinig.\tWeg\t0.05\n"],
  ])("are refused as complexity prediction, not substitution, files: %s", (_n, text) => {
    const r = parseTsar(text, "lcp.tsv");
    expect(r.instances).toEqual([]);
    expect(r.errors).toEqual([{ where: "lcp.tsv", field: "file", message: expect.stringMatching(/^an MLSP 2024 complexity-prediction \(LCP\) file, not a substitution file: .*no substitutes/) }]);
  });
});
