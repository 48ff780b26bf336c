/**
 * MLSP 2024's combined test file (`Data/Test/All/multilex_test_all_combined_ls_unlabelled.tsv`
 * in github.com/MLSP2024/MLSP_Data) is CSV-quoted and mixes ten languages in one
 * file with no language column. It imports into a project (the project's language is
 * used for every line; `mul` names several), each line it cannot carry left out and
 * listed with its line, and exports back quoted as it came. The synthetic file here is
 * our own; the real one is read when LEXGOLD_MLSP_COMBINED names it (it is not in the
 * shared data), and that test is skipped otherwise.
 */
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { datasetImportRecords, exportDataset, importDataset } from "../../../lib/server/datasets/datasets";
import { createProject } from "../../../lib/server/corpus/projects";
import { actorFor, corpusCounts, testDb } from "../../support/db";

const enc = (s: string) => new TextEncoder().encode(s);

function multilingual() {
  const db = testDb();
  const coord = actorFor(db, "coord", "coordinator");
  const project = createProject(db, coord, { name: "mlsp-all", language: "mul" });
  return { db, coord, project };
}

/** Our own lines in three languages, quoted as the combined file quotes them; line 4 cannot be read as CSV. */
const COMBINED = [
  '"Der Bauer, so hieß es, erntete früh."\terntete',
  '"La ""marea"" subió, y luego bajó."\tmarea',
  "Il treno arriva presto.\ttreno",
  '"Une ligne "cassée" ici."\tligne',
  '"Yet another, final line."\tfinal',
].join("\n") + "\n";

describe("MLSP 2024 combined file: CSV-quoted, several languages", () => {
  it("imports every readable line into a multilingual project, lists the one it leaves out with its line, and keeps the report", () => {
    const { db, coord, project } = multilingual();
    const report = importDataset(db, coord, project.id, { format: "tsar", fileName: "all.tsv", bytes: enc(COMBINED) });
    expect(report.instancesAdded).toBe(4);
    expect(report.repairs.map((r) => [r.file, r.line, r.action])).toEqual([["all.tsv", 4, "left out"]]);
    expect(report.message).toMatch(/1 entry not carried as written \(1 left out\)/);
    expect(report.notes.join(" ")).toMatch(/read as CSV-quoted cells/);
    const heads = db.$client.prepare("select instance_id as id, head, before || head || after as s from instances order by position").all();
    expect(heads).toEqual([
      { id: "all:1", head: "erntete", s: "Der Bauer, so hieß es, erntete früh." },
      { id: "all:2", head: "marea", s: 'La "marea" subió, y luego bajó.' },
      { id: "all:3", head: "treno", s: "Il treno arriva presto." },
      { id: "all:5", head: "final", s: "Yet another, final line." },
    ]);
    expect(datasetImportRecords(db, coord, project.id)[0].repairs.map((r) => r.line)).toEqual([4]);
    // Exported quoted as the file quotes them; the left-out line is not there.
    expect(exportDataset(db, coord, project.id, "tsar").text).toBe(COMBINED.split("\n").filter((_, i) => i !== 3).join("\n"));
  });

  it("strict refuses the file and writes nothing", () => {
    const { db, coord, project } = multilingual();
    const before = corpusCounts(db);
    expect(() => importDataset(db, coord, project.id, { format: "tsar", fileName: "all.tsv", bytes: enc(COMBINED), strict: true })).toThrow(
      /all\.tsv:4: warning: the line: left out: not readable as CSV-quoted cells .*; refused as asked \(strict\): nothing was imported\./,
    );
    expect(corpusCounts(db)).toEqual(before);
  });

  const real = process.env.LEXGOLD_MLSP_COMBINED;
  it.skipIf(!real || !existsSync(real))("the published combined file: every line imports and the export gives it back byte for byte", () => {
    const bytes = readFileSync(real!);
    const text = bytes.toString("utf8");
    const { db, coord, project } = multilingual();
    const report = importDataset(db, coord, project.id, { format: "tsar", fileName: "multilex_test_all_combined_ls_unlabelled.tsv", bytes });
    expect(report.instancesAdded).toBe(text.split("\n").filter((l) => l.trim() !== "").length);
    expect(report.repairs.filter((r) => r.action === "left out")).toEqual([]);
    // No sentence keeps a CSV escape: every doubled quote was read as one.
    const contexts = db.$client.prepare("select before || head || after as s from instances").all() as { s: string }[];
    expect(contexts.filter((c) => c.s.includes('""') || /^".*"$/.test(c.s))).toEqual([]);
    expect(exportDataset(db, coord, project.id, "tsar").text).toBe(text);
  });
});
