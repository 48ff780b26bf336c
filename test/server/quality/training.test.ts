import { afterEach, describe, expect, it, vi } from "vitest";
import { responses } from "../../../db/schema";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError } from "../../../lib/server/kernel/errors";
import { projectAgreement, projectGold } from "../../../lib/server/gold/gold";
import { exportAdjudicatedResponses, goldPageData } from "../../../lib/server/gold/gold-review";
import { projectProgress } from "../../../lib/server/annotate/progress";
import { saveResponse, workspace } from "../../../lib/server/annotate/responses";
import {
  answerTraining,
  checkReport,
  importKnownAnswers,
  knownAnswerItems,
  knownAnswersFromGold,
  lexeltNotes,
  retryTraining,
  setLexeltNote,
  setKnownAnswer,
  setQualitySettings,
  trainingView,
} from "../../../lib/server/quality/training";
import { judgeAnswer, parseAcceptedList, trainingScore } from "../../../lib/lexsub/known-answers";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture } from "../../support/db";

const xml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="quick.a">
<instance id="t1"><context>a <head>quick</head> lunch</context></instance>
<instance id="t2"><context>a <head>quick</head> glance</context></instance>
<instance id="t3"><context>a <head>quick</head> mind</context></instance>
<instance id="k1"><context>a <head>quick</head> reply</context></instance>
<instance id="r1"><context>the <head>quick</head> train</context></instance>
</lexelt>
<lexelt item="jump.v"><instance id="j1"><context>cats <head>jump</head> high</context></instance></lexelt>
</corpus>
`;

function setup() {
  const f = projectFixture();
  const { db, coord, project } = f;
  importLexeltXml(db, coord, project.id, { fileName: "q.xml", bytes: new TextEncoder().encode(xml) });
  const ref = (id: string) => (db.$client.prepare("select id from instances where instance_id = ?").get(id) as { id: number }).id;
  return { ...f, ref };
}

describe("the known-answer measure", () => {
  const lemma = (f: string) => f.replace(/s$/, "");
  it("matches on a shared lemma, case and spacing aside, and lists what matched", () => {
    expect(judgeAnswer(["Fasts", "brisk"], ["fast", "rapid"], "a", lemma)).toEqual({ matched: true, matchedSubstitutes: ["Fasts"] });
    expect(judgeAnswer(["slow"], ["fast"], "a", lemma)).toEqual({ matched: false, matchedSubstitutes: [] });
    expect(judgeAnswer(["NIL"], ["nil"], "a", lemma).matched).toBe(true);
    expect(judgeAnswer(["NAME"], ["NIL", "fast"], "a", lemma).matched).toBe(false);
    expect(judgeAnswer(["NAME"], ["name"], "a", lemma)).toEqual({ matched: true, matchedSubstitutes: ["NAME"] });
  });
  it("scores whole percents, rounded down", () => {
    expect(trainingScore(2, 3)).toBe(66);
    expect(trainingScore(0, 0)).toBe(0);
    expect(parseAcceptedList(" fast; Fast ;;rapid ")).toEqual(["fast", "rapid"]);
  });
});

describe("training", () => {
  it("gates real instances until an attempt reaches the threshold, then releases them", () => {
    const { db, coord, ann, project, ref } = setup();
    importKnownAnswers(db, coord, project.id, { role: "training", fileName: "t.tsv", text: "t1\tfast;rapid\nt2\tbrief;short\nt3\tsharp;clever\n" });
    setQualitySettings(db, coord, project.id, { trainingRequired: true, trainingThreshold: 60, speedThresholdSeconds: 4 });
    expect(() => workspace(db, ann, project.id)).toThrow(AuthError);
    expect(() => saveResponse(db, ann, project.id, ref("r1"), { kind: "NIL", substitutes: [], multiword: false, phrase: "" }, { expectedRevision: 0 })).toThrow(AuthError);
    // The coordinator is never gated.
    expect(() => workspace(db, coord, project.id)).not.toThrow();

    let v = trainingView(db, ann, project.id);
    expect(v.total).toBe(3);
    // Attempt 1: one of three matches -> 33 % < 60 %.
    const fb = answerTraining(db, ann, project.id, v.next!.ref, ["rapid"]);
    expect(fb.matched).toBe(v.next!.ref === ref("t1"));
    for (const id of ["t2", "t3"]) if (!trainingView(db, ann, project.id).answered.some((a) => a.ref === ref(id))) answerTraining(db, ann, project.id, ref(id), ["slow"]);
    v = trainingView(db, ann, project.id);
    expect(v.score).toBe(33);
    expect(v.passed).toBe(false);
    expect(() => workspace(db, ann, project.id)).toThrow(AuthError);
    expect(() => answerTraining(db, ann, project.id, ref("t1"), ["fast"])).toThrow(InputError);

    // Attempt 2, fresh order: two of three (66 %) passes.
    expect(retryTraining(db, ann, project.id, "fresh")).toEqual({ attempt: 2 });
    answerTraining(db, ann, project.id, ref("t1"), ["quick", "fast"]);
    answerTraining(db, ann, project.id, ref("t2"), ["short"]);
    const last = answerTraining(db, ann, project.id, ref("t3"), ["dull"]);
    expect(last).toMatchObject({ matched: false, score: 66, passed: true, accepted: ["sharp", "clever"] });
    expect(workspace(db, ann, project.id).instance).not.toBeNull();

    // Training answers never reach responses (so never gold or agreement).
    expect(db.select().from(responses).all()).toHaveLength(0);
    const report = checkReport(db, coord, project.id);
    expect(report).toEqual([expect.objectContaining({ name: "ann", trainingAttempts: 2, trainingBest: 66, trainingPassed: true, seen: 0, percent: null })]);
  });

  it("takes the workspace's fields: NAME / NIL match an item whose accepted answers include them; a multiword phrase is given back, not judged", () => {
    const { db, coord, ann, project, ref } = setup();
    importKnownAnswers(db, coord, project.id, { role: "training", fileName: "t.tsv", text: "t1\tNAME\nt2\tbrief;short\nt3\tNIL;sharp\n" });
    const name = answerTraining(db, ann, project.id, ref("t1"), { kind: "NAME", substitutes: ["ignored"], multiword: "  quick   lunch " });
    expect(name).toMatchObject({ answer: ["NAME"], matched: true, matchedSubstitutes: ["NAME"], multiword: "quick lunch", score: null });
    // NIL against an item whose accepted answers are substitutes only: no match.
    expect(answerTraining(db, ann, project.id, ref("t2"), { kind: "NIL", substitutes: [], multiword: null })).toMatchObject({ answer: ["NIL"], matched: false, multiword: null });
    // Substitutes from the fields, blanks dropped; the last item scores the attempt.
    const last = answerTraining(db, ann, project.id, ref("t3"), { kind: "substitutes", substitutes: ["", "sharp", " "], multiword: null });
    expect(last).toMatchObject({ answer: ["sharp"], matched: true, score: 66 });
    // What was judged is what the feedback lists later (the phrase was not stored).
    expect(trainingView(db, ann, project.id).answered.map((a) => [a.answer, a.matched])).toEqual([
      [["NAME"], true],
      [["NIL"], false],
      [["sharp"], true],
    ]);
  });

  it("refuses fields that are neither substitutes nor NAME / NIL, and empty substitutes", () => {
    const { db, coord, ann, project, ref } = setup();
    importKnownAnswers(db, coord, project.id, { role: "training", fileName: "t.tsv", text: "t1\tfast\n" });
    expect(() => answerTraining(db, ann, project.id, ref("t1"), { kind: "MAYBE", substitutes: [] })).toThrow(InputError);
    expect(() => answerTraining(db, ann, project.id, ref("t1"), { kind: "substitutes", substitutes: [" ", ""], multiword: null })).toThrow(/at least one substitute/);
  });

  it("refuses a bad upload by line and writes nothing", () => {
    const { db, coord, project } = setup();
    try {
      importKnownAnswers(db, coord, project.id, { role: "training", fileName: "t.tsv", text: "t1\tfast\nzz9\tfoo\nt2\t ; \n" });
      throw new Error("accepted");
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).details).toEqual(['t.tsv line 2: no instance "zz9" in this project.', 't.tsv line 3: no accepted substitute for "t2".']);
    }
    expect(knownAnswerItems(db, coord, project.id)).toEqual([]);
  });
});

describe("attention checks", () => {
  it("are judged per annotator and left out of gold and agreement", () => {
    const { db, coord, ann, project, ref } = setup();
    const bea = actorFor(db, "bea", "annotator");
    addMember(db, coord, project.id, "bea");
    for (const [who, subs] of [
      [ann, ["speedy"]],
      [bea, ["slow"]],
    ] as const) {
      saveResponse(db, who, project.id, ref("k1"), { kind: "substitutes", substitutes: [...subs], multiword: false, phrase: "" }, { expectedRevision: 0 });
      saveResponse(db, who, project.id, ref("r1"), { kind: "substitutes", substitutes: ["fast"], multiword: false, phrase: "" }, { expectedRevision: 0 });
    }
    // Before marking, k1 is in the gold; "use the current gold" takes its substitutes.
    expect(projectGold(db, coord, project.id).result.items.find((i) => i.instanceId === "k1")!.excluded).toBeNull();
    knownAnswersFromGold(db, coord, project.id, { role: "check", instanceIds: "k1" });
    setKnownAnswer(db, coord, project.id, { instanceId: "k1", role: "check", accepted: "speedy;swift" });
    const gold = projectGold(db, coord, project.id);
    expect(gold.result.items.find((i) => i.instanceId === "k1")!.excluded).toBe("attention check");
    expect(gold.gold).not.toContain(" k1 ");
    expect(gold.gold).toContain("r1");
    expect(projectAgreement(db, coord, project.id).gold.items.filter((i) => i.excluded === null && i.responses.length > 0).map((i) => i.instanceId)).toEqual(["r1"]);
    const report = checkReport(db, coord, project.id);
    expect(report.map((r) => [r.name, r.seen, r.passed, r.percent])).toEqual([
      ["ann", 1, 1, 100],
      ["bea", 1, 0, 0],
    ]);
  });
});

describe("answers given after the known answers were shown", () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  it("are left out of gold and agreement and reported; answers given blind, and by those who never trained, count", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    let now = Date.UTC(2026, 0, 5, 9);
    const tick = () => vi.setSystemTime((now += 1000));
    tick();
    const { db, coord, ann, project, ref } = setup();
    const bea = actorFor(db, "bea", "annotator");
    addMember(db, coord, project.id, "bea");
    const save = (who: typeof ann, id: string, subs: string[]) => {
      tick();
      saveResponse(db, who, project.id, ref(id), { kind: "substitutes", substitutes: subs, multiword: false, phrase: "" }, { expectedRevision: 0 });
    };
    // ann answers t1 blind, before it is a training item.
    save(ann, "t1", ["speedy"]);
    tick();
    importKnownAnswers(db, coord, project.id, { role: "training", fileName: "t.tsv", text: "t1\tfast\nt2\tbrief\n" });
    // The project keeps its training items in the queue.
    setQualitySettings(db, coord, project.id, { trainingRequired: false, trainingInQueue: true, trainingThreshold: 60, speedThresholdSeconds: 4 });
    for (const id of ["t1", "t2"]) {
      tick();
      answerTraining(db, ann, project.id, ref(id), ["fast"]);
    }
    // Met again in the queue after the training: ann's t2 has seen "brief"; bea never trained.
    save(ann, "t2", ["brief"]);
    save(bea, "t2", ["short"]);
    save(bea, "t1", ["swift"]);

    const gold = projectGold(db, coord, project.id);
    const item = (id: string) => gold.result.items.find((i) => i.instanceId === id)!;
    expect(item("t1").responses.map((r) => r.annotator).sort()).toEqual(["ann", "bea"]);
    expect(item("t2").responses.map((r) => r.annotator)).toEqual(["bea"]);
    expect(gold.gold).not.toContain("brief");
    expect(projectAgreement(db, coord, project.id).gold.items.find((i) => i.instanceId === "t2")!.responses.map((r) => r.annotator)).toEqual(["bea"]);
    expect(goldPageData(db, coord, project.id).afterKnownAnswers).toBe(1);
    // The responses export keeps the answer as given, marked.
    const line = exportAdjudicatedResponses(db, coord, project.id)
      .split("\n")
      .find((l) => l.includes("t2") && l.includes("ann"))!;
    expect(line).toContain("brief");
    expect(line).toContain("LEFT OUT");
    expect(line).toContain("answered after its known answers were shown in the training");
  });
});

describe("speed check", () => {
  it("flags an annotator whose median time per instance is under the project's threshold", () => {
    const { db, coord, ann, project, ref } = setup();
    const bea = actorFor(db, "bea", "annotator");
    addMember(db, coord, project.id, "bea");
    const at = new Date(1000);
    const put = (userId: number, id: string, activeMs: number) =>
      db.insert(responses).values({ projectId: project.id, instanceRef: ref(id), userId, kind: "NIL", activeMs, updatedAt: at }).run();
    // ann: 1 s, 2 s, 9 s -> median 2 s; bea: 3 s, 5 s -> median 4 s.
    put(ann.userId, "t1", 1000);
    put(ann.userId, "t2", 2000);
    put(ann.userId, "t3", 9000);
    put(bea.userId, "t1", 3000);
    put(bea.userId, "t2", 5000);
    const flags = () => Object.fromEntries(projectProgress(db, coord, project.id).annotators.map((a) => [a.name, a.tooFast]));
    expect(flags()).toEqual({ ann: true, bea: false });
    setQualitySettings(db, coord, project.id, { trainingRequired: false, trainingThreshold: 60, speedThresholdSeconds: 4.5 });
    expect(flags()).toEqual({ ann: true, bea: true });
    expect(projectProgress(db, coord, project.id).speedThresholdSeconds).toBe(4.5);
  });
});

describe("per-lexelt notes on the Training tab", () => {
  it("gives the lexelt asked for, a short list (noted first, or matching a search) and the counts, cut in SQL", () => {
    const { db, coord, project } = projectFixture();
    const items = ["bank.n", "bright.a", "Brisk.a", "calm.a", "bright_side.n"];
    const xml = items.map((item, k) => `<lexelt item="${item}"><instance id="n${k}"><context>a <head>w</head> b</context></instance></lexelt>`);
    importLexeltXml(db, coord, project.id, { fileName: "n.xml", bytes: new TextEncoder().encode(`<?xml version="1.0"?>\n<corpus lang="english">\n${xml.join("\n")}\n</corpus>\n`) });
    const id = (item: string) => (db.$client.prepare("select id from lexelts where item = ?").get(item) as { id: number }).id;
    setLexeltNote(db, coord, project.id, id("calm.a"), "Think of *weather*.");
    setLexeltNote(db, coord, project.id, id("bright.a"), "   ");
    setLexeltNote(db, coord, project.id, id("Brisk.a"), "Pace, not cold.");
    const all = lexeltNotes(db, coord, project.id);
    expect(all.chosen).toEqual({ id: id("bank.n"), item: "bank.n", note: "" });
    // Those with a note first (a blank note is none), each group in corpus order.
    expect(all.listed.map((l) => [l.item, l.hasNote])).toEqual([
      ["Brisk.a", true],
      ["calm.a", true],
      ["bank.n", false],
      ["bright.a", false],
      ["bright_side.n", false],
    ]);
    expect([all.total, all.withNote, all.matched]).toEqual([5, 2, 5]);
    const found = lexeltNotes(db, coord, project.id, { find: "BRI", limit: 2, lexelt: id("calm.a") });
    expect(found.listed.map((l) => l.item)).toEqual(["bright.a", "Brisk.a"]);
    expect(found.matched).toBe(3);
    expect(found.chosen).toEqual({ id: id("calm.a"), item: "calm.a", note: "Think of *weather*." });
    expect(lexeltNotes(db, coord, project.id, { find: "_" }).listed.map((l) => l.item)).toEqual(["bright_side.n"]);
    // A lexelt of another project is not given: the first is.
    expect(lexeltNotes(db, coord, project.id, { lexelt: 99999 }).chosen?.item).toBe("bank.n");
    expect(() => lexeltNotes(db, actorFor(db, "stranger", "annotator"), project.id)).toThrow(AuthError);
  });
});
