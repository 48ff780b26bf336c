/**
 * Training items out of the annotators' queue (projects.training_in_queue off, the default):
 * never met in the queue, not counted in done / total, and every counter the queue reads
 * equal to a recount after the training set or the setting changes (queue.ts syncTrainingQueue).
 */
import { describe, expect, it } from "vitest";
import type { Db } from "../../../db/client";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { projectProgress } from "../../../lib/server/annotate/progress";
import { saveResponse, workspace, workspaceTargets } from "../../../lib/server/annotate/responses";
import { returnInstance } from "../../../lib/server/annotate/flags";
import { importResponses } from "../../../lib/server/annotate/response-import";
import { importKnownAnswers, knownAnswersFromGold, removeKnownAnswer, setKnownAnswer, setQualitySettings } from "../../../lib/server/quality/training";
import { addMember } from "../../../lib/server/people/users";
import type { UserActor } from "../../../lib/server/kernel/actor";
import { actorFor, projectFixture } from "../../support/db";

const xml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="quick.a">
<instance id="q1"><context>a <head>quick</head> lunch</context></instance>
<instance id="q2"><context>a <head>quick</head> glance</context></instance>
<instance id="q3"><context>a <head>quick</head> mind</context></instance>
</lexelt>
<lexelt item="jump.v">
<instance id="j1"><context>cats <head>jump</head> high</context></instance>
<instance id="j2"><context>dogs <head>jump</head> fences</context></instance>
</lexelt>
<lexelt item="calm.a">
<instance id="c1"><context>a <head>calm</head> sea</context></instance>
<instance id="c2"><context>a <head>calm</head> voice</context></instance>
</lexelt>
</corpus>
`;

const answer = (s: string) => ({ kind: "substitutes", substitutes: [s], multiword: false, phrase: "" });

function setup() {
  const f = projectFixture();
  const { db, coord, project } = f;
  importLexeltXml(db, coord, project.id, { fileName: "q.xml", bytes: new TextEncoder().encode(xml) });
  const bea = actorFor(db, "bea", "annotator");
  addMember(db, coord, project.id, "bea");
  const ref = (id: string) => (db.$client.prepare("select id from instances where instance_id = ?").get(id) as { id: number }).id;
  const idOf = (r: number) => (db.$client.prepare("select instance_id as id from instances where id = ?").get(r) as { id: string }).id;
  const settings = (trainingInQueue: boolean) => setQualitySettings(db, coord, project.id, { trainingRequired: false, trainingInQueue, trainingThreshold: 60, speedThresholdSeconds: 4 });
  return { ...f, bea, ref, idOf, settings };
}

/** The annotator's queue walked from its first instance with "next": instance ids and the positions shown. */
function walk(db: Db, who: UserActor, projectId: number, idOf: (r: number) => string): { ids: string[]; positions: number[] } {
  const ids: string[] = [];
  const positions: number[] = [];
  let v = workspace(db, who, projectId);
  let at = v.instance?.ref ?? v.firstRef;
  // Back to the queue's first instance, then forward.
  while (at !== null && (v = workspace(db, who, projectId, at)).prevRef !== null) at = v.prevRef;
  while (at !== null) {
    v = workspace(db, who, projectId, at);
    ids.push(idOf(v.instance!.ref));
    positions.push(v.position);
    at = v.nextRef;
  }
  return { ids, positions };
}

/** Every counter the queue reads, against a recount from the rows. */
function expectConsistent(db: Db, projectId: number) {
  const rows = (sql: string, ...p: unknown[]) => db.$client.prepare(sql).all(...p);
  const keepIn = (db.$client.prepare("select training_in_queue as k from projects where id = ?").get(projectId) as { k: number }).k === 1;
  // in_queue: 0 exactly for the training items, while the project leaves them out.
  expect(rows("select instance_id from instances where project_id = ? and in_queue = 0 order by 1", projectId)).toEqual(
    keepIn ? [] : rows("select i.instance_id from known_answers k join instances i on i.id = k.instance_ref where k.project_id = ? and k.role = 'training' order by 1", projectId),
  );
  expect(rows("select id, out_of_queue as n from lexelts where project_id = ? order by position", projectId)).toEqual(
    rows("select l.id, (select count(*) from instances i where i.lexelt_id = l.id and i.in_queue = 0) as n from lexelts l where l.project_id = ? order by l.position", projectId),
  );
  expect(rows("select id, out_of_queue_before as n from lexelts where project_id = ? order by position", projectId)).toEqual(
    rows(
      "select l.id, (select count(*) from instances i join lexelts l2 on l2.id = i.lexelt_id where l2.project_id = l.project_id and l2.position < l.position and i.in_queue = 0) as n from lexelts l where l.project_id = ? order by l.position",
      projectId,
    ),
  );
  const recount = rows(
    "select r.user_id, i.lexelt_id, count(*) as done from responses r join instances i on i.id = r.instance_ref where r.project_id = ? and i.in_queue = 1 group by 1, 2 order by 1, 2",
    projectId,
  );
  expect(rows("select user_id, lexelt_id, done from queue_counts where project_id = ? and done > 0 order by 1, 2", projectId)).toEqual(recount);
  expect(rows("select user_id, done from annotator_counts where project_id = ? and done > 0 order by 1", projectId)).toEqual(
    rows("select r.user_id, count(*) as done from responses r join instances i on i.id = r.instance_ref where r.project_id = ? and i.in_queue = 1 group by 1 order by 1", projectId),
  );
}

describe("training items out of the real queue", () => {
  it("are never met in the queue, not counted, and the counters stay equal to a recount as the training set and the setting change", () => {
    const { db, coord, ann, bea, project, ref, idOf, settings } = setup();
    // Answers given blind, before anything is a training item.
    saveResponse(db, ann, project.id, ref("q1"), answer("fast"), { expectedRevision: 0 });
    saveResponse(db, ann, project.id, ref("j1"), answer("leap"), { expectedRevision: 0 });
    saveResponse(db, bea, project.id, ref("q2"), answer("brief"), { expectedRevision: 0 });
    expect(workspace(db, ann, project.id).progress).toEqual({ done: 2, total: 7 });
    returnInstance(db, coord, project.id, { instanceId: "q1", annotator: "ann", comment: "Look again." });
    expect(workspace(db, ann, project.id).returned.count).toBe(1);

    // q1, q2 and all of jump.v become training items: out of the queue (the default).
    importKnownAnswers(db, coord, project.id, { role: "training", fileName: "t.tsv", text: "q1\tfast\nq2\tbrief\nj1\tleap\nj2\thop\n" });
    expectConsistent(db, project.id);
    expect(walk(db, ann, project.id, idOf)).toEqual({ ids: ["q3", "c1", "c2"], positions: [1, 2, 3] });
    expect(workspace(db, ann, project.id).progress).toEqual({ done: 0, total: 3 });
    // An empty lexelt is no target; the return of q1 was withdrawn with it.
    expect(workspaceTargets(db, ann, project.id).map((t) => [t.label, t.done, t.total])).toEqual([
      ["quick", 0, 1],
      ["calm", 0, 2],
    ]);
    expect(workspace(db, ann, project.id).returned.count).toBe(0);
    // A link to a training item, a save to one, a return of one: refused.
    expect(() => workspace(db, ann, project.id, ref("q2"))).toThrow(NotFoundError);
    expect(() => saveResponse(db, ann, project.id, ref("q2"), answer("short"), { expectedRevision: 0 })).toThrow(InputError);
    expect(() => returnInstance(db, coord, project.id, { instanceId: "q2", annotator: "bea", comment: "Again." })).toThrow(InputError);
    // A responses import stores an answer to a training item (and one to c2) but counts only c2's.
    const tsv = ["annotator\tlexelt\tinstance\tanswer\tmultiword", "bea\tjump.v\tj2\tbound\t", "bea\tcalm.a\tc2\tsoft\t"].join("\n");
    importResponses(db, { kind: "system" }, project.id, { fileName: "r.tsv", text: tsv + "\n" });
    expectConsistent(db, project.id);
    expect(workspace(db, bea, project.id).progress).toEqual({ done: 1, total: 3 });
    // Progress: done / total over the queue, the training items counted apart.
    let prog = projectProgress(db, coord, project.id);
    expect([prog.instances, prog.trainingOut, prog.responses]).toEqual([3, 4, 1]);
    expect(prog.annotators.map((a) => [a.name, a.assigned, a.done])).toEqual([
      ["ann", 3, 0],
      ["bea", 3, 1],
    ]);

    // Answering in the queue, then the coordinator keeps training items in: they come back with their answers counted.
    saveResponse(db, ann, project.id, ref("c1"), answer("still"), { expectedRevision: 0 });
    expect(workspace(db, ann, project.id).progress).toEqual({ done: 1, total: 3 });
    settings(true);
    expectConsistent(db, project.id);
    expect(walk(db, ann, project.id, idOf)).toEqual({ ids: ["q1", "q2", "q3", "j1", "j2", "c1", "c2"], positions: [1, 2, 3, 4, 5, 6, 7] });
    expect(workspace(db, ann, project.id).progress).toEqual({ done: 3, total: 7 });
    saveResponse(db, ann, project.id, ref("j2"), answer("hop"), { expectedRevision: 0 });
    expectConsistent(db, project.id);
    prog = projectProgress(db, coord, project.id);
    // ann's q1, j1, c1, j2; bea's q2, j2 (imported) and c2.
    expect([prog.instances, prog.trainingOut, prog.responses]).toEqual([7, 0, 7]);

    // Out again: j2's answer (saved while in) leaves the counts with it; done never exceeds total.
    settings(false);
    expectConsistent(db, project.id);
    expect(workspace(db, ann, project.id).progress).toEqual({ done: 1, total: 3 });
    expect(workspace(db, bea, project.id).progress).toEqual({ done: 1, total: 3 });

    // Unmarking q1 and turning j1 into an attention check put them back, with ann's answers counted.
    removeKnownAnswer(db, coord, project.id, "q1");
    setKnownAnswer(db, coord, project.id, { instanceId: "j1", role: "check", accepted: "leap" });
    expectConsistent(db, project.id);
    expect(walk(db, ann, project.id, idOf)).toEqual({ ids: ["q1", "q3", "j1", "c1", "c2"], positions: [1, 2, 3, 4, 5] });
    expect(workspace(db, ann, project.id).progress).toEqual({ done: 3, total: 5 });
    expect(workspace(db, ann, project.id).nextUnansweredRef).not.toBe(ref("q2"));
    prog = projectProgress(db, coord, project.id);
    expect([prog.instances, prog.trainingOut]).toEqual([5, 2]);
    expect(prog.annotators.find((a) => a.name === "ann")!.done).toBe(3);

    // "Use the current gold" makes c1 a training item (ann's answer there was given blind): out, recounted.
    knownAnswersFromGold(db, coord, project.id, { role: "training", instanceIds: "c1" });
    expectConsistent(db, project.id);
    expect(walk(db, ann, project.id, idOf).ids).toEqual(["q1", "q3", "j1", "c2"]);
    expect(workspace(db, ann, project.id).progress).toEqual({ done: 2, total: 4 });
  });

  it("with requiredAnnotators and assignments: closed instances and restricted queues subtract training items once", () => {
    const { db, coord, ann, bea, project, ref, idOf } = setup();
    db.$client.prepare("update projects set required_annotators = 1 where id = ?").run(project.id);
    const jump = (db.$client.prepare("select id from lexelts where item = 'jump.v'").get() as { id: number }).id;
    const quick = (db.$client.prepare("select id from lexelts where item = 'quick.a'").get() as { id: number }).id;
    db.$client.prepare("insert into assignments (project_id, user_id, lexelt_id) values (?, ?, ?), (?, ?, ?)").run(project.id, ann.userId, quick, project.id, ann.userId, jump);
    // bea closes q3 and j2 for ann (one response needed); q1 becomes a training item, and q3 too.
    saveResponse(db, bea, project.id, ref("q3"), answer("clever"), { expectedRevision: 0 });
    saveResponse(db, bea, project.id, ref("j2"), answer("hop"), { expectedRevision: 0 });
    importKnownAnswers(db, coord, project.id, { role: "training", fileName: "t.tsv", text: "q1\tfast\nq3\tclever\n" });
    expectConsistent(db, project.id);
    // ann's queue: quick.a and jump.v less q1, q3 (training) and j2 (closed).
    expect(walk(db, ann, project.id, idOf)).toEqual({ ids: ["q2", "j1"], positions: [1, 2] });
    expect(workspace(db, ann, project.id).progress).toEqual({ done: 0, total: 2 });
    expect(workspaceTargets(db, ann, project.id).map((t) => [t.label, t.total])).toEqual([
      ["quick", 1],
      ["jump", 1],
    ]);
  });
});
