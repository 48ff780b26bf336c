import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Db } from "../../../db/client";
import type { MwStats, SubstitutionStats } from "../../../lib/scorers/semeval2007/index";
import { scoreTexts } from "../../../lib/scorers/semeval2007/texts";
import { mwJson, substitutionJson } from "../../../lib/scorers/semeval2007/report";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { projectGold } from "../../../lib/server/gold/gold";
import { createProject } from "../../../lib/server/corpus/projects";
import { importResponses } from "../../../lib/server/annotate/response-import";
import { type GoldSource, deleteGold, listGolds, storeGold } from "../../../lib/server/scoring/golds";
import { CONFIRM_FIELD, deleteRun, listRuns, runFile, uploadRun } from "../../../lib/server/scoring/runs";
import { runDetail, runReport, scoreBoard, scoresJson } from "../../../lib/server/scoring/scores";
import { runDeriveJob } from "../../../lib/server/jobs/derive-jobs";
import { scoreSensevalUpload } from "../../../lib/server/scoring/senseval";
import { MAX_RUN_BYTES, decodeUpload, typeFromFileName } from "../../../lib/server/scoring/uploads";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture } from "../../support/db";
import { describeWithSharedData } from "../../support/shared-data";

const enc = (s: string) => new TextEncoder().encode(s);

// Hand data. In T: 1 (three entries), 2 (two), 4 (two); not 3 (one entry of count 1).
// Modes: 1 intelligent, 2 luminous; 4 has none (a tie). |H|: 6, 3, 2.
const GOLD = ["bright.a 1 :: intelligent 3;clever 2;smart 1;", "bright.a 2 :: luminous 2;light 1;", "keen.a 3 :: eager 1;", "keen.a 4 :: sharp 1;eager 1;", ""].join("\n");
// MW: 1 (take place, 3) and 3 (feature film, 2); 2 is a tie.
const MWGOLD = ["take.v 1 :: take place 3;", "take.v 2 :: take off 2;take up 2;", "film.n 3 :: feature film 2;", ""].join("\n");

// best: item 1 credit (2+1)/6 = .5, score .5/2 = .25, mode missed; item 2 credit 2/3, score 2/3, mode hit; item 3 is outside T.
// Σ = .25 + 2/3 = 11/12; P = 11/24, R = 11/36; mode P = 1/2, mode R = 1/2.
const BEST = ["bright.a 1 :: clever;smart", "bright.a 2 :: luminous", "keen.a 3 :: eager", ""].join("\n");
// oot: item 1 clever twice + smart = (2+2+1)/6 = 5/6, mode missed; item 4 sharp 1/2, no mode.
// Σ = 4/3; P = 2/3, R = 4/9; mode P = 0/1, mode R = 0/2.
const OOT = ["bright.a 1 ::: clever;smart;clever", "keen.a 4 ::: sharp", ""].join("\n");
// mw: 3 answered, 2 of them in MW, 1 exact: detection 2/3, 2/2; identification 1/3, 1/2.
const MW = ["take.v 1 :: take place", "take.v 2 :: take off", "film.n 3 :: film star", ""].join("\n");

const HAND = { gold: { name: "hand.gold", text: GOLD }, mwgold: { name: "hand.mwgold", text: MWGOLD } };

function subStats(input: Parameters<typeof scoreTexts>[0]): SubstitutionStats {
  const r = scoreTexts(input).result;
  if (r.type === "mw") throw new Error("expected best or oot");
  return r.stats;
}

function mwStats(input: Parameters<typeof scoreTexts>[0]): MwStats {
  const r = scoreTexts(input).result;
  if (r.type !== "mw") throw new Error("expected mw");
  return r.stats;
}

function runCount(db: Db): number {
  return (db.$client.prepare("select count(*) as n from system_runs").get() as { n: number }).n;
}

/** A project with the hand gold stored and three runs scored with it. */
function withRuns() {
  const f = projectFixture();
  const goldId = storeGold(f.db, f.coord, f.project.id, HAND).id!;
  const best = uploadRun(f.db, f.coord, f.project.id, { fileName: "hand.best", bytes: enc(BEST), name: "hand best", gold: goldId }).run;
  const oot = uploadRun(f.db, f.coord, f.project.id, { fileName: "hand.oot", bytes: enc(OOT), name: "hand oot", gold: goldId }).run;
  const mw = uploadRun(f.db, f.coord, f.project.id, { fileName: "hand.mw", bytes: enc(MW), name: "hand mw", gold: goldId }).run;
  const source: GoldSource = { kind: "stored", id: goldId };
  return { ...f, best, oot, mw, goldId, source };
}

describe("scoring: authorization", () => {
  const calls: [string, (db: Db, actor: Parameters<typeof listRuns>[1], pid: number, runId: number, goldId: number) => unknown][] = [
    ["listRuns", (db, a, pid) => listRuns(db, a, pid)],
    ["uploadRun", (db, a, pid) => uploadRun(db, a, pid, { fileName: "x.best", bytes: enc(BEST) })],
    ["deleteRun", (db, a, pid, id) => deleteRun(db, a, pid, id)],
    ["runFile", (db, a, pid, id) => runFile(db, a, pid, id)],
    ["scoreBoard (project gold)", (db, a, pid) => scoreBoard(db, a, pid, { kind: "project" })],
    ["scoreBoard (stored gold)", (db, a, pid, _id, g) => scoreBoard(db, a, pid, { kind: "stored", id: g })],
    ["scoresJson", (db, a, pid, _id, g) => scoresJson(db, a, pid, { kind: "stored", id: g })],
    ["runDetail", (db, a, pid, id) => runDetail(db, a, pid, id)],
    ["runReport", (db, a, pid, id) => runReport(db, a, pid, id)],
    ["listGolds", (db, a, pid) => listGolds(db, a, pid)],
    ["storeGold", (db, a, pid) => storeGold(db, a, pid, { name: "another", gold: HAND.gold, mwgold: null })],
    ["deleteGold", (db, a, pid) => deleteGold(db, a, pid, storeGold(db, SYSTEM, pid, { name: `spare ${Math.random()}`, gold: HAND.gold, mwgold: null }).id!)],
    [
      "scoreSensevalUpload",
      (db, a, pid) => scoreSensevalUpload(db, a, pid, { answers: { name: "a", text: "art.n 1 art-1\n" }, key: { name: "k", text: "art.n 1 art-1\n" }, sensemap: null }),
    ],
  ];
  for (const [name, call] of calls) {
    it(`${name}: signed out 401, annotator 403, another project's coordinator 404; nothing written`, () => {
      const f = withRuns();
      const other = actorFor(f.db, "otherCoord", "coordinator");
      createProject(f.db, other, { name: "q" });
      const before = runCount(f.db);
      const refused = (actor: Parameters<typeof listRuns>[1]) => {
        try {
          call(f.db, actor, f.project.id, f.best.id, f.goldId);
        } catch (e) {
          return e;
        }
        return null;
      };
      const out = refused(null);
      expect(out).toBeInstanceOf(AuthError);
      expect((out as AuthError).status).toBe(401);
      const ann = refused(f.ann);
      expect(ann).toBeInstanceOf(AuthError);
      expect((ann as AuthError).status).toBe(403);
      expect(refused(other)).toBeInstanceOf(NotFoundError);
      expect(runCount(f.db)).toBe(before);
      // The project's coordinator and the CLI may.
      expect(refused(f.coord)).toBeNull();
    });
  }

  it("a run of another project cannot be reached through this one", () => {
    const f = withRuns();
    const otherCoord = actorFor(f.db, "qcoord", "coordinator");
    const q = createProject(f.db, otherCoord, { name: "q" });
    const qRun = uploadRun(f.db, otherCoord, q.id, { fileName: "q.best", bytes: enc(BEST) }).run;
    expect(() => runFile(f.db, f.coord, f.project.id, qRun.id)).toThrow(NotFoundError);
    expect(() => runDetail(f.db, f.coord, f.project.id, qRun.id)).toThrow(NotFoundError);
    expect(() => deleteRun(f.db, f.coord, f.project.id, qRun.id)).toThrow(NotFoundError);
    expect(listRuns(f.db, otherCoord, q.id).map((r) => r.name)).toEqual(["q"]);
    expect(listRuns(f.db, f.coord, f.project.id).map((r) => r.name)).toEqual(["hand best", "hand oot", "hand mw"]);
  });
});

describe("scoring: uploading runs", () => {
  it("takes the type from the extension and the name from the file; lists runs with size and uploader", () => {
    const f = projectFixture();
    const r = uploadRun(f.db, f.coord, f.project.id, { fileName: "KU.best", bytes: enc(BEST) });
    expect(r.run).toMatchObject({ name: "KU", type: "best", fileName: "KU.best", bytes: enc(BEST).byteLength, createdBy: "coord" });
    expect(r.lines).toEqual({ read: 3, matched: 3, refused: 0 });
    const o = uploadRun(f.db, f.coord, f.project.id, { fileName: "answers.txt", bytes: enc(OOT), type: "oot", name: "  My  system " });
    expect(o.run).toMatchObject({ name: "My system", type: "oot" });
    expect(listRuns(f.db, f.coord, f.project.id).map((x) => `${x.name}/${x.type}`)).toEqual(["KU/best", "My system/oot"]);
    expect(runFile(f.db, f.coord, f.project.id, r.run.id).content).toBe(BEST);
    expect(typeFromFileName("x.BEST")).toBe("best");
    expect(typeFromFileName("x.oot.txt")).toBe("oot");
    expect(typeFromFileName("x.mw")).toBe("mw");
    expect(typeFromFileName("x.out")).toBeNull();
  });

  it("the CLI's actor stores runs without an uploader", () => {
    const f = projectFixture();
    expect(uploadRun(f.db, SYSTEM, f.project.id, { fileName: "a.best", text: BEST }).run.createdBy).toBeNull();
  });

  it.each<[string, { fileName: string; bytes?: Uint8Array; type?: string; name?: string }, RegExp, string]>([
    ["no type, no telling extension, a content of two types", { fileName: "BL.out", bytes: enc(BEST + OOT) }, /BL\.out: neither the name .* nor the content tells the type/, "type"],
    ["an unknown type", { fileName: "a.best", bytes: enc(BEST), type: "top3" }, /Unknown type "top3"/, "type"],
    ["no file", { fileName: "", bytes: enc(BEST) }, /Choose a system file/, "file"],
    ["an empty file", { fileName: "a.best", bytes: new Uint8Array() }, /a\.best: the file is empty/, "file"],
    ["not UTF-8", { fileName: "a.best", bytes: new Uint8Array([0x62, 0x0a, 0x62, 0xff, 0xfe, 0x0a]) }, /a\.best:2: not UTF-8 text/, "file"],
    ["a NUL character (binary)", { fileName: "a.best", bytes: enc("bright.a 1 :: clever\nx\0y\n") }, /a\.best:2: a NUL character/, "file"],
    ["no line in the format", { fileName: "a.oot", bytes: enc(BEST) }, /a\.oot: no line is in the oot format/, "file"],
    ["only blank lines", { fileName: "a.best", bytes: enc("\n\n") }, /no answers in the file/, "file"],
    ["a name too long", { fileName: "a.best", bytes: enc(BEST), name: "n".repeat(81) }, /longer than 80/, "name"],
  ])("refuses %s, naming the field, and writes nothing", (_why, input, message, field) => {
    const f = projectFixture();
    let err: unknown = null;
    try {
      uploadRun(f.db, f.coord, f.project.id, input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(message);
    expect(Object.keys((err as InputError).fieldErrors)).toContain(field);
    expect(runCount(f.db)).toBe(0);
  });

  it("refuses a file over the size limit before decoding it", () => {
    const f = projectFixture();
    const big = new Uint8Array(MAX_RUN_BYTES + 1).fill(0x61);
    expect(() => uploadRun(f.db, f.coord, f.project.id, { fileName: "big.best", bytes: big })).toThrow(/over the limit/);
    expect(runCount(f.db)).toBe(0);
  });

  it("refuses a second run of the same type and name in the project, writing nothing; best and oot may share a name", () => {
    const f = projectFixture();
    uploadRun(f.db, f.coord, f.project.id, { fileName: "KU.best", bytes: enc(BEST) });
    expect(() => uploadRun(f.db, f.coord, f.project.id, { fileName: "KU.best", bytes: enc(BEST) })).toThrow(/A best run named "KU" is already stored/);
    expect(runCount(f.db)).toBe(1);
    uploadRun(f.db, f.coord, f.project.id, { fileName: "KU.oot", bytes: enc(OOT) });
    expect(runCount(f.db)).toBe(2);
  });

  it("refuses a run with errors unless confirmed, listing them located; stores it, with its diagnostics, when confirmed", () => {
    const f = projectFixture();
    const goldId = storeGold(f.db, f.coord, f.project.id, HAND).id!;
    // A file cut off in its third line: two answers, then half a line.
    const cut = "bright.a 1 :: clever\nbright.a 2 :: luminous\nkeen.a";
    let err: unknown = null;
    try {
      uploadRun(f.db, f.coord, f.project.id, { fileName: "a.best", bytes: enc(cut), gold: goldId });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    const refusal = err as InputError;
    expect(refusal.message).toBe(
      "a.best: 1 line is not in the best format and would be skipped (the first: line 3); 2 answer lines read. A cut-off or damaged file looks like this. Nothing was stored: store it anyway, or cancel.",
    );
    expect(refusal.fieldErrors).toEqual({ [CONFIRM_FIELD]: "1 error: store anyway?" });
    expect(refusal.details).toHaveLength(1);
    expect(refusal.details[0]).toMatch(/^a\.best:3: error: not a best line/);
    expect(runCount(f.db)).toBe(0);
    // A taken name is said before the question, not after the answer.
    uploadRun(f.db, f.coord, f.project.id, { fileName: "a.best", bytes: enc("bright.a 1 :: clever\n"), gold: goldId, name: "taken" });
    expect(() => uploadRun(f.db, f.coord, f.project.id, { fileName: "a.best", bytes: enc(cut), gold: goldId, name: "taken" })).toThrow(/already stored/);
    expect(runCount(f.db)).toBe(1);

    const r = uploadRun(f.db, f.coord, f.project.id, { fileName: "a.best", bytes: enc(cut), gold: goldId, confirm: true });
    expect(r.lines).toEqual({ read: 3, matched: 2, refused: 1 });
    expect(r.diagnostics.some((d) => d.line === 3 && d.file === "a.best" && d.severity === "error")).toBe(true);
    expect(runCount(f.db)).toBe(2);
    const row = scoreBoard(f.db, f.coord, f.project.id, { kind: "stored", id: goldId }).runs.find((x) => x.run.id === r.run.id)!;
    expect(row).toMatchObject({ skipped: 1, errors: 1 });
    // Warnings alone ask nothing.
    expect(uploadRun(f.db, f.coord, f.project.id, { fileName: "crlf.best", bytes: enc("bright.a 1 :: clever\r\n"), gold: goldId }).run.name).toBe("crlf");
  });

  it("deletes a run", () => {
    const f = withRuns();
    expect(deleteRun(f.db, f.coord, f.project.id, f.oot.id)).toBe("hand oot");
    expect(listRuns(f.db, f.coord, f.project.id).map((r) => r.type)).toEqual(["best", "mw"]);
    expect(() => deleteRun(f.db, f.coord, f.project.id, f.oot.id)).toThrow(NotFoundError);
  });

  it("decodeUpload refuses empty, non-UTF-8 and binary files", () => {
    expect(decodeUpload("g", enc("x\n"))).toEqual({ name: "g", text: "x\n" });
    expect(() => decodeUpload("g", new Uint8Array(), "gold")).toThrow(/empty/);
    expect(() => decodeUpload("g", new Uint8Array([0xc3]), "gold")).toThrow(/not UTF-8/);
  });
});

describe("scoring: figures against a stored gold (hand-computed)", () => {
  it("the results table holds best, oot and mw figures equal to scoreTexts and to the hand figures", () => {
    const f = withRuns();
    const board = scoreBoard(f.db, f.coord, f.project.id, f.source);
    expect(board.gold).toMatchObject({ kind: "stored", id: f.goldId, goldName: "hand.gold", mwgoldName: "hand.mwgold", items: 4 });
    const [best, oot, mw] = board.runs.map((r) => r.figures as unknown as Record<string, number | null>);

    expect(best).toEqual(substitutionJson("best", subStats({ type: "best", system: BEST, gold: GOLD })));
    expect(best).toMatchObject({ type: "best", total: 3, attempted: 2, totalWithMode: 2, attemptedWithMode: 2 });
    expect(best.precision).toBeCloseTo(11 / 24, 12);
    expect(best.recall).toBeCloseTo(11 / 36, 12);
    expect(best.modePrecision).toBe(0.5);
    expect(best.modeRecall).toBe(0.5);

    expect(oot).toEqual(substitutionJson("oot", subStats({ type: "oot", system: OOT, gold: GOLD })));
    expect(oot).toMatchObject({ type: "oot", total: 3, attempted: 2, attemptedWithMode: 1, modePrecision: 0, modeRecall: 0 });
    expect(oot.precision).toBeCloseTo(2 / 3, 12);
    expect(oot.recall).toBeCloseTo(4 / 9, 12);

    expect(mw).toEqual(mwJson(mwStats({ type: "mw", system: MW, gold: MWGOLD })));
    expect(mw).toMatchObject({ totalMultiwords: 2, systemFound: 3, genuine: 2, matched: 1, detectionRecall: 1, identificationRecall: 0.5 });
    expect(mw.detectionPrecision).toBeCloseTo(2 / 3, 12);
    expect(mw.identificationPrecision).toBeCloseTo(1 / 3, 12);
  });

  it("a run's detail: the official report, per-PoS and per-lexelt rows, every attempted item, diagnostics", () => {
    const f = withRuns();
    const d = runDetail(f.db, f.coord, f.project.id, f.best.id);
    expect(d.report).toBe(
      ["Total = 3, attempted = 2", "precision = 45.83, recall = 30.56", "Total with mode 2 attempted 2", "Mode precision = 50.00, Mode recall = 50.00", ""].join("\n"),
    );
    expect(runReport(f.db, f.coord, f.project.id, f.best.id, true).text.split("\n").slice(0, 4)).toEqual([
      "bright.a Item 1 mode 'intelligent' : system 'clever' wrong",
      "bright.a Item 1 credit 0.5 guesses 2 human responses 6: score is 0.5",
      "bright.a Item 2 mode 'luminous' : system 'luminous'  correct",
      "bright.a Item 2 credit 0.666666666666667 guesses 1 human responses 3: score is 0.666666666666667",
    ]);
    expect(d.byPos.map((g) => [g.group, g.stats.total, g.stats.attempted])).toEqual([["a", 3, 2]]);
    expect(d.byLexelt.map((g) => [g.group, g.stats.total, g.stats.attempted])).toEqual([
      ["bright.a", 2, 2],
      ["keen.a", 1, 0],
    ]);
    expect(d.items.map((i) => (i.kind === "substitution" ? [i.id, i.line, i.score] : null))).toEqual([
      ["1", 1, 0.25],
      ["2", 2, 2 / 3],
    ]);
    expect(d.ignored).toEqual({ outsideT: 1, repeats: 0, unscorable: 0 });
    expect(runReport(f.db, f.coord, f.project.id, f.best.id).text).toBe(d.report);

    const m = runDetail(f.db, f.coord, f.project.id, f.mw.id);
    expect(m.report.split("\n")[0]).toBe("Total MWs in GS = 2, System found 3 of which 2 were genuine");
    expect(m.items.map((i) => (i.kind === "mw" ? [i.id, i.genuine, i.matched] : null))).toEqual([
      ["1", true, true],
      ["2", false, false],
      ["3", true, false],
    ]);
  });

  it("a gold with errors is refused with its lines named, nothing stored; a missing mwgold is named for mw runs", () => {
    const f = withRuns();
    // An id given twice is an error (score.pl would merge the lines).
    const bad = { name: "bad.gold", text: "bright.a 1 :: clever 2;\nbright.a 2 :: light 1;\nbright.a 1 :: smart 2;\n" };
    const golds = listGolds(f.db, f.coord, f.project.id).length;
    let err: unknown = null;
    try {
      storeGold(f.db, f.coord, f.project.id, { gold: bad, mwgold: null });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toMatch(/^bad\.gold: the gold file has errors/);
    expect((err as InputError).details!.some((d) => d.includes("bad.gold:3"))).toBe(true);
    expect(listGolds(f.db, f.coord, f.project.id)).toHaveLength(golds);
    expect(() => storeGold(f.db, f.coord, f.project.id, { gold: null, mwgold: null })).toThrow(/Upload a gold file/);

    // A gold without an mwgold: mw runs scored with it say so.
    const only = storeGold(f.db, f.coord, f.project.id, { name: "gold only", gold: HAND.gold, mwgold: null }).id!;
    const mw = uploadRun(f.db, f.coord, f.project.id, { fileName: "x.mw", bytes: enc(MW), gold: only }).run;
    const board = scoreBoard(f.db, f.coord, f.project.id, { kind: "stored", id: only });
    expect(board.runs.map((r) => r.run.id)).toEqual([mw.id]);
    expect(board.runs[0].problem).toMatch(/No mwgold file uploaded/);
    expect(() => runReport(f.db, f.coord, f.project.id, mw.id)).toThrow(InputError);
  });

  it("stored golds: kept across requests, runs ranked only among those of their gold, deletion refused while runs use it", () => {
    const f = withRuns();
    // A second gold and a run with the same name scored with it: both stored, each board holds only its own.
    const other = storeGold(f.db, f.coord, f.project.id, { gold: { name: "other.gold", text: GOLD.replace("intelligent 3", "intelligent 1") }, mwgold: null });
    expect(other).toMatchObject({ name: "other", goldName: "other.gold", mwgoldName: null, runs: 0 });
    expect(() => storeGold(f.db, f.coord, f.project.id, { gold: { name: "other.gold", text: GOLD }, mwgold: null })).toThrow(/already stored/);
    const again = uploadRun(f.db, f.coord, f.project.id, { fileName: "hand.best", bytes: enc(BEST), name: "hand best", gold: other.id }).run;
    expect(() => uploadRun(f.db, f.coord, f.project.id, { fileName: "hand.best", bytes: enc(BEST), name: "hand best", gold: other.id })).toThrow(/already stored for this gold/);
    const a = scoreBoard(f.db, f.coord, f.project.id, f.source);
    const b = scoreBoard(f.db, f.coord, f.project.id, { kind: "stored", id: other.id! });
    const own = scoreBoard(f.db, f.coord, f.project.id, { kind: "project" });
    expect(a.runs.map((r) => r.run.name)).toEqual(["hand best", "hand oot", "hand mw"]);
    expect(b.runs.map((r) => r.run.id)).toEqual([again.id]);
    expect(own.runs).toEqual([]);
    expect(a.golds.map((g) => [g.id, g.runs])).toEqual([
      [null, 0],
      [f.goldId, 3],
      [other.id, 1],
    ]);
    // The run's detail uses the gold it was uploaded with: item 1 credit (2+1)/(1+2+1) there.
    const d = runDetail(f.db, f.coord, f.project.id, again.id);
    expect(d.goldName).toBe("other.gold");
    expect(d.items.find((i) => i.id === "1")).toMatchObject({ credit: 0.75 });
    // A gold of another project, or none, is refused.
    expect(() => uploadRun(f.db, f.coord, f.project.id, { fileName: "z.best", bytes: enc(BEST), gold: 9999 })).toThrow(NotFoundError);
    expect(() => scoreBoard(f.db, f.coord, f.project.id, { kind: "stored", id: 9999 })).toThrow(NotFoundError);
    // Deletion: refused while runs use it, naming them; allowed once they are gone.
    expect(() => deleteGold(f.db, f.coord, f.project.id, other.id!)).toThrow(/1 run is scored with other: hand best \(best\)/);
    deleteRun(f.db, f.coord, f.project.id, again.id);
    expect(deleteGold(f.db, f.coord, f.project.id, other.id!)).toBe("other");
    expect(listGolds(f.db, f.coord, f.project.id).map((g) => g.id)).toEqual([null, f.goldId]);
  });

  it("a file whose name says nothing of its type is read from its content", () => {
    const f = projectFixture();
    const r = uploadRun(f.db, f.coord, f.project.id, { fileName: "BL.out", bytes: enc(BEST) });
    expect(r).toMatchObject({ typeFrom: "content", run: { type: "best" } });
    expect(uploadRun(f.db, f.coord, f.project.id, { fileName: "x.out", bytes: enc(OOT) }).run.type).toBe("oot");
    expect(uploadRun(f.db, f.coord, f.project.id, { fileName: "x.out", bytes: enc(MW) }).run.type).toBe("mw");
    expect(uploadRun(f.db, f.coord, f.project.id, { fileName: "y.best", bytes: enc(BEST) }).typeFrom).toBe("extension");
    expect(() => uploadRun(f.db, f.coord, f.project.id, { fileName: "mixed.out", bytes: enc(BEST + OOT) })).toThrow(/nor the content tells the type/);
  });

  it("the JSON download has each run's figures and per-PoS groups", () => {
    const f = withRuns();
    const j = scoresJson(f.db, f.coord, f.project.id, f.source);
    expect(j.gold).toEqual({ kind: "stored", id: f.goldId, label: "hand (hand.gold and hand.mwgold)", gold: "hand.gold", mwgold: "hand.mwgold" });
    expect(j.runs[0].scores).toMatchObject({ type: "best", attempted: 2 });
    expect((j.runs[0] as { groups?: { pos: string; attempted: number }[] }).groups).toEqual([expect.objectContaining({ pos: "a", attempted: 2 })]);
    // The route's download is derived off the request thread (derive-jobs.ts "scoresFile"): the same JSON, named.
    const file = runDeriveJob(f.db, { op: "scoresFile", actor: f.coord, projectId: f.project.id, source: f.source, mode: { repaired: true } });
    expect(file.fileName).toBe("p-hand-hand.gold-and-hand.mwgold-scores-repaired.json");
    expect(JSON.parse(file.text)).toEqual(JSON.parse(JSON.stringify(scoresJson(f.db, f.coord, f.project.id, f.source, { repaired: true }))));
  });
});

describe("scoring: against the project's own gold", () => {
  const XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="bright.a"><instance id="p1"><context>a <head>bright</head> pupil</context></instance><instance id="p2"><context>a <head>bright</head> lamp</context></instance></lexelt>
</corpus>
`;
  it("scores a run against the gold derived from the responses, as scoreTexts does on that gold", () => {
    const f = projectFixture();
    importLexeltXml(f.db, f.coord, f.project.id, { fileName: "p.xml", bytes: enc(XML) });
    actorFor(f.db, "bob", "annotator");
    addMember(f.db, f.coord, f.project.id, "bob");
    const tsv = [
      "annotator\tlexelt\tinstance\tanswer\tmultiword",
      "ann\tbright.a\tp1\tclever;smart\t",
      "bob\tbright.a\tp1\tclever\t",
      "ann\tbright.a\tp2\tshining\t",
      "bob\tbright.a\tp2\tluminous\t",
      "",
    ].join("\n");
    importResponses(f.db, f.coord, f.project.id, { fileName: "r.tsv", text: tsv });
    const run = uploadRun(f.db, f.coord, f.project.id, { fileName: "s.best", bytes: enc("bright.a p1 :: clever\nbright.a p2 :: dim\n") }).run;
    const g = projectGold(f.db, f.coord, f.project.id);
    const board = scoreBoard(f.db, f.coord, f.project.id, { kind: "project" });
    expect(board.gold.kind).toBe("project");
    const expected = substitutionJson("best", subStats({ type: "best", system: runFile(f.db, f.coord, f.project.id, run.id).content, gold: g.gold }));
    expect(board.runs[0].figures).toEqual(expected);
    // Hand: p1 clever 2, smart 1 (|H| 3, mode clever); p2 shining 1, luminous 1 (|H| 2, no mode).
    // clever on p1: 2/3; dim on p2: 0. P = R = (2/3)/2 = 1/3; mode 1 of 1.
    expect(board.runs[0].figures).toMatchObject({ total: 2, attempted: 2, totalWithMode: 1, modePrecision: 1, modeRecall: 1 });
    expect((board.runs[0].figures as { precision: number }).precision).toBeCloseTo(1 / 3, 12);
  });
});

describe("scoring: SENSEVAL on submit", () => {
  const MAP = ["art-1", "art-1.1 2 art-1", "art-1.2 2 art-1", "art-2", ""].join("\n");
  const KEY = ["art.n 1 art-1.1", "art.n 2 art-2", "art.n 3 art-1.2", ""].join("\n");
  const ANSWERS = ["art.n 1 art-1.2", "art.n 2 art-2", ""].join("\n");
  it("fine and coarse figures, scorer2's text and the grid", () => {
    const f = projectFixture();
    const files = { answers: { name: "answers", text: ANSWERS }, key: { name: "key", text: KEY }, sensemap: { name: "sensemap", text: MAP } };
    // fine: 1 of 2 attempted correct, 3 in total.
    const fine = scoreSensevalUpload(f.db, f.coord, f.project.id, { ...files, granularity: "fine" });
    expect(fine.json).toMatchObject({ granularity: "fine", correct: 1, attemptedInstances: 2, totalInstances: 3, precision: 0.5 });
    expect(fine.text).toContain('Fine-grained score for "answers" using key "key":');
    expect(fine.text).toContain(" precision: 0.500 (1.00 correct of 2.00 attempted)");
    // coarse: art-1.2 and art-1.1 are both art-1: 2 of 2.
    const coarse = scoreSensevalUpload(f.db, f.coord, f.project.id, { ...files, granularity: "coarse" });
    expect(coarse.json).toMatchObject({ granularity: "coarse", correct: 2, precision: 1 });
    expect(coarse.report?.overall.cells.coarse.generous.correct).toBe(2);
    expect(coarse.reportText).toContain("SENSEVAL-1 report");
  });

  it("refuses coarse scoring without a sense map and unknown options", () => {
    const f = projectFixture();
    const files = { answers: { name: "answers", text: ANSWERS }, key: { name: "key", text: KEY }, sensemap: null };
    expect(() => scoreSensevalUpload(f.db, f.coord, f.project.id, { ...files, granularity: "coarse" })).toThrow(/needs a sense map/);
    expect(() => scoreSensevalUpload(f.db, f.coord, f.project.id, { ...files, treatment: "lenient" })).toThrow(/Unknown treatment/);
    const r = scoreSensevalUpload(f.db, f.coord, f.project.id, files);
    expect(r.report).toBeNull();
  });
});

const TRIAL = path.resolve(import.meta.dirname, "../../../../shared/data/semeval2007/trial");
const EXPECTED = path.resolve(import.meta.dirname, "../../../../shared/data/semeval2007/expected");

describeWithSharedData([TRIAL, EXPECTED], "scoring: the trial baselines uploaded and scored against an uploaded gold.trial", () => {
  it("reproduce the official scorer's expected output, and the table's figures are the ones printed there", () => {
    const f = projectFixture();
    const read = (dir: string, name: string) => readFileSync(path.join(dir, name));
    const goldId = storeGold(f.db, f.coord, f.project.id, {
      gold: decodeUpload("gold.trial", read(TRIAL, "gold.trial"), "gold"),
      mwgold: decodeUpload("mwgold.trial", read(TRIAL, "mwgold.trial"), "mwgold"),
    }).id!;
    const source: GoldSource = { kind: "stored", id: goldId };
    const cases = [
      { file: "BL.out", type: "best", expected: "BL.out.best" },
      { file: "BLoutof10.out", type: "oot", expected: "BLoutof10.out.oot" },
      { file: "dummyMW.out", type: "mw", expected: "dummyMW.out.mw" },
    ] as const;
    const runs = cases.map((c) => uploadRun(f.db, f.coord, f.project.id, { fileName: c.file, bytes: read(TRIAL, c.file), type: c.type, gold: goldId }).run);
    const board = scoreBoard(f.db, f.coord, f.project.id, source);
    cases.forEach((c, i) => {
      const plain = read(EXPECTED, `${c.expected}.txt`).toString("utf8");
      const verbose = read(EXPECTED, `${c.expected}.verbose.txt`).toString("utf8");
      expect(runReport(f.db, f.coord, f.project.id, runs[i].id).text).toBe(plain);
      expect(runReport(f.db, f.coord, f.project.id, runs[i].id, true).text).toBe(verbose);
      // The table's figures, parsed back from the expected text.
      const fig = board.runs[i].figures as unknown as Record<string, number | null>;
      const pct = (x: number | null) => (x === null ? "" : (Math.trunc(x * 10000 + 0.5) / 100).toFixed(2));
      if (c.type === "mw") {
        const m = /Total MWs in GS = (\d+), System found (\d*) of which (\d*) were genuine/.exec(plain)!;
        expect([fig.totalMultiwords, fig.systemFound, fig.genuine]).toEqual([Number(m[1]), Number(m[2] || 0), Number(m[3] || 0)]);
        const d = /Detection precision = ([\d.]*), recall = ([\d.]*)/.exec(plain)!;
        expect([pct(fig.detectionPrecision), pct(fig.detectionRecall)]).toEqual([d[1], d[2]]);
        const id = /Identification precision = ([\d.]*), recall = ([\d.]*)/.exec(plain)!;
        expect([pct(fig.identificationPrecision), pct(fig.identificationRecall)]).toEqual([id[1], id[2]]);
      } else {
        const t = /Total = (\d+), attempted = (\d+)\nprecision = ([\d.]+), recall = ([\d.]+)\nTotal with mode (\d+) attempted (\d+)\n(?:Mode )?precision = ([\d.]+), (?:Mode )?recall = ([\d.]+)/.exec(plain)!;
        expect([fig.total, fig.attempted, fig.totalWithMode, fig.attemptedWithMode]).toEqual([t[1], t[2], t[5], t[6]].map(Number));
        expect([pct(fig.precision), pct(fig.recall), pct(fig.modePrecision), pct(fig.modeRecall)]).toEqual([t[3], t[4], t[7], t[8]]);
      }
    });
  });
});
