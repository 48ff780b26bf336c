import { describe, expect, it } from "vitest";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { flaggedInstanceIds, flagsTsv, instanceNotes, listFlags, returnInstance, returnLog, saveFlag, withdrawReturn } from "../../../lib/server/annotate/flags";
import { goldPageData, goldReviewCsv, reviewLogPage } from "../../../lib/server/gold/gold-review";
import { exportResponses, importResponses } from "../../../lib/server/annotate/response-import";
import { annotatorProjects, type ResponseInput, saveResponse, workspace } from "../../../lib/server/annotate/responses";
import { setAssignments } from "../../../lib/server/annotate/assignments";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture } from "../../support/db";

// Sentences written for these tests.
const XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="calm.a">
<instance id="c1"><context>The sea was <head>calm</head> at dawn .</context></instance>
<instance id="c2"><context>He stayed <head>calm</head> in the storm .</context></instance>
<instance id="c3"><context>A <head>calm</head> voice answered .</context></instance>
</lexelt>
<lexelt item="sharp.a">
<instance id="s1"><context>The knife is <head>sharp</head> .</context></instance>
<instance id="s2"><context>Turn <head>sharp</head> left at the mill .</context></instance>
</lexelt>
</corpus>
`;

function fixture() {
  const f = projectFixture();
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "t.xml", bytes: new TextEncoder().encode(XML) });
  const ann2 = actorFor(f.db, "ann2", "annotator");
  addMember(f.db, f.coord, f.project.id, "ann2");
  const refs = Object.fromEntries(
    (f.db.$client.prepare("select id, instance_id from instances order by position").all() as { id: number; instance_id: string }[]).map((r) => [
      r.instance_id,
      r.id,
    ]),
  ) as Record<string, number>;
  const count = (t: string) => (f.db.$client.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n;
  return { ...f, ann2, refs, count };
}

const subs = (...s: string[]): ResponseInput => ({ kind: "substitutes", substitutes: s, multiword: false });

describe("flags and notes", () => {
  it("saves a flag and note without an answer, lists it for the coordinator, and clears it", () => {
    const f = fixture();
    expect(saveFlag(f.db, f.ann, f.project.id, f.refs.c2, { flag: "typo", note: "  'storm' is misspelt?  " })).toEqual({ flag: "typo", note: "'storm' is misspelt?" });
    expect(f.count("responses")).toBe(0);
    const w = workspace(f.db, f.ann, f.project.id, f.refs.c2);
    expect(w.flag).toEqual({ flag: "typo", note: "'storm' is misspelt?" });
    // Nobody else sees it in their workspace.
    expect(workspace(f.db, f.ann2, f.project.id, f.refs.c2).flag).toEqual({ flag: null, note: "" });

    const page = listFlags(f.db, f.coord, f.project.id);
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ annotator: "ann", lexelt: "calm.a", instanceId: "c2", flag: "typo", note: "'storm' is misspelt?", answer: null });
    expect(flaggedInstanceIds(f.db, f.coord, f.project.id)).toEqual(["c2"]);
    expect(instanceNotes(f.db, f.coord, f.project.id, ["c1", "c2"]).get("c2")?.get("ann")).toEqual({ flag: "typo", note: "'storm' is misspelt?", returned: null });

    saveFlag(f.db, f.ann, f.project.id, f.refs.c2, { flag: null, note: "" });
    expect(listFlags(f.db, f.coord, f.project.id).total).toBe(0);
    expect(flaggedInstanceIds(f.db, f.coord, f.project.id)).toEqual([]);
  });

  it("saves the flag with the response, leaves it when the save does not name it, and exports it", () => {
    const f = fixture();
    saveResponse(f.db, f.ann, f.project.id, f.refs.s2, { ...subs("abrupt"), flag: "unsure", note: "direction, not edge" }, { expectedRevision: 0 });
    saveResponse(f.db, f.ann, f.project.id, f.refs.s2, subs("abrupt", "sudden"), { expectedRevision: 1 });
    expect(workspace(f.db, f.ann, f.project.id, f.refs.s2).flag).toEqual({ flag: "unsure", note: "direction, not edge" });
    saveResponse(f.db, f.ann2, f.project.id, f.refs.s1, { kind: "NIL", substitutes: [], multiword: false, flag: "name", note: "" }, { expectedRevision: 0 });

    const rows = listFlags(f.db, f.coord, f.project.id).rows;
    expect(rows.map((r) => [r.annotator, r.instanceId, r.flag, r.answer])).toEqual(
      expect.arrayContaining([
        ["ann", "s2", "unsure", "abrupt;sudden"],
        ["ann2", "s1", "name", "NIL"],
      ]),
    );
    // The list to show (joined by commas on the page), beside the TSV's form.
    expect(rows.map((r) => [r.instanceId, r.answers])).toEqual(expect.arrayContaining([["s2", ["abrupt", "sudden"]], ["s1", ["NIL"]]]));
    // Filters: by kind, by note, by annotator, by lexelt.
    expect(listFlags(f.db, f.coord, f.project.id, { flag: "name" }).rows.map((r) => r.instanceId)).toEqual(["s1"]);
    expect(listFlags(f.db, f.coord, f.project.id, { flag: "note" }).rows.map((r) => r.instanceId)).toEqual(["s2"]);
    expect(listFlags(f.db, f.coord, f.project.id, { annotator: "ann2" }).rows.map((r) => r.instanceId)).toEqual(["s1"]);
    expect(listFlags(f.db, f.coord, f.project.id, { lexelt: "calm.a" }).total).toBe(0);
    expect(() => listFlags(f.db, f.coord, f.project.id, { flag: "bogus" })).toThrow(InputError);

    const tsv = flagsTsv(f.db, f.coord, f.project.id).trimEnd().split("\n");
    expect(tsv[0]).toBe("annotator\tlexelt\tinstance\tflag\tnote\tanswer\tupdated");
    expect(tsv.slice(1).map((l) => l.split("\t").slice(0, 6))).toEqual([
      ["ann2", "sharp.a", "s1", "name", "", "NIL"],
      ["ann", "sharp.a", "s2", "unsure", "direction, not edge", "abrupt;sudden"],
    ]);
    expect(exportResponses(f.db, f.coord, f.project.id).split("\n")[0]).toBe("annotator\tlexelt\tinstance\tanswer\tmultiword");
    const exported = exportResponses(f.db, f.coord, f.project.id, { flags: true }).trimEnd().split("\n");
    expect(exported[0]).toBe("annotator\tlexelt\tinstance\tanswer\tmultiword\tflag\tnote");
    expect(exported).toContain("ann\tsharp.a\ts2\tabrupt;sudden\t\tunsure\tdirection, not edge");
    // The import reads the export with flags back: nothing changes.
    expect(importResponses(f.db, f.coord, f.project.id, { fileName: "back.tsv", text: exported.join("\n") })).toMatchObject({ added: 0, updated: 0 });
  });

  it("refuses a bad flag, a long note, and an instance outside the annotator's lexelts, writing nothing", () => {
    const f = fixture();
    expect(() => saveFlag(f.db, f.ann, f.project.id, f.refs.c1, { flag: "wrong", note: "" })).toThrow(InputError);
    expect(() => saveFlag(f.db, f.ann, f.project.id, f.refs.c1, { flag: null, note: "x".repeat(1001) })).toThrow(/at most 1000/);
    expect(() => saveResponse(f.db, f.ann, f.project.id, f.refs.c1, { ...subs("still"), flag: "nope" }, { expectedRevision: 0 })).toThrow(InputError);
    const lexelt = f.db.$client.prepare("select id from lexelts where item = 'sharp.a'").get() as { id: number };
    setAssignments(f.db, f.coord, f.project.id, (f.ann as { userId: number }).userId, [lexelt.id]);
    expect(() => saveFlag(f.db, f.ann, f.project.id, f.refs.c1, { flag: "unsure", note: "" })).toThrow(AuthError);
    expect(() => saveFlag(f.db, f.ann, f.project.id, 99999, { flag: "unsure", note: "" })).toThrow(NotFoundError);
    expect(f.count("instance_flags")).toBe(0);
    expect(f.count("responses")).toBe(0);
  });
});

describe("returning an instance to its annotator", () => {
  it("puts it first in the annotator's queue with the comment, until they save it again (logged)", () => {
    const f = fixture();
    for (const id of ["c1", "c2", "c3"]) saveResponse(f.db, f.ann, f.project.id, f.refs[id], subs("quiet"), { expectedRevision: 0 });
    saveResponse(f.db, f.ann2, f.project.id, f.refs.c2, subs("composed"), { expectedRevision: 0 });
    // Resume goes on after the last save: the first unanswered (s1).
    expect(workspace(f.db, f.ann, f.project.id).instance?.instanceId).toBe("s1");

    returnInstance(f.db, f.coord, f.project.id, { instanceId: "c2", annotator: "ann", comment: "In a storm 'quiet' does not fit: a person stays composed." });
    const w = workspace(f.db, f.ann, f.project.id);
    expect(w.instance?.instanceId).toBe("c2");
    expect(w.returnComment).toBe("In a storm 'quiet' does not fit: a person stays composed.");
    expect(w.returned).toEqual({ count: 1, firstRef: f.refs.c2 });
    expect(annotatorProjects(f.db, f.ann)[0].returned).toBe(1);
    // Only to that annotator.
    expect(workspace(f.db, f.ann2, f.project.id, f.refs.c2).returnComment).toBeNull();
    expect(instanceNotes(f.db, f.coord, f.project.id, ["c2"]).get("c2")?.get("ann")?.returned).toMatch(/composed/);

    const r = saveResponse(f.db, f.ann, f.project.id, f.refs.c2, subs("composed", "cool"), { expectedRevision: 1 });
    expect(r.returned).toEqual({ count: 0, firstRef: null });
    expect(workspace(f.db, f.ann, f.project.id, f.refs.c2).returnComment).toBeNull();
    // Then on where the annotator was: the first unanswered after the instance saved last.
    expect(workspace(f.db, f.ann, f.project.id).instance?.instanceId).toBe("s1");
    const log = returnLog(f.db, f.coord, f.project.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ lexelt: "calm.a", instanceId: "c2", annotator: "ann", by: "coord", resolvedRevision: 2 });
    expect(log[0].resolvedAt).toBeInstanceOf(Date);
  });

  it("after one returned instance is saved, goes to the next returned one", () => {
    const f = fixture();
    for (const id of ["c1", "c2", "s1"]) saveResponse(f.db, f.ann, f.project.id, f.refs[id], subs("fine"), { expectedRevision: 0 });
    returnInstance(f.db, f.coord, f.project.id, { instanceId: "s1", annotator: "ann", comment: "look again" });
    returnInstance(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "ann", comment: "and this one" });
    expect(workspace(f.db, f.ann, f.project.id).instance?.instanceId).toBe("s1");
    const r = saveResponse(f.db, f.ann, f.project.id, f.refs.s1, subs("keen"), { expectedRevision: 1 });
    expect(r.next).toBe(f.refs.c1);
    expect(r.upcoming[0].returnComment).toBe("and this one");
    expect(r.returned.count).toBe(1);
  });

  it("after the last returned instance is saved again, goes on to the next unanswered one, not its answered neighbour", () => {
    const f = fixture();
    for (const id of ["c1", "c2", "c3"]) saveResponse(f.db, f.ann, f.project.id, f.refs[id], subs("still"), { expectedRevision: 0 });
    returnInstance(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "ann", comment: "look again" });
    const r = saveResponse(f.db, f.ann, f.project.id, f.refs.c1, subs("serene"), { expectedRevision: 1 });
    expect(r.next).toBe(f.refs.s1);
    expect(r.upcoming.map((u) => u.instance.instanceId)).toEqual(["s1", "s2"]);
    // Saving an answered instance that was not returned still goes on in corpus order (a review pass).
    const again = saveResponse(f.db, f.ann, f.project.id, f.refs.c1, subs("placid"), { expectedRevision: 2 });
    expect(again.next).toBe(f.refs.c2);
  });

  it("returning an instance again while open shows the newest comment, counts it once, and keeps both in the log", () => {
    const f = fixture();
    saveResponse(f.db, f.ann, f.project.id, f.refs.c1, subs("still"), { expectedRevision: 0 });
    returnInstance(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "ann", comment: "first thought" });
    returnInstance(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "ann", comment: "second thought" });
    const w = workspace(f.db, f.ann, f.project.id);
    expect(w.returned.count).toBe(1);
    expect(w.returnComment).toBe("second thought");
    const log = returnLog(f.db, f.coord, f.project.id);
    expect(log.map((e) => [e.comment, e.resolvedRevision, e.resolvedAt === null])).toEqual([
      ["second thought", null, true],
      ["first thought", null, false],
    ]);
  });

  it("refuses an empty comment, an annotator without an answer, someone outside the project, and annotators", () => {
    const f = fixture();
    saveResponse(f.db, f.ann, f.project.id, f.refs.c1, subs("still"), { expectedRevision: 0 });
    expect(() => returnInstance(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "ann", comment: "  " })).toThrow(InputError);
    expect(() => returnInstance(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "ann2", comment: "why?" })).toThrow(/nothing to return/);
    actorFor(f.db, "stranger", "annotator");
    expect(() => returnInstance(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "stranger", comment: "why?" })).toThrow(NotFoundError);
    expect(() => returnInstance(f.db, f.coord, f.project.id, { instanceId: "zz", annotator: "ann", comment: "why?" })).toThrow(NotFoundError);
    expect(() => returnInstance(f.db, f.ann, f.project.id, { instanceId: "c1", annotator: "ann", comment: "why?" })).toThrow(AuthError);
    expect(f.count("returned_items")).toBe(0);
  });

  it("the Gold tab's review queue filters by flag: any flag, or one kind", () => {
    const f = fixture();
    saveFlag(f.db, f.ann, f.project.id, f.refs.c2, { flag: "typo", note: "" });
    saveFlag(f.db, f.ann2, f.project.id, f.refs.s1, { flag: "unsure", note: "which sense?" });
    saveFlag(f.db, f.ann2, f.project.id, f.refs.c3, { flag: null, note: "a note, no flag" });
    const ids = (flag: string) => goldPageData(f.db, f.coord, f.project.id, { instances: { flag, pageSize: 50 } }).instancePage.rows.map((r) => r.item.instanceId);
    expect(ids("any")).toEqual(["c2", "s1"]);
    expect(ids("typo")).toEqual(["c2"]);
    expect(ids("unsure")).toEqual(["s1"]);
    expect(ids("name")).toEqual([]);
    expect(ids("")).toEqual(["c1", "c2", "c3", "s1", "s2"]);
    expect(() => ids("loud")).toThrow(InputError);
  });

  it("a return is a decision in the review log, with its annotator and comment", () => {
    const f = fixture();
    saveResponse(f.db, f.ann, f.project.id, f.refs.c1, subs("still"), { expectedRevision: 0 });
    returnInstance(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "ann", comment: "think of the sea" });
    const log = reviewLogPage(f.db, f.coord, f.project.id, 1).rows;
    expect(log[0]).toMatchObject({ kind: "return", target: "c1", decision: "returned with a comment", annotator: "ann", reason: "think of the sea", by: "coord" });
    expect(goldReviewCsv(f.db, f.coord, f.project.id)).toContain("return,c1,returned with a comment,,ann,,think of the sea");
  });

  it("a return can be withdrawn: off the annotator's list, the answer kept, the log says so; only once", () => {
    const f = fixture();
    saveResponse(f.db, f.ann, f.project.id, f.refs.c1, subs("still"), { expectedRevision: 0 });
    returnInstance(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "ann", comment: "think of the sea" });
    expect(annotatorProjects(f.db, f.ann)[0]).toMatchObject({ returned: 1 });
    expect(withdrawReturn(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "ann" })).toEqual({ instanceId: "c1", annotator: "ann" });
    expect(annotatorProjects(f.db, f.ann)[0]).toMatchObject({ returned: 0 });
    expect(workspace(f.db, f.ann, f.project.id, f.refs.c1).response).toMatchObject({ substitutes: ["still"] });
    expect(reviewLogPage(f.db, f.coord, f.project.id, 1).rows[0]).toMatchObject({ kind: "return", decision: "return withdrawn", annotator: "ann", reason: "think of the sea" });
    expect(() => withdrawReturn(f.db, f.coord, f.project.id, { instanceId: "c1", annotator: "ann" })).toThrow(NotFoundError);
    expect(() => withdrawReturn(f.db, f.ann, f.project.id, { instanceId: "c1", annotator: "ann" })).toThrow(AuthError);
  });
});
