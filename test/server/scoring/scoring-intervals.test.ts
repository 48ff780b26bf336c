/**
 * The Scoring board's intervals (issue #42): a best run of the demo project gets bootstrap 95%
 * intervals of its precision and recall around its figures; an mw run gets none.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findProjectByName, SYSTEM } from "../../../lib/server/kernel/actor";
import { seedDemo } from "../../../lib/server/ops/demo";
import { uploadRun } from "../../../lib/server/scoring/runs";
import { scoreBoard } from "../../../lib/server/scoring/scores";
import { testDb } from "../../support/db";

const samples = path.resolve(__dirname, "../../../samples");

describe("the Scoring board's intervals", () => {
  it("bound each best and oot run's precision and recall", () => {
    const db = testDb();
    seedDemo(db, { fileName: "demo.xml", bytes: readFileSync(path.join(samples, "demo.xml")) }, { fileName: "d.tsv", text: readFileSync(path.join(samples, "demo-responses.tsv"), "utf8") });
    const p = findProjectByName(db, SYSTEM, "demo", { coordinator: true });
    for (const f of ["demo-system.best", "demo-system.oot", "demo-system.mw"]) uploadRun(db, SYSTEM, p.id, { fileName: f, bytes: readFileSync(path.join(samples, f)) });
    const board = scoreBoard(db, SYSTEM, p.id, { kind: "project" });
    for (const r of board.runs) {
      if (r.run.type === "mw") {
        expect(r.intervals).toBeNull();
        continue;
      }
      const f = r.figures as { precision: number; recall: number };
      expect(r.intervals, r.run.name).not.toBeNull();
      expect(r.intervals!.recall!.low).toBeLessThanOrEqual(f.recall);
      expect(r.intervals!.recall!.high).toBeGreaterThanOrEqual(f.recall);
      expect(r.intervals!.precision!.low).toBeLessThanOrEqual(f.precision);
      expect(r.intervals!.precision!.high).toBeGreaterThanOrEqual(f.precision);
      expect(r.intervals!.recall!.high).toBeGreaterThan(r.intervals!.recall!.low);
    }
    expect(board.runs.filter((r) => r.intervals).length).toBe(2);
  });
});
