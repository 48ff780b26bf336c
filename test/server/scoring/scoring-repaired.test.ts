/**
 * The Scoring page's two modes (issue #12): score.pl's figures by default, with
 * the repaired figures and the rules behind them beside each run where a
 * documented repair changes a figure; the repaired figures on request, in the
 * table, a run's detail, its text report and the JSON download.
 */
import { describe, expect, it } from "vitest";
import { repairInfo } from "../../../lib/scorers/semeval2007/repairs";
import { repairJson, substitutionJson } from "../../../lib/scorers/semeval2007/report";
import { scoreTexts } from "../../../lib/scorers/semeval2007/texts";
import type { Actor } from "../../../lib/server/kernel/actor";
import { AuthError, InputError } from "../../../lib/server/kernel/errors";
import { type GoldSource, storeGold } from "../../../lib/server/scoring/golds";
import { uploadRun } from "../../../lib/server/scoring/runs";
import { runDetail, runReport, scoreBoard, scoresJson } from "../../../lib/server/scoring/scores";
import { modeOf } from "../../../app/api/projects/[projectId]/scoring/mode";
import { projectFixture } from "../../support/db";

const enc = (s: string) => new TextEncoder().encode(s);

// A gold where two repairs matter. Item 5's "sharpness" holds the letters "pn":
// score.pl drops it (pn rule), leaving one entry, so 5 is outside T; repaired,
// 5 is in T with mode "sharpness" (|H| 3). Item 6's mode "well-known" is
// hyphenated: score.pl never hits it (hyphen-mode rule); repaired, "well known" does.
const GOLD = [
  "bright.a 1 :: intelligent 3;clever 2;smart 1;",
  "bright.a 2 :: luminous 2;light 1;",
  "keen.a 5 :: sharpness 2;edge 1;",
  "keen.a 6 :: well-known 2;famous 1;",
  "",
].join("\n");
const CRAFTED = { name: "crafted.gold", text: GOLD };
// The same items without the letters "pn" or a hyphenated mode: nothing to repair.
const PLAIN = { name: "plain.gold", text: GOLD.replace("sharpness", "keenness").replace("well-known", "renowned") };

// alpha: 1 intelligent (3/6, mode hit), 2 luminous (2/3, mode hit): credit 7/6.
//   score.pl: T = {1, 2, 6}: P = 7/12, R = 7/18.  Repaired: T = {1, 2, 5, 6}: P = 7/12, R = 7/24.
const ALPHA = ["bright.a 1 :: intelligent", "bright.a 2 :: luminous", ""].join("\n");
// beta: 1 clever (2/6), 5 sharpness (outside T, or 2/3 and the mode), 6 well known (2/3; the mode only repaired).
//   score.pl: attempted {1, 6}, credit 1: P = 1/2, R = 1/3, mode 0 of 2 attempted, 3 in T.
//   Repaired: attempted {1, 5, 6}, credit 5/3: P = 5/9, R = 5/12, mode 2 of 3 attempted, 4 in T.
const BETA = ["bright.a 1 :: clever", "keen.a 5 :: sharpness", "keen.a 6 :: well known", ""].join("\n");

/** The crafted and plain golds stored, alpha and beta scored with each. */
function fixture() {
  const f = projectFixture();
  const crafted = storeGold(f.db, f.coord, f.project.id, { gold: CRAFTED, mwgold: null }).id!;
  const plain = storeGold(f.db, f.coord, f.project.id, { gold: PLAIN, mwgold: null }).id!;
  const alpha = uploadRun(f.db, f.coord, f.project.id, { fileName: "alpha.best", bytes: enc(ALPHA), gold: crafted }).run;
  const beta = uploadRun(f.db, f.coord, f.project.id, { fileName: "beta.best", bytes: enc(BETA), gold: crafted }).run;
  uploadRun(f.db, f.coord, f.project.id, { fileName: "alpha.best", bytes: enc(ALPHA), gold: plain });
  const betaPlain = uploadRun(f.db, f.coord, f.project.id, { fileName: "beta.best", bytes: enc(BETA), gold: plain }).run;
  const source: GoldSource = { kind: "stored", id: crafted };
  const plainSource: GoldSource = { kind: "stored", id: plain };
  return { ...f, alpha, beta, betaPlain, source, plainSource };
}

type Figures = Record<string, number | null>;
const fig = (x: unknown) => x as Figures;
function statsOf(r: ReturnType<typeof scoreTexts>["result"]) {
  if (r.type === "mw") throw new Error("expected best");
  return r.stats;
}

describe("scoring: score.pl's figures with the repaired ones beside them", () => {
  it("each run carries its repaired figures and the rules that changed items; the figures themselves stay score.pl's", () => {
    const f = fixture();
    const board = scoreBoard(f.db, f.coord, f.project.id, f.source);
    expect(board.mode).toBe("official");
    const [alpha, beta] = board.runs;

    const a = fig(alpha.figures);
    expect(a).toMatchObject({ total: 3, attempted: 2 });
    expect(a.precision).toBeCloseTo(7 / 12, 12);
    expect(a.recall).toBeCloseTo(7 / 18, 12);
    const ar = fig(alpha.repaired!.figures);
    expect(ar).toMatchObject({ total: 4, attempted: 2 });
    expect(ar.recall).toBeCloseTo(7 / 24, 12);
    expect(alpha.repaired!.changes.map((c) => [c.rule, c.items, c.ids])).toEqual([["pn", 1, ["5"]]]);

    const b = fig(beta.figures);
    expect(b).toMatchObject({ total: 3, attempted: 2, totalWithMode: 3, attemptedWithMode: 2, modePrecision: 0 });
    expect(b.precision).toBeCloseTo(1 / 2, 12);
    expect(b.recall).toBeCloseTo(1 / 3, 12);
    const br = fig(beta.repaired!.figures);
    expect(br).toMatchObject({ total: 4, attempted: 3, totalWithMode: 4, attemptedWithMode: 3 });
    expect(br.precision).toBeCloseTo(5 / 9, 12);
    expect(br.recall).toBeCloseTo(5 / 12, 12);
    expect(br.modePrecision).toBeCloseTo(2 / 3, 12);
    expect(beta.repaired!.changes.map((c) => [c.rule, c.items, c.ids])).toEqual([
      ["pn", 1, ["5"]],
      ["hyphen-mode", 1, ["6"]],
    ]);
    // Each change carries the rule's two readings, for the page's explanation.
    for (const c of beta.repaired!.changes) expect(c).toMatchObject({ official: repairInfo(c.rule).official, repaired: repairInfo(c.rule).repaired });

    // The figures are scoreTexts' in each mode.
    expect(beta.figures).toEqual(substitutionJson("best", statsOf(scoreTexts({ type: "best", system: BETA, gold: GOLD }).result)));
    expect(beta.repaired!.figures).toEqual(
      substitutionJson("best", statsOf(scoreTexts({ type: "best", system: BETA, gold: GOLD, repaired: true }).result)),
    );
  });

  it("runs where no repair changes a figure carry nothing extra", () => {
    const f = fixture();
    const board = scoreBoard(f.db, f.coord, f.project.id, f.plainSource);
    expect(board.runs.map((r) => r.repaired)).toEqual([null, null]);
  });

  it("the repaired mode scores every run with the repairs, and ranks differ from score.pl's", () => {
    const f = fixture();
    const official = scoreBoard(f.db, f.coord, f.project.id, f.source);
    const repaired = scoreBoard(f.db, f.coord, f.project.id, f.source, { repaired: true });
    expect(repaired.mode).toBe("repaired");
    // In the repaired mode the figures are the repaired ones, and nothing more is carried.
    expect(repaired.runs.map((r) => r.figures)).toEqual(official.runs.map((r) => r.repaired!.figures));
    expect(repaired.runs.map((r) => r.repaired)).toEqual([null, null]);
    // By recall, alpha leads on score.pl's figures (7/18 > 1/3), beta on the repaired ones (5/12 > 7/24).
    const recall = (rs: typeof official.runs) => rs.map((r) => fig(r.figures).recall!);
    const [ao, bo] = recall(official.runs);
    const [ar, br] = recall(repaired.runs);
    expect(ao).toBeGreaterThan(bo);
    expect(br).toBeGreaterThan(ar);
    // Per PoS too.
    expect(fig(repaired.runs[1].byPos[0].figures).total).toBe(4);
  });

  it("a run's detail lists the changes with their ids in both modes; its items, report and figures follow the mode", () => {
    const f = fixture();
    const o = runDetail(f.db, f.coord, f.project.id, f.beta.id);
    expect(o.mode).toBe("official");
    expect(o.report.split("\n").slice(0, 2)).toEqual(["Total = 3, attempted = 2", "precision = 50.00, recall = 33.33"]);
    expect(o.items.map((i) => (i.kind === "substitution" ? [i.id, i.modeHit] : null))).toEqual([
      ["1", false],
      ["6", false],
    ]);
    expect(o.repairs!.changes.map((c) => [c.rule, c.ids])).toEqual([
      ["pn", ["5"]],
      ["hyphen-mode", ["6"]],
    ]);
    expect(fig(o.repairs!.official).recall).toBeCloseTo(1 / 3, 12);
    expect(fig(o.repairs!.repaired).recall).toBeCloseTo(5 / 12, 12);

    const r = runDetail(f.db, f.coord, f.project.id, f.beta.id, { repaired: true });
    expect(r.mode).toBe("repaired");
    expect(r.report.split("\n").slice(0, 4)).toEqual([
      "Total = 4, attempted = 3",
      "precision = 55.56, recall = 41.67",
      "Total with mode 4 attempted 3",
      "Mode precision = 66.67, Mode recall = 50.00",
    ]);
    expect(r.items.map((i) => (i.kind === "substitution" ? [i.id, i.modeHit] : null))).toEqual([
      ["1", false],
      ["5", true],
      ["6", true],
    ]);
    expect(r.byLexelt.map((g) => [g.group, g.stats.total])).toEqual([
      ["bright.a", 2],
      ["keen.a", 2],
    ]);
    expect(r.repairs).toEqual(o.repairs);
    expect(r.figures).toEqual(o.repairs!.repaired);

    expect(runDetail(f.db, f.coord, f.project.id, f.betaPlain.id).repairs).toBeNull();
  });

  it("the text report is score.pl's by default and lexgold score --repaired's in the repaired mode", () => {
    const f = fixture();
    const official = runReport(f.db, f.coord, f.project.id, f.beta.id).text;
    const repaired = runReport(f.db, f.coord, f.project.id, f.beta.id, false, { repaired: true }).text;
    expect(official).toBe(runDetail(f.db, f.coord, f.project.id, f.beta.id).report);
    expect(repaired).toBe(runDetail(f.db, f.coord, f.project.id, f.beta.id, { repaired: true }).report);
    expect(official).not.toBe(repaired);
    const verbose = runReport(f.db, f.coord, f.project.id, f.beta.id, true, { repaired: true }).text;
    expect(verbose).toContain("keen.a Item 5 mode 'sharpness' : system 'sharpness'  correct");
    expect(verbose.endsWith(repaired)).toBe(true);
    expect(runReport(f.db, f.coord, f.project.id, f.beta.id, true).text).not.toContain("Item 5");
  });

  it("the JSON download holds the repaired object as lexgold score --json does, and the repaired figures on request", () => {
    const f = fixture();
    const j = scoresJson(f.db, f.coord, f.project.id, f.source);
    expect(j.figures).toBe("score.pl");
    const beta = j.runs[1] as { scores: unknown; repaired?: unknown };
    expect(beta.repaired).toEqual(repairJson(scoreTexts({ type: "best", system: BETA, gold: GOLD }).repairs));
    expect(beta.repaired).toMatchObject({ figures: { total: 4, attempted: 3 }, changes: [{ rule: "pn", items: 1, ids: ["5"] }, { rule: "hyphen-mode" }] });

    const r = scoresJson(f.db, f.coord, f.project.id, f.source, { repaired: true });
    expect(r.figures).toBe("repaired");
    expect(r.runs.map((x) => x.scores)).toEqual(j.runs.map((x) => (x as { repaired: { figures: unknown } }).repaired.figures));
    expect(r.runs.every((x) => !("repaired" in x))).toBe(true);

    expect(scoresJson(f.db, f.coord, f.project.id, f.plainSource).runs.every((x) => !("repaired" in x))).toBe(true);
  });

  it("the repaired mode is refused to anyone but the project's coordinator, as the default is", () => {
    const f = fixture();
    for (const call of [
      (a: Actor) => scoreBoard(f.db, a, f.project.id, f.source, { repaired: true }),
      (a: Actor) => scoresJson(f.db, a, f.project.id, f.source, { repaired: true }),
      (a: Actor) => runDetail(f.db, a, f.project.id, f.beta.id, { repaired: true }),
      (a: Actor) => runReport(f.db, a, f.project.id, f.beta.id, false, { repaired: true }),
    ]) {
      expect(() => call(f.ann)).toThrow(AuthError);
      expect(() => call(null)).toThrow(AuthError);
    }
  });

  it("the routes' figures parameter: official by default, repaired on request, anything else refused", () => {
    expect(modeOf(null)).toEqual({ repaired: false });
    expect(modeOf("")).toEqual({ repaired: false });
    expect(modeOf("official")).toEqual({ repaired: false });
    expect(modeOf("repaired")).toEqual({ repaired: true });
    expect(() => modeOf("1")).toThrow(InputError);
    expect(() => modeOf("Repaired")).toThrow(/Unknown figures "Repaired"/);
  });
});
