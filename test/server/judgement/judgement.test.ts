/**
 * Judgement rounds (lib/server/judgement/judgement.ts): a §5.1 round over a small project, judges who
 * label in their own order, verdicts and Table 8 from those labels, the extended gold and
 * the SWORDS export.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { swordsLoaderCheck } from "../../../lib/scorers/swords/score";
import { table8, verdict } from "../../../lib/lexsub/judgement";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { exportDataset, importDatasetAsNewProject } from "../../../lib/server/datasets/datasets";
import { createRound, extendedGold, myRounds, nextJudgeItem, roundResults, saveLabel, setJudges, setRoundState, swordsExport } from "../../../lib/server/judgement/judgement";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { uploadRun } from "../../../lib/server/scoring/runs";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture } from "../../support/db";

const enc = (s: string) => new TextEncoder().encode(s);
const XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="bright.a">
<instance id="1"><context>a <head>bright</head> child in the class</context></instance>
<instance id="2"><context>the <head>bright</head> lamp over the door</context></instance>
<instance id="3"><context>Bright Street is <head>bright</head> today</context></instance>
</lexelt>
</corpus>
`;

function fixture() {
  const f = projectFixture();
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "b.xml", bytes: enc(XML) });
  const refs = Object.fromEntries(
    (f.db.$client.prepare("select id, instance_id as iid from instances").all() as { id: number; iid: string }[]).map((r) => [r.iid, r.id]),
  );
  const anns = [f.ann, actorFor(f.db, "ann2", "annotator"), actorFor(f.db, "ann3", "annotator")];
  addMember(f.db, f.coord, f.project.id, "ann2");
  addMember(f.db, f.coord, f.project.id, "ann3");
  const judges = ["judge1", "judge2", "judge3"].map((n) => {
    const j = actorFor(f.db, n, "annotator");
    addMember(f.db, f.coord, f.project.id, n);
    return j;
  });
  const say = (k: number, id: string, substitutes: string[]) =>
    saveResponse(f.db, anns[k], f.project.id, refs[id], { kind: "substitutes", substitutes, multiword: false, phrase: "" }, { expectedRevision: 0 });
  // 1 passes §5.1 (clever, smart, able); 2 has two single words only; 3 has a NAME
  say(0, "1", ["clever", "smart"]);
  say(1, "1", ["clever"]);
  say(2, "1", ["able"]);
  say(0, "2", ["shining", "full of light"]);
  say(1, "2", ["lit"]);
  say(0, "3", ["sunny", "clear", "light"]);
  saveResponse(f.db, anns[1], f.project.id, refs["3"], { kind: "NAME", substitutes: [], multiword: false, phrase: "" }, { expectedRevision: 0 });
  return { ...f, anns, judges };
}

describe("judgement rounds", () => {
  it("samples the §5.1 items, pools candidates with controls, and nobody but judges may label", () => {
    const f = fixture();
    const round = createRound(f.db, f.coord, f.project.id, { name: "post hoc", sampleSize: 10, seed: 5, sources: ["annotators"], controls: true });
    expect(round.items).toBe(1);
    const res = roundResults(f.db, f.coord, round.id);
    expect(res.candidates.map((c) => [c.text, c.sources])).toEqual([
      ["clever", ["annotators"]],
      ["smart", ["annotators"]],
      ["able", ["annotators"]],
      ["bright", ["control:target"]],
    ]);
    expect(() => nextJudgeItem(f.db, f.judges[0], round.id)).toThrow(AuthError);
    expect(() => setJudges(f.db, f.judges[0], round.id, [f.judges[0].userId])).toThrow(AuthError);
    expect(() => createRound(f.db, f.coord, f.project.id, { sampleSize: 0 })).toThrow(InputError);
  });

  it("judges label in their own order, never see sources; results follow the labels given", () => {
    const f = fixture();
    const round = createRound(f.db, f.coord, f.project.id, { sampleSize: 10, seed: 5, sources: ["annotators"] });
    setJudges(f.db, f.coord, round.id, f.judges.map((j) => j.userId));
    const given: Record<string, string[]> = {};
    const plan: Record<string, string[]> = { clever: ["good", "good", "bad"], smart: ["good", "reasonable", "bad"], able: ["bad", "bad", "reasonable"] };
    f.judges.forEach((j, k) => {
      const item = nextJudgeItem(f.db, j, round.id)!;
      expect(item.head).toBe("bright");
      expect(JSON.stringify(item)).not.toContain("annotators");
      expect(item.candidates.map((c) => c.text).sort()).toEqual(["able", "clever", "smart"]);
      for (const c of item.candidates) {
        saveLabel(f.db, j, round.id, c.id, plan[c.text][k]);
        (given[c.text] ??= []).push(plan[c.text][k]);
      }
      expect(nextJudgeItem(f.db, j, round.id)).toBeNull();
    });
    expect(() => saveLabel(f.db, f.judges[0], round.id, 1, "great")).toThrow(InputError);
    const res = roundResults(f.db, f.coord, round.id);
    const expected = table8(Object.entries(given).map(([, ls]) => ({ sources: ["annotators"], verdict: verdict(ls as never) })));
    expect(res.table8).toEqual(expected);
    expect(res.table8[0]).toMatchObject({ total: 3, good: { count: 1 }, reasonable: { count: 1 }, bad: { count: 1 } });
    expect(res.alpha.nominal).not.toBeNull();
    // the extended gold adds nothing new here (clever is already there) but keeps the line
    expect(extendedGold(f.db, f.coord, round.id)).toContain("bright.a 1 :: clever 2;");
    // Through a URL naming another project (the download routes pass it), the round is not found.
    expect(() => swordsExport(f.db, f.coord, round.id, round.projectId + 1000)).toThrow(NotFoundError);
    expect(() => extendedGold(f.db, f.coord, round.id, round.projectId + 1000)).toThrow(NotFoundError);
    expect(extendedGold(f.db, f.coord, round.id, round.projectId)).toContain("bright.a 1 :: clever 2;");
    const swords = swordsExport(f.db, f.coord, round.id);
    expect(Object.keys(swords.contexts)).toHaveLength(1);
    const target = Object.values(swords.targets)[0];
    expect(target).toMatchObject({ target: "bright", offset: 2, pos: "ADJ" });
    const clever = Object.entries(swords.substitutes).find(([, s]) => s.substitute === "clever")![0];
    expect(swords.substitute_labels[clever]).toEqual(["TRUE", "TRUE", "FALSE"]);
    // eval.py's ids (its loader asserts each), as the Datasets export writes them.
    const sha1 = (t: string) => createHash("sha1").update(t, "utf8").digest("hex");
    expect(swordsLoaderCheck(JSON.stringify(swords), "round.json", sha1)).toEqual([]);
    expect(clever).toBe(`s:${sha1(`{"substitute": "clever", "target_id": "${Object.keys(swords.targets)[0]}"}`)}`);
  });

  it("a closed round takes no labels and leaves judges' lists; reopened, it takes them again; judges can be changed", () => {
    const f = fixture();
    const round = createRound(f.db, f.coord, f.project.id, { name: "r", sampleSize: 10, seed: 5, sources: ["annotators"], judges: [f.judges[0].userId] });
    const item = nextJudgeItem(f.db, f.judges[0], round.id)!;
    saveLabel(f.db, f.judges[0], round.id, item.candidates[0].id, "good");
    expect(setRoundState(f.db, f.coord, round.id, "closed").state).toBe("closed");
    expect(() => saveLabel(f.db, f.judges[0], round.id, item.candidates[1].id, "bad")).toThrow(/closed/);
    expect(() => nextJudgeItem(f.db, f.judges[0], round.id)).toThrow(/closed/);
    expect(myRounds(f.db, f.judges[0])).toEqual([]);
    // the label given before closing is kept and counted
    expect(roundResults(f.db, f.coord, round.id).round.labels).toBe(1);
    expect(() => setRoundState(f.db, f.coord, round.id, "archived")).toThrow(InputError);
    expect(() => setRoundState(f.db, f.judges[0], round.id, "open")).toThrow(AuthError);
    expect(() => setRoundState(f.db, f.coord, round.id, "open", round.projectId + 1000)).toThrow(NotFoundError);
    setRoundState(f.db, f.coord, round.id, "open");
    saveLabel(f.db, f.judges[0], round.id, item.candidates[1].id, "bad");
    // judges replaced: the old one is out, the new one in; labels stay
    const changed = setJudges(f.db, f.coord, round.id, [f.judges[1].userId], round.projectId);
    expect(changed.judges.map((j) => j.name)).toEqual(["judge2"]);
    expect(() => nextJudgeItem(f.db, f.judges[0], round.id)).toThrow(AuthError);
    expect(nextJudgeItem(f.db, f.judges[1], round.id)).not.toBeNull();
    expect(roundResults(f.db, f.coord, round.id).round.labels).toBe(2);
    expect(() => setJudges(f.db, f.coord, round.id, [Number.NaN])).toThrow(InputError);
  });

  it("escalates a candidate any judge called good up to the cap, and keeps annotators off their own items", () => {
    const f = fixture();
    const round = createRound(f.db, f.coord, f.project.id, { sampleSize: 10, seed: 1, sources: ["annotators"], judgesPerCandidate: 1, escalationCap: 2 });
    setJudges(f.db, f.coord, round.id, [f.judges[0].userId, f.judges[1].userId, f.anns[0].userId]);
    expect(nextJudgeItem(f.db, f.anns[0], round.id)).toBeNull(); // annotated instance 1 itself
    const first = nextJudgeItem(f.db, f.judges[0], round.id)!;
    for (const c of first.candidates) saveLabel(f.db, f.judges[0], round.id, c.id, c.text === "clever" ? "good" : "bad");
    const second = nextJudgeItem(f.db, f.judges[1], round.id)!;
    expect(second.candidates.map((c) => c.text)).toEqual(["clever"]);
  });

  it("pools a stored run with the annotators (both tags kept); the extended gold gains what judges called good", () => {
    const f = fixture();
    const run = uploadRun(f.db, f.coord, f.project.id, { fileName: "sysA.best", text: "bright.a 1 :: smart\nbright.a 2 :: vivid\n", type: "best", name: "sysA" }).run;
    uploadRun(f.db, f.coord, f.project.id, { fileName: "sysA.oot", text: "bright.a 1 ::: brainy;smart;clever\n", type: "oot", name: "sysB" });
    const runs = f.db.$client.prepare("select id, name from system_runs").all() as { id: number; name: string }[];
    const round = createRound(f.db, f.coord, f.project.id, {
      sampleSize: 5,
      seed: 2,
      sources: ["annotators", ...runs.map((r) => `run:${r.id}`)],
      judges: f.judges.map((j) => j.userId),
    });
    expect(run.name).toBe("sysA");
    const res = roundResults(f.db, f.coord, round.id);
    expect(Object.fromEntries(res.candidates.map((c) => [c.text, c.sources]))).toEqual({
      clever: ["annotators", "run:sysB"],
      smart: ["annotators", "run:sysA", "run:sysB"],
      able: ["annotators"],
      brainy: ["run:sysB"],
    });
    for (const j of f.judges) {
      const item = nextJudgeItem(f.db, j, round.id)!;
      for (const c of item.candidates) saveLabel(f.db, j, round.id, c.id, c.text === "brainy" ? "good" : "bad");
    }
    const rows = roundResults(f.db, f.coord, round.id).table8;
    expect(rows.find((r) => r.source === "run:sysB")).toMatchObject({ total: 3, good: { count: 1 }, bad: { count: 2 } });
    expect(rows.find((r) => r.source === "annotators")).toMatchObject({ total: 3, good: { count: 0 }, bad: { count: 3 } });
    expect(extendedGold(f.db, f.coord, round.id).split("\n")[0]).toBe("bright.a 1 :: brainy 3;clever 2;able 1;smart 1;");
  });

  it("takes the WordNet baseline's oot candidates as a source", () => {
    const f = fixture();
    const round = createRound(f.db, f.coord, f.project.id, { selection: "any", sampleSize: 5, seed: 3, sources: ["wordnet"] });
    const res = roundResults(f.db, f.coord, round.id);
    expect(res.candidates.length).toBeGreaterThan(0);
    for (const c of res.candidates) expect(c.sources).toEqual(["wordnet"]);
    expect(res.candidates.map((c) => c.text)).not.toContain("bright");
  });

  it("the round's SWORDS export round-trips through the SWORDS import: every target, substitute and label count kept", () => {
    const f = fixture();
    const round = createRound(f.db, f.coord, f.project.id, { sampleSize: 10, seed: 5, sources: ["annotators"], controls: true, judges: f.judges.map((j) => j.userId) });
    const labels = ["good", "reasonable", "bad"] as const;
    f.judges.forEach((j, k) => {
      const item = nextJudgeItem(f.db, j, round.id)!;
      item.candidates.forEach((c, i) => saveLabel(f.db, j, round.id, c.id, labels[(i + k) % 3]));
    });
    const exported = swordsExport(f.db, f.coord, round.id);
    const report = importDatasetAsNewProject(f.db, f.coord, "judged", { format: "swords", fileName: "round.swords.json", bytes: enc(JSON.stringify(exported)) });
    expect(report).toBeTruthy();
    const pid = (f.db.$client.prepare("select id from projects where name = 'judged'").get() as { id: number }).id;
    const back = JSON.parse(exportDataset(f.db, f.coord, pid, "swords").text) as typeof exported;
    // By content: the context text, the target and offset, each substitute with its labels in order.
    const view = (d: typeof exported) =>
      Object.entries(d.substitutes)
        .map(([sid, s]) => {
          const t = d.targets[s.target_id];
          return JSON.stringify([d.contexts[t.context_id].context, t.target, t.offset, s.substitute, d.substitute_labels[sid]]);
        })
        .sort();
    expect(view(back)).toEqual(view(exported));
    expect(view(exported)).toHaveLength(roundResults(f.db, f.coord, round.id).candidates.length);
    // Each label count survives: TRUE for good, FALSE for bad, UNSURE for reasonable.
    const labelCounts = (d: typeof exported) => Object.values(d.substitute_labels).flat().sort().join(",");
    expect(labelCounts(back)).toBe(labelCounts(exported));
  });
});
