/** Candidate sources of a judgement round: runs under one name are told apart (lib/server/judgement/judgement.ts). */
import { describe, expect, it } from "vitest";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { createRound, roundResults } from "../../../lib/server/judgement/judgement";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { uploadRun } from "../../../lib/server/scoring/runs";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture } from "../../support/db";

// Sentences written for this test.
const XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="bright.a">
<instance id="1"><context>a <head>bright</head> child in the class</context></instance>
</lexelt>
</corpus>
`;

describe("judgement round sources", () => {
  it("keeps two runs of one name apart, each tagged with its type and gold; a run alone keeps its plain name", () => {
    const f = projectFixture();
    importLexeltXml(f.db, f.coord, f.project.id, { fileName: "b.xml", bytes: new TextEncoder().encode(XML) });
    const ref = (f.db.$client.prepare("select id from instances").get() as { id: number }).id;
    const anns = [f.ann, actorFor(f.db, "ann2", "annotator")];
    addMember(f.db, f.coord, f.project.id, "ann2");
    for (const [k, subs] of [
      [0, ["clever", "smart"]],
      [1, ["able", "quick"]],
    ] as const)
      saveResponse(f.db, anns[k], f.project.id, ref, { kind: "substitutes", substitutes: [...subs], multiword: false, phrase: "" }, { expectedRevision: 0 });
    const best = uploadRun(f.db, f.coord, f.project.id, { fileName: "BL.best", text: "bright.a 1 :: smart\n", type: "best", name: "BL" }).run;
    const oot = uploadRun(f.db, f.coord, f.project.id, { fileName: "BL.oot", text: "bright.a 1 ::: brainy;smart\n", type: "oot", name: "BL" }).run;
    const gold = `${f.project.name} (derived)`;

    const both = createRound(f.db, f.coord, f.project.id, { sampleSize: 5, seed: 1, selection: "any", sources: [`run:${best.id}`, `run:${oot.id}`] });
    expect(Object.fromEntries(roundResults(f.db, f.coord, both.id).candidates.map((c) => [c.text, c.sources]))).toEqual({
      smart: [`run:BL (best, gold ${gold}, run ${best.id})`, `run:BL (oot, gold ${gold}, run ${oot.id})`],
      brainy: [`run:BL (oot, gold ${gold}, run ${oot.id})`],
    });
    const one = createRound(f.db, f.coord, f.project.id, { sampleSize: 5, seed: 1, selection: "any", sources: [`run:${oot.id}`] });
    expect(roundResults(f.db, f.coord, one.id).candidates.map((c) => c.sources)).toEqual([["run:BL"], ["run:BL"]]);
  });
});
