/**
 * The Scoring board never waits for the whole scoring of its runs (#39): never scored whole, the
 * board comes back at once with score.pl's figures from the kept outcomes, says the whole scoring
 * is being computed and starts it; once kept, the repaired and UTF-8 figures are beside them.
 */
import { describe, expect, it } from "vitest";
import { refreshScoringOthers, scoringBoardView } from "../../../lib/server/jobs/derive-pool";
import { uploadRun } from "../../../lib/server/scoring/runs";
import { scoreBoard } from "../../../lib/server/scoring/scores";
import { goldFixture } from "../../support/gold-fixture";

describe("the Scoring board and the whole scoring in the background", () => {
  it("answers from the kept outcomes at once, saying the whole scoring is being computed, then shows it", async () => {
    const f = goldFixture(undefined, { acceptProposals: true });
    uploadRun(f.db, f.coord, f.project.id, { fileName: "sys.best", text: "calm.a c1 :: still;quiet\nhop.v h1 :: jump\n" });
    const first = await scoringBoardView(f.db, f.coord, f.project.id, { kind: "project" }, {});
    expect(first.others).toMatchObject({ computedAt: null, missing: true, computing: true });
    const whole = scoreBoard(f.db, f.coord, f.project.id, { kind: "project" });
    expect(first.runs.map((r) => r.figures)).toEqual(whole.runs.map((r) => r.figures));
    // The computation it started (shared with this call) keeps the figures; the board then has them, and computes nothing.
    await refreshScoringOthers(f.db, f.coord, f.project.id, { kind: "project" });
    const after = await scoringBoardView(f.db, f.coord, f.project.id, { kind: "project" }, {});
    expect(after.others).toMatchObject({ computedAt: expect.any(Number), missing: false, stale: false });
    expect(after.others?.computing).toBeUndefined();
    expect(after.runs.map((r) => r.intervals)).toEqual(whole.runs.map((r) => r.intervals));
  });
});
