/**
 * lib/server/crowd/participants.ts: the coordinator's view of a study (figures per
 * participant, worked out by hand below), the review with its log, and leaving
 * rejected participants' answers out of the gold — with and without, line by line.
 */
import { describe, expect, it } from "vitest";
import type { Db } from "../../../db/client";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { createProject } from "../../../lib/server/corpus/projects";
import { goldReviewHistory, projectAgreement, projectGold } from "../../../lib/server/gold/gold";
import { reviewLogPage } from "../../../lib/server/gold/gold-review";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { dataVersion } from "../../../lib/server/kernel/data-version";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { excludeRejected, studyOverviews, participantsPage, reviewParticipant, setBonus, studyParticipants, undoExclusion } from "../../../lib/server/crowd/participants";
import { setKnownAnswer } from "../../../lib/server/quality/training";
import { answer, seedParticipant, seedStudy } from "../../support/crowd";
import { paymentFile } from "../../../lib/server/crowd/payments";
import { bigProject } from "../../support/big-project";
import { actorFor, testDb } from "../../support/db";
import { recordStatements } from "../../support/statements";

const XML = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="bright.a"><instance id="p1"><context>a <head>bright</head> morning</context></instance><instance id="p2"><context>a <head>bright</head> pupil</context></instance></lexelt>
<lexelt item="keen.a"><instance id="p3"><context>a <head>keen</head> gardener</context></instance></lexelt>
</corpus>
`;

const PID = { a: "5f0a00000000000000000001", b: "5f0a00000000000000000002", c: "5f0a00000000000000000003" };

/**
 * Three Prolific participants, each with p1 and p2 (and p3, an attention check accepting
 * "eager", for a and b):
 *   a: p1 shining;sunny  p2 clever        p3 eager (passes)
 *   b: p1 shining        p2 clever;smart  p3 sharp (fails)
 *   c: p1 dazzling       p2 dim
 */
function setup() {
  const db = testDb();
  const coord = actorFor(db, "coord", "coordinator");
  const p = createProject(db, coord, { name: "p" });
  importLexeltXml(db, coord, p.id, { fileName: "p.xml", bytes: new TextEncoder().encode(XML) });
  const ref = Object.fromEntries((db.$client.prepare("select id, instance_id as iid from instances").all() as { id: number; iid: string }[]).map((r) => [r.iid, r.id])) as Record<"p1" | "p2" | "p3", number>;
  setKnownAnswer(db, SYSTEM, p.id, { instanceId: "p3", role: "check", accepted: "eager" });
  const study = seedStudy(db, p.id, { name: "pilot", batchSize: 3, overlap: 2 });
  const t0 = Date.UTC(2026, 10, 27, 8, 0, 0);
  const a = seedParticipant(db, study, PID.a, { refs: [ref.p1, ref.p2, ref.p3], session: "sess-a", state: "finished", joinedAt: t0, activeMs: 95_000 });
  const b = seedParticipant(db, study, PID.b, { refs: [ref.p1, ref.p2, ref.p3], session: "sess-b", state: "finished", joinedAt: t0 + 1000, activeMs: 80_000 });
  const c = seedParticipant(db, study, PID.c, { refs: [ref.p1, ref.p2, ref.p3], session: "sess-c", state: "timed-out", joinedAt: t0 + 2000, activeMs: 3_000 });
  answer(db, p.id, a, ref.p1, ["shining", "sunny"]);
  answer(db, p.id, a, ref.p2, ["clever"]);
  answer(db, p.id, a, ref.p3, ["eager"]);
  answer(db, p.id, b, ref.p1, ["shining"]);
  answer(db, p.id, b, ref.p2, ["clever", "smart"]);
  answer(db, p.id, b, ref.p3, ["sharp"]);
  answer(db, p.id, c, ref.p1, ["dazzling"]);
  answer(db, p.id, c, ref.p2, ["dim"]);
  // Time per item as the server measured it: a and b took their time, c clicked through (under the 4 s flag).
  db.$client.prepare("update responses set active_ms = ? where user_id = ?").run(12_000, a.actor.userId);
  db.$client.prepare("update responses set active_ms = ? where user_id = ?").run(8_000, b.actor.userId);
  db.$client.prepare("update responses set active_ms = ? where user_id = ?").run(1_500, c.actor.userId);
  return { db, coord, p, ref, study, a, b, c };
}

describe("the participants table", () => {
  it("lists the study with its counts: 3 joined, 2 finished, 3 instances with the overlap of 2 answers", () => {
    const { db, coord, p, study } = setup();
    expect(studyOverviews(db, coord, p.id)).toEqual([
      expect.objectContaining({ id: study, name: "pilot", platform: "prolific", state: "open", batchSize: 3, overlap: 2, minutes: 30, joined: 3, finished: 2, complete: 3 }),
    ]);
  });

  it("gives each participant's items, checks, agreement and flags as worked out by hand", () => {
    const { db, coord, p, study } = setup();
    const page = participantsPage(db, coord, p.id, study);
    expect(page.total).toBe(3);
    expect(page.reviews).toEqual({ pending: 3, approved: 0, rejected: 0 });
    const by = Object.fromEntries(page.rows.map((r) => [r.platformId, r]));
    // Items answered / given.
    expect([by[PID.a].answered, by[PID.a].batch, by[PID.c].answered, by[PID.c].batch]).toEqual([3, 3, 2, 3]);
    // The check p3 (accepted: eager): a passed, b did not, c never saw it.
    expect([by[PID.a].checksPassed, by[PID.a].checksSeen, by[PID.b].checksPassed, by[PID.b].checksSeen, by[PID.c].checksSeen]).toEqual([1, 1, 0, 1, 0]);
    // Pairwise agreement (SemEval-2007 §2.2) over p1 and p2 (the check never enters the gold):
    //   p1: a{shining,sunny}–b{shining} = 1/2, a–c = 0, b–c = 0;  p2: a{clever}–b{clever,smart} = 1/2, a–c = 0, b–c = 0.
    //   a: (1/2 + 0 + 1/2 + 0) / 4 pairs = 0.25; b the same; c: 0 over 4 pairs.
    expect([by[PID.a].agreement, by[PID.a].pairs, by[PID.b].agreement, by[PID.c].agreement, by[PID.c].pairs]).toEqual([0.25, 4, 0.25, 0, 4]);
    // Flags: b failed a check; c is fast (median 1.5 s under 4 s) and timed out; a has none.
    expect(by[PID.a].flags).toEqual([]);
    expect(by[PID.b].flags).toEqual(["failed checks"]);
    expect(by[PID.c].flags).toEqual(["fast", "timed out"]);
    expect([by[PID.a].activeMs, by[PID.a].sessionId, by[PID.c].finishedAt]).toEqual([95_000, "sess-a", null]);
    expect(page.measure).toMatch(/SemEval-2007 §2\.2/);
  });

  it("pages 300 participants 50 at a time in the order they joined", () => {
    const { db, coord, p, ref } = setup();
    const big = seedStudy(db, p.id, { name: "big" });
    for (let k = 0; k < 305; k++) seedParticipant(db, big, `w${String(k).padStart(4, "0")}`, { refs: [ref.p1], joinedAt: 1_000 + k });
    const first = participantsPage(db, coord, p.id, big, 1);
    const last = participantsPage(db, coord, p.id, big, 7);
    expect([first.total, first.pages, first.rows.length, first.rows[0].platformId]).toEqual([305, 7, 50, "w0000"]);
    expect([last.page, last.rows.length, last.rows[4].platformId]).toEqual([7, 5, "w0304"]);
    // A page beyond the last is the last.
    expect(participantsPage(db, coord, p.id, big, 99).page).toBe(7);
  });

  it("is the project's coordinator's only, and a study of another project is not found", () => {
    const { db, coord, p, study, a } = setup();
    expect(() => participantsPage(db, a.actor, p.id, study)).toThrow(AuthError);
    const other = createProject(db, coord, { name: "other" });
    expect(() => participantsPage(db, coord, other.id, study)).toThrow(NotFoundError);
    expect(() => reviewParticipant(db, coord, other.id, { participantId: a.id, review: "approved" })).toThrow(NotFoundError);
    expect(() => participantsPage(db, coord, p.id, "1\n")).toThrow(NotFoundError);
  });

  it("another project's study and participants are not reached through this project, and nothing is written", () => {
    const { db, coord, p, ref } = setup();
    const other = createProject(db, coord, { name: "other" });
    const theirs = seedStudy(db, other.id, { name: "theirs" });
    const them = seedParticipant(db, theirs, "theirs-1", { refs: [ref.p1] });
    db.$client.prepare("update participants set review = 'rejected' where id = ?").run(them.id);
    const before = JSON.stringify([db.$client.prepare("select * from participants").all(), db.$client.prepare("select * from gold_review_log").all(), db.$client.prepare("select * from participant_exclusions").all()]);
    expect(() => reviewParticipant(db, coord, p.id, { participantId: them.id, review: "approved" })).toThrow(NotFoundError);
    expect(() => setBonus(db, coord, p.id, { participantId: them.id, bonus: "1" })).toThrow(NotFoundError);
    expect(() => excludeRejected(db, coord, p.id, theirs)).toThrow(NotFoundError);
    expect(() => undoExclusion(db, coord, p.id, theirs)).toThrow(NotFoundError);
    expect(() => studyParticipants(db, coord, p.id, theirs)).toThrow(NotFoundError);
    expect(JSON.stringify([db.$client.prepare("select * from participants").all(), db.$client.prepare("select * from gold_review_log").all(), db.$client.prepare("select * from participant_exclusions").all()])).toBe(before);
  });
});

describe("approve, reject, bonus", () => {
  it("records the review with who and when, and logs every change in the gold review log", () => {
    const { db, coord, p, study, a, c } = setup();
    expect(reviewParticipant(db, coord, p.id, { participantId: a.id, review: "approved" })).toEqual({ platformId: PID.a, review: "approved", reason: "" });
    expect(reviewParticipant(db, coord, p.id, { participantId: c.id, review: "rejected", reason: "  Answered   at random  " })).toEqual({ platformId: PID.c, review: "rejected", reason: "Answered at random" });
    expect(setBonus(db, coord, p.id, { participantId: a.id, bonus: "1.5" })).toEqual({ platformId: PID.a, bonusCents: 150 });
    const rows = studyParticipants(db, coord, p.id, study).rows;
    expect(rows.map((r) => [r.platformId, r.review, r.reviewReason, r.reviewedBy, r.bonusCents])).toEqual([
      [PID.a, "approved", "", "coord", 150],
      [PID.b, "pending", "", null, null],
      [PID.c, "rejected", "Answered at random", "coord", null],
    ]);
    const log = goldReviewHistory(db, coord, p.id).map((e) => [e.kind, e.target, e.value]);
    expect(log).toEqual([
      ["participant", PID.a, JSON.stringify({ study, bonusCents: 150 })],
      ["participant", PID.c, JSON.stringify({ study, review: "rejected", reason: "Answered at random" })],
      ["participant", PID.a, JSON.stringify({ study, review: "approved", reason: "" })],
    ]);
    // The Gold tab's log says it in words.
    const words = reviewLogPage(db, coord, p.id, 1).rows.map((r) => [r.decision, r.value, r.reason]);
    expect(words).toEqual([
      ["bonus", "1.50", ""],
      ["rejected", "", "Answered at random"],
      ["approved", "", ""],
    ]);
  });

  it("a rejection needs a reason of at most 500 characters; a bad bonus is refused; nothing is written then", () => {
    const { db, coord, p, c } = setup();
    const before = goldReviewHistory(db, coord, p.id).length;
    expect(() => reviewParticipant(db, coord, p.id, { participantId: c.id, review: "rejected", reason: "   " })).toThrow(InputError);
    expect(() => reviewParticipant(db, coord, p.id, { participantId: c.id, review: "rejected", reason: "x".repeat(501) })).toThrow(/at most 500/);
    expect(() => reviewParticipant(db, coord, p.id, { participantId: c.id, review: "banned" })).toThrow(InputError);
    expect(() => setBonus(db, coord, p.id, { participantId: c.id, bonus: "1.505" })).toThrow(InputError);
    expect(() => setBonus(db, coord, p.id, { participantId: c.id, bonus: "-1" })).toThrow(InputError);
    expect(() => setBonus(db, coord, p.id, { participantId: c.id, bonus: "=1+1" })).toThrow(InputError);
    expect(reviewParticipant(db, coord, p.id, { participantId: c.id, review: "rejected", reason: "x".repeat(500) }).reason).toHaveLength(500);
    expect(goldReviewHistory(db, coord, p.id).length).toBe(before + 1);
    // "", 0 and "£0.00" clear the bonus; "£2,05" is 2.05.
    expect(setBonus(db, coord, p.id, { participantId: c.id, bonus: "£2,05" }).bonusCents).toBe(205);
    expect(setBonus(db, coord, p.id, { participantId: c.id, bonus: "£0.00" }).bonusCents).toBeNull();
    expect(setBonus(db, coord, p.id, { participantId: c.id, bonus: "" }).bonusCents).toBeNull();
  });
});

describe("leaving rejected participants out of the gold", () => {
  const ALL = "\nbright.a p1 :: shining 2;dazzling 1;sunny 1;\nbright.a p2 :: clever 2;dim 1;smart 1;\n";
  const WITHOUT_C = "\nbright.a p1 :: shining 2;sunny 1;\nbright.a p2 :: clever 2;smart 1;\n";

  it("one decision leaves c's answers out of gold, modes and agreement; the undo puts them back; both logged", () => {
    const { db, coord, p, study, c } = setup();
    // Everyone's answers: p1 H = {shining, shining, sunny, dazzling}, p2 H = {clever, clever, smart, dim}; the check p3 stays out.
    expect(projectGold(db, coord, p.id).gold).toBe(ALL);
    expect(projectAgreement(db, coord, p.id).agreement.perAnnotator.map((x) => x.annotator)).toContain(c.actor.name);
    // Nobody rejected yet: nothing to leave out.
    expect(() => excludeRejected(db, coord, p.id, study)).toThrow(/nothing to leave out/);
    reviewParticipant(db, coord, p.id, { participantId: c.id, review: "rejected", reason: "random answers" });
    // Rejecting alone changes nothing in the gold.
    expect(projectGold(db, coord, p.id).gold).toBe(ALL);

    const v0 = dataVersion(db, p.id);
    expect(excludeRejected(db, coord, p.id, study)).toEqual({ platformIds: [PID.c] });
    expect(dataVersion(db, p.id)).toBeGreaterThan(v0);
    // Without c: p1 H = {shining, shining, sunny}, p2 H = {clever, clever, smart}; both modes (shining, clever) stand.
    const g = projectGold(db, coord, p.id);
    expect(g.gold).toBe(WITHOUT_C);
    expect(g.result.items.filter((i) => i.excluded === null && i.line !== null).map((i) => [i.instanceId, i.mode])).toEqual([
      ["p1", "shining"],
      ["p2", "clever"],
    ]);
    // Agreement: a–b only: p1 1/2, p2 1/2 → 0.5; c is not an annotator of the report.
    const agreement = projectAgreement(db, coord, p.id).agreement;
    expect([agreement.pairwise, agreement.pairs]).toEqual([0.5, 2]);
    expect(agreement.perAnnotator.map((x) => x.annotator)).not.toContain(c.actor.name);
    // The table still shows c's figures, marked.
    const page = participantsPage(db, coord, p.id, study);
    expect(page.rows.find((r) => r.platformId === PID.c)).toMatchObject({ excluded: true, agreement: 0, answered: 2 });
    expect([page.excluded, page.rejectedInGold, page.lastExclusion?.active]).toEqual([1, 0, true]);
    // Leaving out again: nobody left.
    expect(() => excludeRejected(db, coord, p.id, study)).toThrow(InputError);

    expect(undoExclusion(db, coord, p.id, study)).toEqual({ platformIds: [PID.c] });
    expect(projectGold(db, coord, p.id).gold).toBe(ALL);
    expect(() => undoExclusion(db, coord, p.id, study)).toThrow(/nothing to undo/);
    const after = participantsPage(db, coord, p.id, study);
    expect([after.excluded, after.rejectedInGold, after.lastExclusion?.active]).toEqual([0, 1, false]);
    // Recorded, never deleted: the decision row stays, undone.
    expect(db.$client.prepare("select count(*) as n, sum(undone_at is not null) as undone from participant_exclusions").get()).toEqual({ n: 1, undone: 1 });
    const log = reviewLogPage(db, coord, p.id, 1).rows.slice(0, 2).map((r) => [r.kind, r.target, r.decision, r.value]);
    expect(log).toEqual([
      ["participants", "pilot", "answers put back in the gold", PID.c],
      ["participants", "pilot", "answers left out of the gold", PID.c],
    ]);
  });

  it("an annotator outside the study, and the other participants, keep their answers in", () => {
    const { db, coord, p, study, c, ref } = setup();
    const ann = actorFor(db, "ann", "annotator");
    db.$client.prepare("insert into memberships (project_id, user_id, role) values (?, ?, 'annotator')").run(p.id, ann.userId);
    answer(db, p.id, { id: 0, platformId: "", actor: ann }, ref.p1, ["dazzling"]);
    reviewParticipant(db, coord, p.id, { participantId: c.id, review: "rejected", reason: "random answers" });
    excludeRejected(db, coord, p.id, study);
    // ann's dazzling stays; c's is gone: p1 H = {shining, shining, sunny, dazzling(ann)}.
    expect(projectGold(db, coord, p.id).gold).toBe("\nbright.a p1 :: shining 2;dazzling 1;sunny 1;\nbright.a p2 :: clever 2;smart 1;\n");
  });
});

describe("at scale: a study of 300 participants in a project of 100,000 instances", { timeout: 300_000 }, () => {
  /** Every statement fn runs (its SQL), and the rows they returned (test/support/statements.ts). */
  const recorded = (db: Db, fn: () => void): { sql: string[]; rows: number } => recordStatements(db, fn);

  /** A project of `instances`, a study whose 300 participants each answered 5 of its first 500 instances (3 answers each). */
  function crowdProject(instances: number) {
    const b = bigProject({ instances, answered: 0 });
    const study = seedStudy(b.db, b.projectId, { name: "big", batchSize: 5, overlap: 3 });
    const insert = b.db.$client.prepare("insert into responses (project_id, instance_ref, user_id, kind, substitutes, revision, active_ms, updated_at) values (?, ?, ?, 'substitutes', ?, 1, 9000, 1)");
    for (let k = 0; k < 300; k++) {
      const refs = [0, 1, 2, 3, 4].map((j) => b.refs[(k * 5 + j) % 500]);
      const who = seedParticipant(b.db, study, `w${String(k).padStart(4, "0")}`, { refs, joinedAt: 1_000 + k });
      for (const ref of refs) insert.run(b.projectId, ref, who.actor.userId, JSON.stringify([`w${k % 7}`]));
    }
    const coord = { kind: "user" as const, userId: (b.db.$client.prepare("select id from users where name = 'coord'").get() as { id: number }).id, name: "coord", role: "coordinator" as const };
    return { ...b, study, coord };
  }

  it("reads the same statements and rows whatever the project's size, each through an index", () => {
    const runs = [1_000, 100_000].map((n) => {
      const b = crowdProject(n);
      const r = recorded(b.db, () => {
        studyOverviews(b.db, b.coord, b.projectId);
        const page = participantsPage(b.db, b.coord, b.projectId, b.study, 3);
        expect([page.total, page.rows.length, page.rows[0].answered, page.rows[0].batch]).toEqual([300, 50, 5, 5]);
        expect(page.rows.every((row) => row.pairs === 10)).toBe(true);
      });
      return { b, r };
    });
    // The study's instances (1,500 places on 500 instances) are read, not the project's.
    expect(runs[1].r.sql.length).toBe(runs[0].r.sql.length);
    expect(runs[1].r.rows).toBe(runs[0].r.rows);
    expect(studyOverviews(runs[1].b.db, runs[1].b.coord, runs[1].b.projectId)[0]).toMatchObject({ joined: 300, complete: 500 });
    const db = runs[1].b.db;
    const scans: string[] = [];
    for (const sql of new Set(runs[1].r.sql)) {
      if (!/^\s*(select|with)/i.test(sql)) continue;
      const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1);
      for (const step of (db.$client.prepare(`explain query plan ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail)) {
        // A SCAN of a table that grows with the project, or a SEARCH of one by the project alone (the whole project's rows).
        const big = "(responses|instances|lexelts|dataset_gold|participants|batch_items|users|r|i|l)";
        if (new RegExp(`^SCAN ${big}\\b`).test(step) || new RegExp(`^SEARCH ${big} .*\\(project_id=\\?\\)$`).test(step)) scans.push(`${step}  ←  ${sql.replace(/\s+/g, " ").slice(0, 160)}`);
      }
    }
    expect(scans).toEqual([]);
  });
});

describe("screened-out participants (#38, finding 13)", () => {
  /** A study of the platform with one finished participant and one screened out by the training (their batch released). */
  function screened(platform: "prolific" | "mturk" | "link") {
    const db = testDb();
    const coord = actorFor(db, "coord", "coordinator");
    const p = createProject(db, coord, { name: "p" });
    importLexeltXml(db, coord, p.id, { fileName: "p.xml", bytes: new TextEncoder().encode(XML) });
    const refs = (db.$client.prepare("select id from instances order by id").all() as { id: number }[]).map((r) => r.id);
    const study = seedStudy(db, p.id, { platform, batchSize: 2, overlap: 2 });
    const done = seedParticipant(db, study, "DONE1", { refs: refs.slice(0, 2), session: "ASSIGNDONE", state: "finished" });
    answer(db, p.id, done, refs[0], ["shining"]);
    const out = seedParticipant(db, study, "OUT1", { refs: refs.slice(0, 2), session: "ASSIGNOUT", state: "screened-out" });
    db.$client.prepare("update batch_items set released_at = ? where participant_id = ?").run(Date.now(), out.id);
    const rows = () => Object.fromEntries(participantsPage(db, coord, p.id, study).rows.map((r) => [r.platformId, r]));
    return { db, coord, p, study, done, out, rows };
  }

  it.each([
    ["prolific", { canReview: false, canBonus: false }],
    ["link", { canReview: false, canBonus: false }],
    // Mechanical Turk: their assignment was submitted (the end screen posts it), so it is approved or rejected like any other.
    ["mturk", { canReview: true, canBonus: false }],
  ] as const)("%s: shown as screened out, with no batch and only the review that applies", (platform, applies) => {
    const { rows } = screened(platform);
    const r = rows();
    expect(r.OUT1).toMatchObject({ state: "screened-out", batch: 0, answered: 0, flags: ["screened out"], ...applies });
    expect(r.DONE1).toMatchObject({ state: "finished", batch: 2, canReview: true, canBonus: true });
  });

  it.each([
    ["prolific", { pending: 1, screenedOut: 1 }],
    ["link", { pending: 1, screenedOut: 1 }],
    // On Mechanical Turk their assignment waits for a review like any other: pending, not apart.
    ["mturk", { pending: 2, screenedOut: 0 }],
  ] as const)("%s: the summary counts one screened out where no review applies apart from the pending", (platform, want) => {
    const { db, coord, p, study } = screened(platform);
    const view = participantsPage(db, coord, p.id, study);
    expect({ pending: view.reviews.pending - view.screenedOut, screenedOut: view.screenedOut }).toEqual(want);
  });

  it("what does not apply is refused by the server too, and writes nothing; setting them back to pending stays possible", () => {
    const { db, coord, p, out } = screened("prolific");
    const before = db.$client.prepare("select review, bonus_cents as b from participants where id = ?").get(out.id);
    const logged = () => (db.$client.prepare("select count(*) as n from gold_review_log").get() as { n: number }).n;
    const log0 = logged();
    expect(() => reviewParticipant(db, coord, p.id, { participantId: out.id, review: "approved" })).toThrow("OUT1 was screened out by the training: Prolific pays them through the screen-out code, so there is nothing to approve or reject here.");
    expect(() => setBonus(db, coord, p.id, { participantId: out.id, bonus: "1.00" })).toThrow("OUT1 was screened out by the training: a bonus does not apply.");
    expect(db.$client.prepare("select review, bonus_cents as b from participants where id = ?").get(out.id)).toEqual(before);
    expect(logged()).toBe(log0);
    expect(reviewParticipant(db, coord, p.id, { participantId: out.id, review: "pending" })).toMatchObject({ review: "pending" });
    const mt = screened("mturk");
    expect(reviewParticipant(mt.db, mt.coord, mt.p.id, { participantId: mt.out.id, review: "approved" })).toMatchObject({ review: "approved" });
    expect(() => setBonus(mt.db, mt.coord, mt.p.id, { participantId: mt.out.id, bonus: "1.00" })).toThrow(/a bonus does not apply/);
  });

  it("Prolific's approve list and bonus file leave them out, whatever an older review said", () => {
    const { db, coord, p, study, out, done } = screened("prolific");
    db.$client.prepare("update participants set review = 'approved', bonus_cents = 100 where id in (?, ?)").run(out.id, done.id);
    expect(paymentFile(db, coord, p.id, study, "prolific-approve").text).toBe("DONE1\n");
    expect(paymentFile(db, coord, p.id, study, "prolific-bonus").text).toBe("DONE1,1.00\n");
  });
});
