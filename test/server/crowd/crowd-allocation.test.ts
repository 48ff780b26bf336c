/**
 * Batches with balanced overlap (lib/server/crowd/allocation.ts): many participants join, some
 * abandon, time moves on; every instance ends with exactly `overlap` answers from distinct
 * participants and no participant is given an instance twice. Release, resume, one batch per
 * platform id, which instances a batch holds, late instances, and on a big project the
 * allocation's statements read through their indexes.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../../db/client";
import { mulberry32 } from "../../../lib/lexsub/agreement";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { allocateBatch, CANDIDATES_SQL, EXPIRED_SQL, releaseBatch } from "../../../lib/server/crowd/allocation";
import { joinStudy } from "../../../lib/server/crowd/join";
import { createStudy, studySlotsWritten } from "../../../lib/server/crowd/studies";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { resetRateLimits } from "../../../lib/server/kernel/rate-limit";
import { setKnownAnswer } from "../../../lib/server/quality/training";
import { setExclusion } from "../../../lib/server/gold/gold";
import { bigProject } from "../../support/big-project";

const MIN = 60_000;
const T0 = 1_800_000_000_000;

beforeEach(() => {
  process.env.LEXGOLD_STUDY_JOIN_RATE = "off";
  process.env.LEXGOLD_ADDRESS_JOIN_RATE = "off";
  process.env.LEXGOLD_ADDRESS_REJOIN_RATE = "off";
  resetRateLimits();
});

const q = (db: Db, sql: string, ...args: unknown[]) => db.$client.prepare(sql).all(...args) as Record<string, number>[];
const one = (db: Db, sql: string, ...args: unknown[]) => db.$client.prepare(sql).get(...args) as Record<string, number>;

/** Answer an instance as the participant's user ("answered" is a row in responses). */
function answer(db: Db, userId: number, projectId: number, ref: number, now: number) {
  db.$client
    .prepare("insert into responses (project_id, instance_ref, user_id, kind, substitutes, revision, updated_at) values (?, ?, ?, 'NIL', '[]', 1, ?)")
    .run(projectId, ref, userId, now);
}

/** The items a participant holds now (not released), in batch order. */
const held = (db: Db, participantId: number) =>
  q(db, "select instance_ref as ref from batch_items where participant_id = ? and released_at is null order by position", participantId).map((r) => r.ref);

/** Each participant in a browser of their own: arriving again, it holds the key its first join issued. */
const keys = new Map<string, string>();
const join = async (db: Db, token: string, id: string, now: number) => {
  const j = await joinStudy(db, { token, params: { id }, address: "192.0.2.1", now, browserKey: () => keys.get(`${token} ${id}`) ?? null });
  if (j.issued.browserKey) keys.set(`${token} ${id}`, j.issued.browserKey);
  return j;
};

describe("balanced overlap under joins, abandonment and time", () => {
  it.each([
    { instances: 60, batch: 7, overlap: 3, seed: 1 },
    { instances: 45, batch: 10, overlap: 2, seed: 7 },
    { instances: 31, batch: 4, overlap: 5, seed: 42 },
  ])("$instances instances, batches of $batch, overlap $overlap: every instance ends with exactly K answers, none seen twice", async ({ instances, batch, overlap, seed }) => {
    const { db, projectId } = bigProject({ instances, answered: 0 });
    const study = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: batch, overlap, minutes: 10 });
    const rand = mulberry32(seed);
    let now = T0;
    let n = 0;
    const abandoned = new Set<number>();
    for (let step = 0; step < 2000; step++) {
      const open = one(db, "select count(*) as n from study_slots where study_id = ? and taken < ?", study.id, overlap).n;
      const answers = one(db, "select count(*) as n from responses").n;
      if (open === 0 && answers === instances * overlap) break;
      now += Math.floor(rand() * 4 * MIN);
      const joined = await join(db, study.token, `p${n++}`, now);
      const mine = held(db, joined.participantId);
      expect(mine.length).toBe(joined.items);
      expect(mine.length).toBeLessThanOrEqual(batch);
      // A quarter abandon part-way (their answers stay, the rest is released after 10 minutes); the others answer everything.
      const quits = rand() < 0.25;
      const upTo = quits ? Math.floor(rand() * mine.length) : mine.length;
      if (quits) abandoned.add(joined.participantId);
      for (const ref of mine.slice(0, upTo)) answer(db, joined.user.id, projectId, ref, now);
    }
    // Exactly K answers per instance, from K distinct participants (one response per user and instance).
    const perInstance = q(db, "select i.id, (select count(distinct r.user_id) from responses r where r.instance_ref = i.id) as n from instances i");
    expect(perInstance).toHaveLength(instances);
    expect(perInstance.filter((r) => r.n !== overlap)).toEqual([]);
    // Every answer lies in its participant's batch and was given once; taken agrees with the answers.
    expect(one(db, "select count(*) as n from responses r join participants p on p.user_id = r.user_id left join batch_items b on b.participant_id = p.id and b.instance_ref = r.instance_ref where b.instance_ref is null or b.released_at is not null").n).toBe(0);
    expect(one(db, "select count(*) as n from (select participant_id, instance_ref from batch_items group by 1, 2 having count(*) > 1)").n).toBe(0);
    expect(q(db, "select taken from study_slots where study_id = ? and taken <> ?", study.id, overlap)).toEqual([]);
    // Some batches were released (the abandoners'), and those participants are timed out.
    const timedOut = q(db, "select id from participants where state = 'timed-out'").map((r) => r.id);
    expect(timedOut.length).toBeGreaterThan(0);
    for (const id of timedOut) expect(abandoned.has(id)).toBe(true);
  });
});

describe("release, resume, one batch", () => {
  it("an expired batch gives its unanswered items back; its answers keep their place; the next participant gets the released items first", async () => {
    const { db, projectId } = bigProject({ instances: 12, answered: 0 });
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 4, overlap: 1, minutes: 30 });
    const a = await join(db, s.token, "ann", T0);
    const first = held(db, a.participantId);
    expect(first).toHaveLength(4);
    answer(db, a.user.id, projectId, first[0], T0 + MIN);
    answer(db, a.user.id, projectId, first[1], T0 + MIN);
    // Before the 30 minutes: nothing released.
    const b = await join(db, s.token, "bob", T0 + 29 * MIN);
    expect(held(db, a.participantId)).toEqual(first);
    expect(held(db, b.participantId).some((r) => first.includes(r))).toBe(false);
    // After: ann's two unanswered items go to the next participant, before any untouched instance.
    const c = await join(db, s.token, "cy", T0 + 31 * MIN);
    expect(held(db, a.participantId)).toEqual(first.slice(0, 2));
    expect(one(db, "select state from participants where id = ?", a.participantId)).toEqual({ state: "timed-out" });
    expect(q(db, "select instance_ref as ref, released_at as at from batch_items where participant_id = ? and released_at is not null order by position", a.participantId)).toEqual([
      { ref: first[2], at: T0 + 31 * MIN },
      { ref: first[3], at: T0 + 31 * MIN },
    ]);
    const cy = held(db, c.participantId);
    expect(cy).toHaveLength(4);
    expect(cy.filter((r) => first.includes(r)).sort()).toEqual([first[2], first[3]].sort());
    // bob's batch (given at 29 minutes) is not expired yet.
    expect(held(db, b.participantId)).toHaveLength(4);
  });

  it("arriving again resumes the same account and batch; a timed-out participant gets no second batch", async () => {
    const { db, projectId } = bigProject({ instances: 10, answered: 0 });
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 3, overlap: 2, minutes: 5 });
    const a = await join(db, s.token, "ann", T0);
    const again = await join(db, s.token, "ann", T0 + MIN);
    expect(again).toMatchObject({ resumed: true, participantId: a.participantId, user: { id: a.user.id }, items: 3 });
    expect(held(db, a.participantId)).toHaveLength(3);
    // Time out (another's join releases it), then come back: the same account, no new items.
    await join(db, s.token, "bob", T0 + 10 * MIN);
    expect(held(db, a.participantId)).toEqual([]);
    const late = await join(db, s.token, "ann", T0 + 11 * MIN);
    expect(late).toMatchObject({ resumed: true, user: { id: a.user.id }, items: 0 });
    expect(one(db, "select count(*) as n from batch_items where participant_id = ?", a.participantId).n).toBe(3);
    expect(one(db, "select count(*) as n from participants").n).toBe(2);
    // allocateBatch itself never gives a participant a second batch.
    expect(allocateBatch(db, a.participantId, T0 + 12 * MIN)).toMatchObject({ given: 0, items: 0 });
  });

  it("screening out (failed training) releases the batch at once, whatever the time, and marks the participant", async () => {
    const { db, projectId } = bigProject({ instances: 6, answered: 0 });
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 3, overlap: 1, minutes: 60 });
    const a = await join(db, s.token, "ann", T0);
    const mine = held(db, a.participantId);
    answer(db, a.user.id, projectId, mine[0], T0 + 1);
    expect(db.transaction(() => releaseBatch(db, a.participantId, T0 + 2, "screened-out"))).toBe(2);
    expect(one(db, "select state from participants where id = ?", a.participantId)).toEqual({ state: "screened-out" });
    expect(held(db, a.participantId)).toEqual([mine[0]]);
    const b = await join(db, s.token, "bob", T0 + 3);
    expect(held(db, b.participantId)).toEqual([mine[1], mine[2], held(db, b.participantId)[2]]);
    expect(mine).not.toContain(held(db, b.participantId)[2]);
  });

  it("a participant who found every place taken is given a batch when they come back after a release", async () => {
    const { db, projectId } = bigProject({ instances: 3, answered: 0 });
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 3, overlap: 1, minutes: 5 });
    await join(db, s.token, "ann", T0);
    const b = await join(db, s.token, "bob", T0 + MIN);
    expect(b.items).toBe(0);
    expect(one(db, "select batch_at as at from participants where id = ?", b.participantId)).toEqual({ at: null });
    expect((await join(db, s.token, "bob", T0 + 6 * MIN)).items).toBe(3);
  });
});

describe("what a batch holds", () => {
  const XML = (ids: string[]) =>
    `<?xml version="1.0"?><corpus lang="english"><lexelt item="bright.a">${ids.map((id) => `<instance id="${id}"><context>a <head>bright</head> ${id}</context></instance>`).join("")}</lexelt></corpus>`;

  it("training items never, hidden checks like any instance, gold-excluded instances not; instances imported later join the study", async () => {
    const { db, projectId } = bigProject({ instances: 0, answered: 0 });
    importLexeltXml(db, SYSTEM, projectId, { fileName: "a.xml", bytes: new TextEncoder().encode(XML(["a1", "a2", "a3", "a4"])) });
    setKnownAnswer(db, SYSTEM, projectId, { instanceId: "a1", role: "training", accepted: "clever" });
    setKnownAnswer(db, SYSTEM, projectId, { instanceId: "a2", role: "check", accepted: "clever" });
    const ids = (refs: number[]) => refs.map((r) => (one(db, "select instance_id as id from instances where id = ?", r) as unknown as { id: string }).id);
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 10, overlap: 1, minutes: 5 });
    expect(s.instances).toBe(3);
    // Excluded from the gold after the study opened: skipped at allocation.
    setExclusion(db, SYSTEM, projectId, "a3", "garbled");
    // Added after: a slot at the next allocation, after the others.
    importLexeltXml(db, SYSTEM, projectId, { fileName: "b.xml", bytes: new TextEncoder().encode(XML(["a5"])) });
    const a = await join(db, s.token, "ann", T0);
    expect(ids(held(db, a.participantId))).toEqual(["a2", "a4", "a5"]);
  });
});

describe("on a big project the allocation reads through its indexes", () => {
  it("100,000 instances: the candidates walk study_slots_fewest in order (no sort, no scan), the expired batches participants_study_state", async () => {
    const { db, projectId } = bigProject({ instances: 100_000, answered: 0 });
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 20, overlap: 3, minutes: 30 });
    // Its slots are written in slices after createStudy returns.
    expect(s.opening).toBe(true);
    expect(await studySlotsWritten(db, s.id)).toBe(100_000);
    const plan = (sql: string, ...args: unknown[]) => (db.$client.prepare(`explain query plan ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail);
    const candidates = plan(CANDIDATES_SQL, s.id, 3, 1, 20);
    expect(candidates[0]).toMatch(/^SEARCH ss USING (COVERING )?INDEX study_slots_fewest \(study_id=\? AND taken<\?\)$/);
    expect(candidates.join("\n")).not.toMatch(/TEMP B-TREE|^SCAN/m);
    const expired = plan(EXPIRED_SQL, s.id, T0);
    expect(expired[0]).toMatch(/^SEARCH p USING INDEX participants_study_state \(study_id=\? AND state=\? AND batch_at<\?\)$/);
    // Four joins: each takes 20 places, fewest taken first, then in corpus order, and touches nothing else.
    const refs = q(db, "select instance_ref as ref from study_slots where study_id = ? order by position", s.id).map((r) => r.ref);
    for (const [k, id] of ["ann", "bob", "cy", "dee"].entries()) {
      const p = await join(db, s.token, id, T0 + k);
      expect(held(db, p.participantId)).toEqual(refs.slice(20 * k, 20 * (k + 1)));
    }
    expect(one(db, "select count(*) as n, sum(taken) as t from study_slots where study_id = ? and taken > 0", s.id)).toEqual({ n: 80, t: 80 });
  }, 120_000);
});
