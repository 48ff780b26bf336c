/**
 * lib/server/gold/agreement.ts: what the Agreement page and its downloads read — the
 * report over the project's derived gold, the lowest items with their answers,
 * the per-project cache (fresh after any save or review decision), and the
 * report as JSON and CSV. Coordinators of the project only.
 */
import { describe, expect, it } from "vitest";
import { computeAgreement } from "../../../lib/lexsub/agreement";
import { AGREEMENT_OPTIONS, agreementCsv, agreementDownload, agreementPageData } from "../../../lib/server/gold/agreement";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { decideLemma, projectAgreement, projectGold, setCorrectedPos, setExclusion } from "../../../lib/server/gold/gold";
import { computeAlphaSnapshot } from "../../../lib/server/derived/agreement";
import { createProject } from "../../../lib/server/corpus/projects";
import { importResponses } from "../../../lib/server/annotate/response-import";
import { actorFor, projectFixture, testDb } from "../../support/db";
import { goldFixture } from "../../support/gold-fixture";


// Worked by hand (substitute sets after normalising, and after the coordinator accepted the one
// lemma proposal that changes a form, jumps → jump: the gold writes a form as typed until decided):
//   c1: ann {still, peaceful}, bea {still, tranquil}, cat {serene}
//       pairs: ann–bea 1/3, ann–cat 0, bea–cat 0 → item 1/9; mode still (2 of 3 give it)
//   c2: NAME, NAME, NIL → |H| = 0, not in T
//   h1: ann {jump, skip}, bea {jump}, cat {skip}; ann and bea mark "hop about"
//       pairs: ann–bea 1/2, ann–cat 1/2, bea–cat 0 → item 1/3; jump/skip tie: no mode
//   h2: ann {board} alone → not in T
//   pairwise over T: (1/3 + 0 + 0 + 1/2 + 1/2 + 0) / 6 = 2/9
//   mode: c1 only, 3 answers, 2 contain "still" → 2/3
//   multiword detection over pairs who both answered: c1 3/3, c2 3/3, h1 1 of 3 (ann–bea), h2 none → 7/9
//   identification: h1 ann–bea, the same phrase → 1/1
//   without cat: c1 {ann, bea} 1/3, h1 {ann, bea} 1/2 → (1/3 + 1/2) / 2 = 5/12

const setup = () => goldFixture(undefined, { acceptProposals: true });

/** Parse RFC 4180 CSV (quoted cells, CRLF) into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

function records(text: string): Record<string, string>[] {
  const [head, ...rest] = parseCsv(text);
  return rest.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i]])));
}

describe("agreementPageData", () => {
  it("gives the hand-computed figures, the same report computeAgreement gives over the derived gold", () => {
    const { db, coord, project } = setup();
    const d = agreementPageData(db, coord, project.id, { withItems: true });
    const r = d.report;
    expect(r.items).toBe(2);
    expect(r.itemsWithMode).toBe(1);
    expect(r.pairs).toBe(6);
    expect(r.pairwise).toBeCloseTo(2 / 9, 12);
    expect(r.modeResponses).toBe(3);
    expect(r.modeAgreement).toBeCloseTo(2 / 3, 12);
    expect(r.mwDetectionPairs).toBe(9);
    expect(r.mwDetection).toBeCloseTo(7 / 9, 12);
    expect(r.mwIdentificationPairs).toBe(1);
    expect(r.mwIdentification).toBe(1);
    const cat = r.perAnnotator.find((a) => a.annotator === "cat")!;
    expect(cat.without.pairwise).toBeCloseTo(5 / 12, 12);
    // cat's own pairs: c1 0, 0; h1 1/2 (with ann), 0 → 1/8.
    expect(cat.pairs).toBe(4);
    expect(cat.pairwise).toBeCloseTo(1 / 8, 12);
    // Exactly the library's report over the same gold, bootstrap and all.
    const expected = computeAgreement(projectGold(db, coord, project.id).result.items, AGREEMENT_OPTIONS);
    expect(r).toEqual(expected);
    expect(r.intervals.iterations).toBe(1000);
    expect(d.summary.instances).toBe(4);
    expect(d.annotators).toEqual(["ann", "bea", "cat"]);
  });

  it("lists the lowest items with each annotator's answer as compared, and the lexelt as loaded", () => {
    const { db, coord, project } = setup();
    setCorrectedPos(db, coord, project.id, "c1", "n");
    const d = agreementPageData(db, coord, project.id);
    expect(d.lowest.map((i) => [i.lexelt, i.instanceId])).toEqual([
      ["calm.a.n", "c1"],
      ["hop.v", "h1"],
    ]);
    const c1 = d.lowest[0];
    expect(c1.originalLexelt).toBe("calm.a");
    expect(c1.pairwise).toBeCloseTo(1 / 9, 12);
    expect(c1.responses.map((a) => [a.annotator, a.kind, [...a.substitutes]])).toEqual([
      ["ann", "substitutes", ["still", "peaceful"]],
      ["bea", "substitutes", ["still", "tranquil"]],
      ["cat", "substitutes", ["serene"]],
    ]);
    expect(c1.line).toContain("still 2");
    // "jumps" is compared as its lemma, as accepted.
    expect(d.lowest[1].responses.find((a) => a.annotator === "ann")!.substitutes).toEqual(["jump", "skip"]);
    expect(d.lowest[1].responses.find((a) => a.annotator === "bea")!.multiword).toBe("hop about");
  });

  it("refuses annotators, other projects' coordinators and nobody signed in, before any cache is read", () => {
    const { db, coord, ann, project } = setup();
    agreementPageData(db, coord, project.id);
    expect(() => agreementPageData(db, ann, project.id)).toThrow(AuthError);
    expect(() => agreementPageData(db, null, project.id)).toThrow(AuthError);
    const other = actorFor(db, "coord2", "coordinator");
    createProject(db, other, { name: "elsewhere" });
    expect(() => agreementPageData(db, other, project.id)).toThrow(NotFoundError);
    expect(() => agreementDownload(db, ann, project.id, { format: "json" })).toThrow(AuthError);
    expect(() => agreementDownload(db, other, project.id, { format: "csv", table: "items" })).toThrow(NotFoundError);
    expect(() => agreementPageData(db, coord, 9999)).toThrow(NotFoundError);
  });
});

describe("the figures kept as answers change (#39)", () => {
  it("follow every response at once; α and the intervals keep their time and say when they are stale", () => {
    const { db, coord, project } = setup();
    const first = agreementPageData(db, coord, project.id);
    // No α yet: this connection (not the server's) computed it on the spot.
    expect(first.alpha).toMatchObject({ computedAt: expect.any(Date), stale: false });
    expect(agreementPageData(db, coord, project.id).alpha.computedAt).toEqual(first.alpha.computedAt);
    // cat now agrees with ann on c1: pairs ann–cat 1/2 (still, peaceful vs still) …
    importResponses(db, coord, project.id, { fileName: "fix.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\ncat\tcalm.a\tc1\tstill\t\n" });
    const third = agreementPageData(db, coord, project.id);
    // c1: ann–bea 1/3, ann–cat 1/2, bea–cat 1/2; h1 as before (1/2, 1/2, 0).
    expect(third.report.pairwise).toBeCloseTo((1 / 3 + 1 / 2 + 1 / 2 + 1 / 2 + 1 / 2 + 0) / 6, 12);
    expect(third.report.modeAgreement).toBe(1);
    // α is the one computed before the import, and says so; computed again, it is current.
    expect(third.alpha).toMatchObject({ computedAt: first.alpha.computedAt, stale: true });
    expect(third.report.alphaMasi).toBe(first.report.alphaMasi);
    computeAlphaSnapshot(db, project.id);
    const fresh = agreementPageData(db, coord, project.id);
    expect(fresh.alpha.stale).toBe(false);
    expect(fresh.report.alphaMasi).toBe(computeAgreement(projectAgreement(db, coord, project.id).gold.items, AGREEMENT_OPTIONS).alphaMasi);
  });

  it("follow a new response, an exclusion and a lemma decision", () => {
    const { db, coord, project } = setup();
    agreementPageData(db, coord, project.id);
    importResponses(db, coord, project.id, { fileName: "more.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nbea\thop.v\th2\tboard;ride\t\n" });
    const withH2 = agreementPageData(db, coord, project.id, { withItems: true });
    expect(withH2.report.items).toBe(3);
    expect(withH2.report.perItem.find((i) => i.instanceId === "h2")!.pairwise).toBe(0.5);

    setExclusion(db, coord, project.id, "h2", "duplicate sentence");
    const excluded = agreementPageData(db, coord, project.id);
    expect(excluded.report.items).toBe(2);

    // "jumps" kept as typed: ann {jumps, skip} no longer shares "jump" with bea on h1.
    decideLemma(db, coord, project.id, { form: "jumps", decision: "kept" });
    const kept = agreementPageData(db, coord, project.id, { withItems: true });
    expect(kept.report.perItem.find((i) => i.instanceId === "h1")!.pairwise).toBeCloseTo((0 + 1 / 2 + 0) / 3, 12);
  });

  it("is kept per database: the same project id in another database is computed from its own data", () => {
    const a = setup();
    const b = projectFixture();
    expect(b.project.id).toBe(a.project.id);
    const ra = agreementPageData(a.db, a.coord, a.project.id);
    const rb = agreementPageData(b.db, b.coord, b.project.id);
    expect(ra.report.items).toBe(2);
    expect(rb.report.items).toBe(0);
    expect(rb.report.pairwise).toBeNull();
    expect(rb.lowest).toEqual([]);
  });
});

describe("agreementDownload", () => {
  it("gives the whole report as JSON, keys as in the library", () => {
    const { db, coord, project } = setup();
    const f = agreementDownload(db, coord, project.id, { format: "json" });
    expect(f.fileName).toBe("p-agreement.json");
    expect(f.contentType).toMatch(/^application\/json/);
    const json = JSON.parse(f.body);
    expect(json).toEqual(JSON.parse(JSON.stringify(agreementPageData(db, coord, project.id, { withItems: true }).report)));
    for (const k of ["items", "itemsWithMode", "pairwise", "modeAgreement", "mwDetection", "mwIdentification", "alphaMasi", "perAnnotator", "byPos", "byLexelt", "intervals", "perItem", "lowest", "histogram"]) {
      expect(json).toHaveProperty(k);
    }
    expect(json.pairwise).toBeCloseTo(2 / 9, 12);
    // No format given: JSON.
    expect(agreementDownload(db, coord, project.id, {}).body).toBe(f.body);
  });

  it("gives per item, per annotator and per lexelt CSV with unrounded proportions and empty cells where undefined", () => {
    const { db, coord, project } = setup();
    const items = agreementDownload(db, coord, project.id, { format: "csv", table: "items" });
    expect(items.fileName).toBe("p-agreement-items.csv");
    expect(items.contentType).toMatch(/^text\/csv/);
    expect(items.body.endsWith("\r\n")).toBe(true);
    const it = records(items.body);
    expect(it.map((r) => r.instanceId)).toEqual(["c1", "h1"]);
    expect(Number(it[0].pairwise)).toBeCloseTo(1 / 9, 12);
    expect(it[0].mode).toBe("still");
    expect(it[1].mode).toBe("");
    expect(it[1].modeAgreement).toBe("");
    expect(it[1].pairs).toBe("3");

    const ann = records(agreementDownload(db, coord, project.id, { format: "csv", table: "annotators" }).body);
    expect(ann.map((r) => r.annotator)).toEqual(["ann", "bea", "cat"]);
    const cat = ann.find((r) => r.annotator === "cat")!;
    expect(Number(cat["without.pairwise"])).toBeCloseTo(5 / 12, 12);
    expect(cat.nils).toBe("1");
    expect(cat.modeAgreement).toBe("0");

    const lex = records(agreementDownload(db, coord, project.id, { format: "csv", table: "lexelts" }).body);
    expect(lex.map((r) => [r.lexelt, r.pos, r.items])).toEqual([
      ["calm.a", "a", "1"],
      ["hop.v", "v", "1"],
    ]);
    expect(lex[1].modeAgreement).toBe("");
    expect(Number(lex[1].pairwise)).toBeCloseTo(1 / 3, 12);
  });

  it("refuses an unknown format or table, naming it", () => {
    const { db, coord, project } = setup();
    expect(() => agreementDownload(db, coord, project.id, { format: "xml" })).toThrow(/Unknown format "xml"/);
    expect(() => agreementDownload(db, coord, project.id, { format: "csv", table: "pos" })).toThrow(InputError);
    expect(() => agreementDownload(db, coord, project.id, { format: "csv", table: "pos" })).toThrow(/Unknown table "pos"/);
  });

  it("quotes cells and keeps spreadsheets from reading a lexelt or a mode as a formula", () => {
    const report = computeAgreement([], { bootstrapIterations: 0 });
    report.perItem.push({ lexelt: "=cmd.n", instanceId: 'a,"b"', pos: "n", annotators: 2, pairs: 1, pairwise: 0.5, mode: "+x", modeResponses: 2, modeAgreement: 1 });
    const rows = parseCsv(agreementCsv(report, "items"));
    expect(rows[1]).toEqual(["'=cmd.n", 'a,"b"', "n", "2", "1", "0.5", "'+x", "2", "1"]);
  });
});

describe("an empty project", () => {
  it("has a report with nothing to compare and no lowest items", () => {
    const db = testDb();
    const coord = actorFor(db, "cora", "coordinator");
    const p = createProject(db, coord, { name: "empty one" });
    const d = agreementPageData(db, coord, p.id);
    expect(d.report.items).toBe(0);
    expect(d.report.pairwise).toBeNull();
    expect(d.report.alphaMasi).toBeNull();
    expect(d.report.intervals.pairwise).toBeNull();
    expect(d.lowest).toEqual([]);
    expect(agreementDownload(db, coord, p.id, { format: "csv", table: "annotators" }).fileName).toBe("empty-one-agreement-annotators.csv");
    expect(parseCsv(agreementDownload(db, coord, p.id, { format: "csv", table: "items" }).body)).toHaveLength(1);
  });
});
