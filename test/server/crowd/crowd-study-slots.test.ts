/**
 * The study list's counts kept on the studies row (drizzle/0023's triggers) and big studies opened
 * in slices (lib/server/crowd/studies.ts): the kept counts equal a recount after a random run of
 * joins, answers, abandonment and release, screen-outs and deletions; the list reads the same
 * statements whatever the study's size; a study bigger than a slice is written a slice at a time
 * with other writes between, takes nobody until complete, and a half-written one is finished.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../../db/client";
import { mulberry32 } from "../../../lib/lexsub/agreement";
import { releaseBatch, topUpScans } from "../../../lib/server/crowd/allocation";
import { openDb } from "../../../db/client";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { projectFixture } from "../../support/db";
import { joinStudy } from "../../../lib/server/crowd/join";
import { createStudy, listStudies, resumeOpeningStudies, SLOTS_SLICE, studySlotsWritten } from "../../../lib/server/crowd/studies";
import { SYSTEM } from "../../../lib/server/kernel/actor";
import { resetRateLimits } from "../../../lib/server/kernel/rate-limit";
import { writeTransaction } from "../../../lib/server/kernel/write-lock";
import { bigProject } from "../../support/big-project";
import { recordStatements } from "../../support/statements";

const MIN = 60_000;
const T0 = 1_800_000_000_000;

beforeEach(() => {
  process.env.LEXGOLD_STUDY_JOIN_RATE = "off";
  process.env.LEXGOLD_ADDRESS_JOIN_RATE = "off";
  resetRateLimits();
});

const one = (db: Db, sql: string, ...args: unknown[]) => db.$client.prepare(sql).get(...args) as Record<string, number>;
const join = (db: Db, token: string, id: string, now: number) => joinStudy(db, { token, params: { id }, address: "192.0.2.1", now });

/** The list's counts as the study's rows give them. */
function recount(db: Db, studyId: number) {
  return one(
    db,
    `select (select count(*) from participants where study_id = s.id) as participants,
            (select count(*) from study_slots where study_id = s.id) as instances,
            (select coalesce(sum(taken), 0) from study_slots where study_id = s.id) as placesTaken,
            (select count(*) from study_slots where study_id = s.id and taken >= s.overlap) as "full"
       from studies s where s.id = ?`,
    studyId,
  );
}

const listed = (db: Db, projectId: number, studyId: number) => {
  const s = listStudies(db, SYSTEM, projectId).find((r) => r.id === studyId)!;
  return { participants: s.participants, instances: s.instances, placesTaken: s.placesTaken, full: s.full };
};

describe("the study list's counts, kept on the studies row", () => {
  it.each([1, 2, 3])("equal a recount after a random run of joins, answers, abandonment, release, screen-outs and deletions (seed %i)", async (seed) => {
    const { db, projectId } = bigProject({ instances: 80, answered: 0 });
    const study = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 6, overlap: 3, minutes: 10 });
    const other = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 4, overlap: 2, minutes: 10 });
    const rand = mulberry32(seed);
    let now = T0;
    const answer = db.$client.prepare("insert or ignore into responses (project_id, instance_ref, user_id, kind, substitutes, revision, updated_at) values (?, ?, ?, 'NIL', '[]', 1, ?)");
    for (let step = 0; step < 120; step++) {
      now += Math.floor(rand() * 3 * MIN);
      const s = rand() < 0.8 ? study : other;
      const r = rand();
      if (r < 0.6) {
        const joined = await join(db, s.token, `p${step}`, now);
        const mine = db.$client.prepare("select instance_ref as ref from batch_items where participant_id = ? and released_at is null").all(joined.participantId) as { ref: number }[];
        // Some answer everything, some part (the rest is released when their time is up), some nothing.
        const upTo = rand() < 0.3 ? Math.floor(rand() * mine.length) : mine.length;
        for (const { ref } of mine.slice(0, upTo)) answer.run(projectId, ref, joined.user.id, now);
      } else if (r < 0.75) {
        // A screen-out: the training failed, the batch's places go back.
        const p = db.$client.prepare("select id from participants where study_id = ? and state = 'active' order by random() limit 1").get(s.id) as { id: number } | undefined;
        if (p) db.$client.transaction(() => releaseBatch(db, p.id, now, "screened-out"))();
      } else if (r < 0.85) {
        // A participant's account deleted (their participants row goes with it).
        const p = db.$client.prepare("select user_id as u from participants where study_id = ? order by random() limit 1").get(s.id) as { u: number } | undefined;
        if (p) db.$client.prepare("delete from users where id = ?").run(p.u);
      } else if (r < 0.9) {
        // An instance deleted from the corpus: its slots go with it.
        db.$client.prepare("delete from instances where id = (select instance_ref from study_slots where study_id = ? order by random() limit 1)").run(s.id);
      }
      expect(listed(db, projectId, study.id)).toEqual(recount(db, study.id));
      expect(listed(db, projectId, other.id)).toEqual(recount(db, other.id));
    }
    // The run went through places taken, full instances and releases, not only the empty state.
    const end = recount(db, study.id);
    expect(end.participants).toBeGreaterThan(10);
    expect(end.full).toBeGreaterThan(0);
    expect(one(db, "select count(*) as n from batch_items where released_at is not null").n).toBeGreaterThan(0);
  });

  it("the migration fills the counts of studies opened before it from their rows", async () => {
    const { db, projectId } = bigProject({ instances: 40, answered: 0 });
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 7, overlap: 2, minutes: 10 });
    for (const id of ["a", "b", "c", "d", "e", "f", "g"]) await join(db, s.token, id, T0);
    const kept = recount(db, s.id);
    expect(kept).toMatchObject({ participants: 7, instances: 40, placesTaken: 49 });
    expect(kept.full).toBeGreaterThan(0);
    // As a database from before 0022 has them: every count 0.
    db.$client.prepare("update studies set participant_count = 0, instance_count = 0, places_taken = 0, full_count = 0").run();
    const migration = fs.readFileSync(path.resolve(import.meta.dirname, "../../../drizzle/0023_crowd_study_counts_backfill.sql"), "utf8");
    const backfill = migration.split("--> statement-breakpoint").find((st) => /^\s*UPDATE `studies` SET/m.test(st) && !/CREATE TRIGGER/.test(st))!;
    db.$client.exec(backfill);
    expect(listed(db, projectId, s.id)).toEqual(kept);
  });

  /** Every statement fn runs (its SQL) and the rows they returned (test/support/statements.ts). */
  const recorded = (db: Db, fn: () => void): { sql: string[]; rows: number } => recordStatements(db, fn);

  it("the list runs the same statements and reads the same rows for a study opened in one statement and one of 30,000 instances, none on slots or participants", { timeout: 120_000 }, async () => {
    const runs = await Promise.all(
      [SLOTS_SLICE, 30_000].map(async (instances) => {
        const b = bigProject({ instances, answered: 0 });
        const s = createStudy(b.db, SYSTEM, b.projectId, { platform: "link", batchSize: 10, overlap: 2, minutes: 30 });
        await studySlotsWritten(b.db, s.id);
        for (const id of ["a", "b", "c"]) await join(b.db, s.token, id, T0);
        let list: ReturnType<typeof listStudies> = [];
        const r = recorded(b.db, () => (list = listStudies(b.db, SYSTEM, b.projectId)));
        expect(list).toEqual([expect.objectContaining({ participants: 3, instances, placesTaken: 30, full: 0, opening: false })]);
        return { b, r };
      }),
    );
    expect(runs[1].r.sql).toEqual(runs[0].r.sql);
    expect(runs[1].r.rows).toBe(runs[0].r.rows);
    for (const sql of new Set(runs[1].r.sql)) {
      expect(sql).not.toMatch(/study_slots|participants/);
      const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1);
      const plan = (runs[1].b.db.$client.prepare(`explain query plan ${sql}`).all(...params) as { detail: string }[]).map((p) => p.detail);
      expect(plan.filter((d) => /^SCAN/.test(d))).toEqual([]);
    }
  });
});

describe("a study bigger than a slice opens in slices", () => {
  it("writes a slice at a time with other writes committed between, takes nobody until complete, then hands out batches", async () => {
    const total = SLOTS_SLICE * 2 + 500;
    const { db, projectId, refs } = bigProject({ instances: total, answered: 0 });
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 5, overlap: 2, minutes: 30 });
    // createStudy returned after its first slice: the rest is written after, in the background.
    expect(s.opening).toBe(true);
    const kept = () => one(db, "select instance_count as n, slots_ready as ready from studies where id = ?", s.id);
    expect(kept()).toEqual({ n: SLOTS_SLICE, ready: 0 });
    expect(listStudies(db, SYSTEM, projectId)[0]).toMatchObject({ opening: true, instances: SLOTS_SLICE });
    // Nobody joins, and nothing is written for them, until the slots are complete.
    await expect(join(db, s.token, "early", T0)).rejects.toThrow("This study is still being opened: try again in a minute.");
    expect(one(db, "select count(*) as n from participants").n).toBe(0);
    // Other writes, queued one after another while the study opens: each sees the slots of whole slices only.
    const seen: number[] = [];
    const writes = (async () => {
      while (kept().ready === 0) {
        seen.push(await writeTransaction(db, () => one(db, "select count(*) as n from study_slots where study_id = ?", s.id).n));
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    })();
    expect(await studySlotsWritten(db, s.id)).toBe(total);
    await writes;
    // Some ran after the second slice and before the last: the open did not hold the write lock or the event loop throughout.
    expect(seen).toContain(SLOTS_SLICE * 2);
    // (Or all of them, when a write queued before the last slice committed goes in the same batch, after it.)
    expect(seen.every((n) => n === SLOTS_SLICE || n === SLOTS_SLICE * 2 || n === total)).toBe(true);
    // Every instance once, in corpus order, as a study opened in one statement has them.
    const slots = db.$client.prepare("select instance_ref as ref, position from study_slots where study_id = ? order by position").all(s.id) as { ref: number; position: number }[];
    expect(slots.map((r) => r.ref)).toEqual(refs);
    expect(slots.map((r) => r.position)).toEqual(refs.map((_, k) => k + 1));
    expect(kept()).toEqual({ n: total, ready: 1 });
    const p = await join(db, s.token, "first", T0);
    expect(p.items).toBe(5);
  });

  it("a study left half-written (the server stopped) hands out nothing, and is finished by the next arrival", async () => {
    const total = SLOTS_SLICE + 700;
    const { db, projectId, refs } = bigProject({ instances: total, answered: 0 });
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 5, overlap: 2, minutes: 30 });
    await studySlotsWritten(db, s.id);
    // As a killed server leaves it: some slots written, the study not ready.
    db.$client.prepare("delete from study_slots where study_id = ? and position > ?").run(s.id, 600);
    db.$client.prepare("update studies set slots_ready = 0, slots_after = ? where id = ?").run(refs[599], s.id);
    expect(listStudies(db, SYSTEM, projectId)[0]).toMatchObject({ opening: true, instances: 600 });
    await expect(join(db, s.token, "early", T0)).rejects.toThrow("still being opened");
    // The list and the arrival took it up again in the background; waiting for it joins that run.
    expect(await studySlotsWritten(db, s.id)).toBe(total);
    const slots = (db.$client.prepare("select instance_ref as ref from study_slots where study_id = ? order by position").all(s.id) as { ref: number }[]).map((r) => r.ref);
    expect(slots).toEqual(refs);
    expect((await join(db, s.token, "later", T0)).items).toBe(5);
  });

  it("a study left half-written is taken up again when a server starts, without anyone looking at it", async () => {
    const total = SLOTS_SLICE + 300;
    const { db, projectId, refs } = bigProject({ instances: total, answered: 0 });
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 5, overlap: 2, minutes: 30 });
    await studySlotsWritten(db, s.id);
    expect(resumeOpeningStudies(db)).toEqual([]);
    db.$client.prepare("delete from study_slots where study_id = ? and position > ?").run(s.id, 200);
    db.$client.prepare("update studies set slots_ready = 0, slots_after = ? where id = ?").run(refs[199], s.id);
    expect(resumeOpeningStudies(db)).toEqual([s.id]);
    // Written in the background: nobody asks for the study here, the event loop turns.
    await expect
      .poll(() => one(db, "select slots_ready as ready, count(*) as n from studies join study_slots on study_id = studies.id where studies.id = ?", s.id))
      .toEqual({ ready: 1, n: total });
    const slots = (db.$client.prepare("select instance_ref as ref from study_slots where study_id = ? order by position").all(s.id) as { ref: number }[]).map((r) => r.ref);
    expect(slots).toEqual(refs);
  });

  it("the instance written last deleted while the study opens: the next slice starts over, skips what has a slot, and numbers on after the last", async () => {
    const total = SLOTS_SLICE + 300;
    const { db, projectId, refs } = bigProject({ instances: total, answered: 0 });
    const s = createStudy(db, SYSTEM, projectId, { platform: "link", batchSize: 5, overlap: 2, minutes: 30 });
    const after = (db.$client.prepare("select slots_after as a from studies where id = ?").get(s.id) as { a: number }).a;
    expect(after).toBe(refs[SLOTS_SLICE - 1]);
    db.$client.prepare("delete from instances where id = ?").run(after);
    expect(await studySlotsWritten(db, s.id)).toBe(total - 1);
    const slots = db.$client.prepare("select instance_ref as ref, position from study_slots where study_id = ? order by position").all(s.id) as { ref: number; position: number }[];
    expect(slots.map((r) => r.ref)).toEqual(refs.filter((r) => r !== after));
    expect(new Set(slots.map((r) => r.position)).size).toBe(total - 1);
    expect(listStudies(db, SYSTEM, projectId)[0]).toMatchObject({ opening: false, instances: total - 1 });
  });
});

describe("topping up a study's slots (#38, finding 9)", () => {
  it("reads the project once after an import, in whichever process allocates first; never at a process's first join otherwise", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lexgold-top-up-"));
    try {
      const file = path.join(dir, "t.db");
      const { db, coord, project } = projectFixture(file);
      const xml = (ids: string[]) =>
        new TextEncoder().encode(`<?xml version="1.0"?><corpus lang="english"><lexelt item="x.n">${ids.map((id) => `<instance id="${id}"><context>an <head>x</head> ${id}</context></instance>`).join("")}</lexelt></corpus>`);
      importLexeltXml(db, coord, project.id, { fileName: "a.xml", bytes: xml(["a1", "a2", "a3", "a4"]) });
      const s = createStudy(db, SYSTEM, project.id, { platform: "link", batchSize: 1, overlap: 1, minutes: 30 });
      // Another server process: its own connection to the file.
      const other = openDb(file);
      await join(other, s.token, "first", T0);
      await join(db, s.token, "second", T0);
      expect([topUpScans(db), topUpScans(other)]).toEqual([0, 0]);
      // An import: the next allocation, in either process, reads the project once and gives the new instances their slots.
      importLexeltXml(db, coord, project.id, { fileName: "b.xml", bytes: xml(["a1", "a2", "a3", "a4", "b1", "b2"]) });
      await join(other, s.token, "third", T0);
      await join(db, s.token, "fourth", T0);
      expect([topUpScans(db), topUpScans(other)]).toEqual([0, 1]);
      expect(one(db, "select count(*) as n from study_slots where study_id = ?", s.id).n).toBe(6);
      other.$client.close();
      db.$client.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
