/**
 * A study participant's work (issue #32): the workspace serves their batch, in order; saves
 * outside it, on a released place, after a time-out or once the study closed are refused and
 * write nothing; the last answer finishes the batch (completion code, the platform's return);
 * the training screens them out after one attempt; their time on task is the server's.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { annotatorProjects, saveResponse, saveResponseAsync, workspace, workspaceTargets } from "../../../lib/server/annotate/responses";
import { ACTIVE_GAP_CAP_MS, PLACE_RELEASED, SCREENED_OUT, STUDY_CLOSED, TIMED_OUT, participantView } from "../../../lib/server/annotate/participant";
import { trainingPending } from "../../../lib/server/annotate/training-gate";
import { answerTraining, retryTraining, setKnownAnswer, setQualitySettings, trainingView } from "../../../lib/server/quality/training";
import { setRequiredAnnotators } from "../../../lib/server/people/team";
import { saveFlag } from "../../../lib/server/annotate/flags";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { openDb } from "../../../db/client";
import { projectFixture } from "../../support/db";
import { makeParticipant, makeStudy, participantRow } from "../../support/crowd";
import { dump } from "../../security/world";

const xml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="quick.a">
<instance id="a1"><context>a <head>quick</head> lunch</context></instance>
<instance id="a2"><context>a <head>quick</head> glance</context></instance>
<instance id="a3"><context>a <head>quick</head> mind</context></instance>
</lexelt>
<lexelt item="jump.v">
<instance id="b1"><context>cats <head>jump</head> high</context></instance>
<instance id="b2"><context>prices <head>jump</head> again</context></instance>
</lexelt>
</corpus>
`;

const NIL = { kind: "NIL", substitutes: [] as string[], multiword: false };
const SUBS = (...s: string[]) => ({ kind: "substitutes", substitutes: s, multiword: false });

function setup(study: Parameters<typeof makeStudy>[2] = {}) {
  const f = projectFixture();
  const { db, coord, project } = f;
  importLexeltXml(db, coord, project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
  const ref = (id: string) => (db.$client.prepare("select id from instances where instance_id = ?").get(id) as { id: number }).id;
  const studyId = makeStudy(db, project.id, study);
  // A batch out of corpus order: b2, a1, b1 (a2, a3 are not theirs).
  const pp = makeParticipant(db, studyId, "pp", [ref("b2"), ref("a1"), ref("b1")]);
  return { ...f, ref, studyId, pp };
}

const catching = (f: () => unknown): Error => {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a refusal");
};

afterEach(() => vi.useRealTimers());

describe("the workspace serves a participant their batch", () => {
  it("in batch order, with the batch's progress and targets, never another instance", () => {
    const { db, project, ref, pp } = setup();
    const v = workspace(db, pp.actor, project.id);
    expect(v.instance?.instanceId).toBe("b2");
    expect(v.position).toBe(1);
    expect(v.prevRef).toBeNull();
    expect(v.nextRef).toBe(ref("a1"));
    expect(v.upcoming.map((u) => u.instance.instanceId)).toEqual(["a1", "b1"]);
    expect(v.upcoming.map((u) => u.position)).toEqual([2, 3]);
    expect(v.upcoming[1].nextRef).toBeNull();
    expect(v.progress).toEqual({ done: 0, total: 3 });
    expect(v.lexelt).toMatchObject({ label: "jump", done: 0, total: 2 });
    expect(workspaceTargets(db, pp.actor, project.id).map((t) => [t.label, t.total])).toEqual([
      ["quick", 1],
      ["jump", 2],
    ]);
    expect(annotatorProjects(db, pp.actor)).toMatchObject([{ id: project.id, done: 0, total: 3 }]);
  });

  it("saves go through the workspace's rules, move on in batch order, and skip what is answered", () => {
    const { db, project, ref, pp } = setup();
    const bad = catching(() => saveResponse(db, pp.actor, project.id, ref("b2"), SUBS("jump"), { expectedRevision: 0 }));
    expect(bad).toBeInstanceOf(InputError);
    const r1 = saveResponse(db, pp.actor, project.id, ref("b2"), SUBS("rise", "climb"), { expectedRevision: 0 });
    expect(r1.next).toBe(ref("a1"));
    expect(r1.progress).toEqual({ done: 1, total: 3 });
    expect(r1.upcoming.map((u) => u.instance.instanceId)).toEqual(["a1", "b1"]);
    // b1 answered out of order: the next is the one after it, then round to a1.
    const r2 = saveResponse(db, pp.actor, project.id, ref("b1"), SUBS("leap"), { expectedRevision: 0 });
    expect(r2.next).toBe(ref("a1"));
    // Resume: the first unanswered after the last saved, wrapping round.
    expect(workspace(db, pp.actor, project.id).instance?.instanceId).toBe("a1");
  });

  it("an instance outside the batch is a 404 as one of another project; nothing is written", () => {
    const { db, project, ref, pp } = setup();
    const before = dump(db);
    for (const e of [
      catching(() => workspace(db, pp.actor, project.id, ref("a2"))),
      catching(() => saveResponse(db, pp.actor, project.id, ref("a2"), NIL, { expectedRevision: 0 })),
    ]) {
      expect(e).toBeInstanceOf(NotFoundError);
      expect(e.message).toBe("No such instance in this project.");
    }
    expect(dump(db)).toEqual(before);
  });

  it("a lexelt of the project but not of the batch is not theirs to jump to", () => {
    const { db, project, pp } = setup();
    const jumpLexelt = (db.$client.prepare("select id from lexelts where item = 'quick.a'").get() as { id: number }).id;
    expect(workspace(db, pp.actor, project.id, undefined, { lexeltId: jumpLexelt }).instance?.instanceId).toBe("a1");
  });

  it("the project's requiredAnnotators does not take a participant's place", () => {
    const { db, coord, ann, project, ref, pp } = setup();
    setRequiredAnnotators(db, coord, project.id, 1);
    saveResponse(db, ann, project.id, ref("b2"), NIL, { expectedRevision: 0 });
    expect(workspace(db, pp.actor, project.id).instance?.instanceId).toBe("b2");
    expect(saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 }).revision).toBe(1);
  });
});

describe("refusals", () => {
  it("a released place: refused with a plain sentence, answers saved before kept", () => {
    const { db, project, ref, pp } = setup();
    saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 });
    db.$client.prepare("update batch_items set released_at = ? where participant_id = ? and instance_ref = ?").run(Date.now(), pp.participantId, ref("a1"));
    const before = dump(db);
    const e = catching(() => saveResponse(db, pp.actor, project.id, ref("a1"), NIL, { expectedRevision: 0 }));
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toBe(PLACE_RELEASED);
    expect(dump(db)).toEqual(before);
    const opened = catching(() => workspace(db, pp.actor, project.id, ref("a1")));
    expect(opened).toBeInstanceOf(NotFoundError);
    expect(opened.message).toMatch(/place went to someone else/);
    // The batch is now b2, b1.
    expect(workspace(db, pp.actor, project.id).progress).toEqual({ done: 1, total: 2 });
  });

  it("a place released between the save's checks and its write is refused in the write's transaction", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-crowd-"));
    try {
      const file = path.join(dir, "t.db");
      const f = projectFixture(file);
      importLexeltXml(f.db, f.coord, f.project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
      const a1 = (f.db.$client.prepare("select id from instances where instance_id = 'a1'").get() as { id: number }).id;
      const pp = makeParticipant(f.db, makeStudy(f.db, f.project.id), "pp", [a1]);
      // Another server process holds the write lock: the save's checks pass, its write waits.
      const other = openDb(file);
      other.$client.exec("BEGIN IMMEDIATE");
      const saving = saveResponseAsync(f.db, pp.actor, f.project.id, a1, NIL, { expectedRevision: 0 });
      // Meanwhile that process releases the place (the batch timed out) and commits.
      other.$client.prepare("update batch_items set released_at = ? where participant_id = ?").run(Date.now(), pp.participantId);
      other.$client.exec("COMMIT");
      await expect(saving).rejects.toThrow(PLACE_RELEASED);
      expect(f.db.$client.prepare("select count(*) as n from responses where user_id = ?").get(pp.actor.userId)).toEqual({ n: 0 });
      other.$client.close();
      f.db.$client.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a timed-out participant: the workspace and saves say their time ran out", () => {
    const { db, project, ref, pp } = setup();
    db.$client.prepare("update participants set state = 'timed-out' where id = ?").run(pp.participantId);
    const before = dump(db);
    expect(catching(() => workspace(db, pp.actor, project.id)).message).toBe(TIMED_OUT);
    const e = catching(() => saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 }));
    expect(e).toBeInstanceOf(AuthError);
    expect(e.message).toBe(TIMED_OUT);
    expect(dump(db)).toEqual(before);
    expect(participantView(db, pp.actor)).toMatchObject({ state: "timed-out", code: "", returnUrl: null });
  });

  it("a screened-out participant: the workspace and saves say the study has ended for them", () => {
    const { db, project, ref, pp } = setup();
    db.$client.prepare("update participants set state = 'screened-out' where id = ?").run(pp.participantId);
    const before = dump(db);
    expect(catching(() => workspace(db, pp.actor, project.id, ref("b2"))).message).toBe(SCREENED_OUT);
    expect(catching(() => saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 })).message).toBe(SCREENED_OUT);
    expect(dump(db)).toEqual(before);
  });

  it("a closed study refuses saves (and the workspace); a paused one goes on", () => {
    const { db, project, ref, pp, studyId } = setup();
    db.$client.prepare("update studies set state = 'paused' where id = ?").run(studyId);
    expect(saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 }).revision).toBe(1);
    db.$client.prepare("update studies set state = 'closed' where id = ?").run(studyId);
    const before = dump(db);
    expect(catching(() => saveResponse(db, pp.actor, project.id, ref("a1"), NIL, { expectedRevision: 0 })).message).toBe(STUDY_CLOSED);
    expect(catching(() => saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 1 })).message).toBe(STUDY_CLOSED);
    expect(catching(() => workspace(db, pp.actor, project.id)).message).toBe(STUDY_CLOSED);
    expect(dump(db)).toEqual(before);
  });

  it("flags and notes: on the batch's items only", () => {
    const { db, project, ref, pp } = setup();
    expect(saveFlag(db, pp.actor, project.id, ref("a1"), { flag: "unsure", note: "" })).toEqual({ flag: "unsure", note: "" });
    const before = dump(db);
    expect(catching(() => saveFlag(db, pp.actor, project.id, ref("a2"), { flag: "unsure", note: "" }))).toBeInstanceOf(NotFoundError);
    expect(dump(db)).toEqual(before);
    db.$client.prepare("update batch_items set released_at = 1 where participant_id = ? and instance_ref = ?").run(pp.participantId, ref("b1"));
    const released = dump(db);
    expect(catching(() => saveFlag(db, pp.actor, project.id, ref("b1"), { flag: "unsure", note: "" })).message).toBe(PLACE_RELEASED);
    expect(dump(db)).toEqual(released);
  });

  it("another participant's batch is not theirs: a 404", () => {
    const { db, project, ref, pp, studyId } = setup();
    const other = makeParticipant(db, studyId, "other", [ref("a2"), ref("a3")]);
    expect(catching(() => workspace(db, pp.actor, project.id, ref("a2")))).toBeInstanceOf(NotFoundError);
    expect(catching(() => saveResponse(db, other.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 }))).toBeInstanceOf(NotFoundError);
  });
});

describe("completion", () => {
  it("the batch's last answer finishes it: state, finished_at, no next; the completion code and Prolific's return", () => {
    const { db, project, ref, pp } = setup({ completionCode: "C0MPL3TE" });
    expect(participantView(db, pp.actor)).toMatchObject({ state: "active", code: "", returnUrl: null, done: 0, total: 3 });
    saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 });
    saveResponse(db, pp.actor, project.id, ref("b1"), NIL, { expectedRevision: 0 });
    expect(participantRow(db, pp.participantId)).toMatchObject({ state: "active", finishedAt: null });
    // The last missing one is a1, in the middle of the batch: still no next, the completion screen.
    const last = saveResponse(db, pp.actor, project.id, ref("a1"), SUBS("fast"), { expectedRevision: 0 });
    expect(last.next).toBeNull();
    expect(last.progress).toEqual({ done: 3, total: 3 });
    const row = participantRow(db, pp.participantId);
    expect(row.state).toBe("finished");
    expect(row.finishedAt).toEqual(expect.any(Number));
    expect(participantView(db, pp.actor)).toEqual({
      projectId: project.id,
      state: "finished",
      studyState: "open",
      platform: "prolific",
      code: "C0MPL3TE",
      returnUrl: "https://app.prolific.com/submissions/complete?cc=C0MPL3TE",
      mturk: null,
      done: 3,
      total: 3,
    });
    // Resume finds nothing left: the page shows the completion screen.
    expect(workspace(db, pp.actor, project.id).instance).toBeNull();
  });

  it("a finished participant may still change an answer while the study is open; finished_at stays", () => {
    const { db, project, ref, pp } = setup();
    for (const id of ["b2", "a1", "b1"]) saveResponse(db, pp.actor, project.id, ref(id), NIL, { expectedRevision: 0 });
    const at = participantRow(db, pp.participantId).finishedAt;
    const again = saveResponse(db, pp.actor, project.id, ref("a1"), SUBS("fast"), { expectedRevision: 1 });
    expect(again.revision).toBe(2);
    expect(participantRow(db, pp.participantId)).toMatchObject({ state: "finished", finishedAt: at });
  });

  it("Mechanical Turk: the externalSubmit form on a known host only, with the assignment id", () => {
    const { db, project, ref, studyId } = setup({ platform: "mturk", completionCode: "MT-OK" });
    const good = makeParticipant(db, studyId, "w1", [ref("a2")], { platformSessionId: "ASSIGN1", submitTo: "https://workersandbox.mturk.com" });
    const evil = makeParticipant(db, studyId, "w2", [ref("a3")], { platformSessionId: "ASSIGN2", submitTo: "https://evil.example" });
    saveResponse(db, good.actor, project.id, ref("a2"), NIL, { expectedRevision: 0 });
    saveResponse(db, evil.actor, project.id, ref("a3"), NIL, { expectedRevision: 0 });
    expect(participantView(db, good.actor)).toMatchObject({
      state: "finished",
      code: "MT-OK",
      returnUrl: null,
      mturk: { action: "https://workersandbox.mturk.com/mturk/externalSubmit", assignmentId: "ASSIGN1" },
    });
    expect(participantView(db, evil.actor)).toMatchObject({ state: "finished", code: "MT-OK", mturk: null });
  });

  it("anyone else has no participant view (and asks nothing of the database)", () => {
    const { db, ann, coord } = setup();
    expect(participantView(db, ann)).toBeNull();
    expect(participantView(db, coord)).toBeNull();
    expect(participantView(db, SYSTEM)).toBeNull();
  });
});

describe("screening by the training", () => {
  function withTraining() {
    const f = setup({ screenOutCode: "N0PE" });
    setKnownAnswer(f.db, SYSTEM, f.project.id, { instanceId: "a2", role: "training", accepted: "fast;rapid" });
    setKnownAnswer(f.db, SYSTEM, f.project.id, { instanceId: "a3", role: "training", accepted: "sharp;clever" });
    setQualitySettings(f.db, SYSTEM, f.project.id, { trainingRequired: true, trainingThreshold: 100, speedThresholdSeconds: 4 });
    return f;
  }

  it("applies to participants: real instances wait for a pass", () => {
    const { db, project, ref, pp } = withTraining();
    expect(trainingPending(db, project.id, pp.actor)).toBe(true);
    expect(catching(() => saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 }))).toBeInstanceOf(AuthError);
    trainingView(db, pp.actor, project.id);
    answerTraining(db, pp.actor, project.id, ref("a2"), ["fast"]);
    expect(answerTraining(db, pp.actor, project.id, ref("a3"), ["sharp"])).toMatchObject({ passed: true });
    expect(trainingPending(db, project.id, pp.actor)).toBe(false);
    expect(participantRow(db, pp.participantId).state).toBe("active");
    expect(saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 }).revision).toBe(1);
  });

  it("one attempt: failing it screens out, with the screen-out code and Prolific's return; no retry, no saves", () => {
    const { db, project, ref, pp } = withTraining();
    trainingView(db, pp.actor, project.id);
    answerTraining(db, pp.actor, project.id, ref("a2"), ["slow"]);
    expect(participantRow(db, pp.participantId).state).toBe("active");
    expect(answerTraining(db, pp.actor, project.id, ref("a3"), ["sharp"])).toMatchObject({ passed: false, score: 50 });
    expect(participantRow(db, pp.participantId)).toMatchObject({ state: "screened-out", finishedAt: expect.any(Number) });
    // Their places go back to the study: nothing of the batch is held any more.
    const held = db.$client.prepare("select count(*) as n from batch_items where participant_id = ? and released_at is null").get(pp.participantId) as { n: number };
    expect(held.n).toBe(0);
    expect(participantView(db, pp.actor)).toMatchObject({
      state: "screened-out",
      code: "N0PE",
      returnUrl: "https://app.prolific.com/submissions/complete?cc=N0PE",
    });
    const before = dump(db);
    expect(catching(() => retryTraining(db, pp.actor, project.id, "same"))).toBeInstanceOf(AuthError);
    // Real instances stay shut (the training was not passed); the pages show the screen-out screen (participantView).
    expect(catching(() => workspace(db, pp.actor, project.id))).toBeInstanceOf(AuthError);
    expect(catching(() => saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 }))).toBeInstanceOf(AuthError);
    expect(dump(db)).toEqual(before);
  });

  it("an annotator's failed attempt changes nothing of the sort (they try again)", () => {
    const { db, ann, project, ref } = withTraining();
    trainingView(db, ann, project.id);
    answerTraining(db, ann, project.id, ref("a2"), ["slow"]);
    answerTraining(db, ann, project.id, ref("a3"), ["slow"]);
    expect(retryTraining(db, ann, project.id, "same")).toEqual({ attempt: 2 });
  });
});

describe("time on task, measured on the server", () => {
  it("adds the gap since the last request that did work, capped, on opening and saving", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const t0 = new Date("2026-01-01T10:00:00Z").getTime();
    vi.setSystemTime(t0);
    const { db, project, ref, pp } = setup();
    workspace(db, pp.actor, project.id);
    expect(participantRow(db, pp.participantId)).toMatchObject({ activeMs: 0, lastSeenAt: t0 });
    vi.setSystemTime(t0 + 40_000);
    saveResponse(db, pp.actor, project.id, ref("b2"), NIL, { expectedRevision: 0 });
    expect(participantRow(db, pp.participantId)).toMatchObject({ activeMs: 40_000, lastSeenAt: t0 + 40_000 });
    // A long break counts as the cap.
    vi.setSystemTime(t0 + 40_000 + 3_600_000);
    workspace(db, pp.actor, project.id, ref("a1"));
    expect(participantRow(db, pp.participantId)).toMatchObject({ activeMs: 40_000 + ACTIVE_GAP_CAP_MS, lastSeenAt: t0 + 40_000 + 3_600_000 });
  });

  it("an ordinary annotator's workspace and save ask nothing of the study tables (no statement names them)", () => {
    const { db, ann, project, ref } = setup();
    const asked: string[] = [];
    const prepare = db.$client.prepare.bind(db.$client);
    const spy = vi.spyOn(db.$client, "prepare").mockImplementation(((sql: string) => {
      asked.push(sql);
      return prepare(sql);
    }) as typeof db.$client.prepare);
    try {
      workspace(db, ann, project.id);
      saveResponse(db, ann, project.id, ref("a2"), NIL, { expectedRevision: 0 });
      saveResponse(db, ann, project.id, ref("a2"), SUBS("fast"), { expectedRevision: 1 });
    } finally {
      spy.mockRestore();
    }
    // The statements are prepared on first use on this fresh connection: the spy sees every one.
    expect(asked.length).toBeGreaterThan(5);
    expect(asked.filter((q) => /participants|batch_items|studies/.test(q))).toEqual([]);
  });

  it("an ordinary annotator's save does not touch any participant row", () => {
    const { db, ann, project, ref, pp } = setup();
    const before = participantRow(db, pp.participantId);
    saveResponse(db, ann, project.id, ref("a2"), NIL, { expectedRevision: 0 });
    workspace(db, ann, project.id);
    expect(participantRow(db, pp.participantId)).toEqual(before);
  });
});
