/**
 * The WordNet baselines stored as runs (lib/server/scoring/baselines.ts): over the
 * project's instances, scored with the chosen gold, all three or none.
 */
import { describe, expect, it } from "vitest";
import { wordnetCandidates } from "../../../lib/lexsub/baseline/wordnet";
import { addWordNetBaselineRuns, baselineInstances } from "../../../lib/server/scoring/baselines";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError } from "../../../lib/server/kernel/errors";
import { storeGold } from "../../../lib/server/scoring/golds";
import { listRuns, runFile, uploadRun } from "../../../lib/server/scoring/runs";
import { wordnetGraph } from "../../../lib/wordnet/load";
import { projectFixture } from "../../support/db";

const enc = (s: string) => new TextEncoder().encode(s);
const XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="severely.r">
<instance id="1"><context>He was <head>severely</head> hurt .</context></instance>
</lexelt>
<lexelt item="take.v">
<instance id="2"><context>The meeting will <head>take</head> place on Monday .</context></instance>
<instance id="3"><context>Please <head>take</head> a seat .</context></instance>
</lexelt>
</corpus>
`;

function fixture() {
  const f = projectFixture();
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "b.xml", bytes: enc(XML) });
  return f;
}

describe("WordNet baselines as runs", () => {
  it("reads the project's instances in corpus order", () => {
    const f = fixture();
    expect(baselineInstances(f.db, f.coord, f.project.id).map((i) => `${i.lexelt} ${i.id} ${i.head}`)).toEqual(["severely.r 1 severely", "take.v 2 take", "take.v 3 take"]);
  });

  it("stores best, oot and mw, each line the library's candidates; scored with the chosen gold", () => {
    const f = fixture();
    const gold = storeGold(f.db, f.coord, f.project.id, { gold: { name: "g.gold", text: "severely.r 1 :: badly 2;gravely 1;\n" }, mwgold: null }).id!;
    const r = addWordNetBaselineRuns(f.db, f.coord, f.project.id, gold);
    expect(r.runs.map((x) => [x.name, x.type, x.goldId])).toEqual([
      ["WordNet baseline", "best", gold],
      ["WordNet baseline", "oot", gold],
      ["WordNet baseline", "mw", gold],
    ]);
    const g = wordnetGraph();
    const severely = wordnetCandidates(g, "severely", "r").map((c) => c.word);
    const take = wordnetCandidates(g, "take", "v").map((c) => c.word);
    expect(runFile(f.db, f.coord, f.project.id, r.runs[0].id).content).toBe(`severely.r 1 :: ${severely[0]}\ntake.v 2 :: ${take[0]}\ntake.v 3 :: ${take[0]}\n`);
    expect(runFile(f.db, f.coord, f.project.id, r.runs[1].id).content.split("\n")[0]).toBe(`severely.r 1 ::: ${severely.join(";")}`);
    // Only "take place" is a WordNet multiword within two words of a target.
    expect(runFile(f.db, f.coord, f.project.id, r.runs[2].id).content).toBe("take.v 2 :: take place\n");
    expect(r.unanswered).toEqual({ best: 0, oot: 0, mw: 2 });
  });

  it("all three or none: refused when one name is taken, nothing stored; coordinators only", () => {
    const f = fixture();
    uploadRun(f.db, f.coord, f.project.id, { fileName: "x.mw", bytes: enc("take.v 2 :: take place\n"), name: "WordNet baseline" });
    expect(() => addWordNetBaselineRuns(f.db, f.coord, f.project.id)).toThrow(InputError);
    expect(listRuns(f.db, f.coord, f.project.id).map((x) => x.type)).toEqual(["mw"]);
    expect(() => addWordNetBaselineRuns(f.db, f.ann, f.project.id)).toThrow(AuthError);
    expect(() => baselineInstances(f.db, null, f.project.id)).toThrow(AuthError);
  });
});
