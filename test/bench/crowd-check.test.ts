import { describe, expect, it } from "vitest";
import { type CrowdRows, checkOverlap } from "../../bench/lib/crowd-check";
import { planParticipants } from "../../bench/lib/crowd-run";
import { prolificId } from "../../bench/lib/crowd-seed";

// Three participants (ids 1–3, accounts 101–103), overlap K = 2, instances 10, 11, 12.
const participants = [
  { id: 1, userId: 101, platformId: "a".repeat(24) },
  { id: 2, userId: 102, platformId: "b".repeat(24) },
  { id: 3, userId: 103, platformId: "c".repeat(24) },
];
const base = (): CrowdRows => ({
  overlap: 2,
  slots: [
    { ref: 10, taken: 2 }, // held by 1 and 2, both answered: complete
    { ref: 11, taken: 2 }, // held by 2 and 3, only 3 answered: given out, not all answered
    { ref: 12, taken: 1 }, // 3's place released (timed out), 1 holds it and answered
  ],
  participants,
  items: [
    { participantId: 1, ref: 10, released: false },
    { participantId: 2, ref: 10, released: false },
    { participantId: 2, ref: 11, released: false },
    { participantId: 3, ref: 11, released: false },
    { participantId: 3, ref: 12, released: true },
    { participantId: 1, ref: 12, released: false },
  ],
  answers: [
    { userId: 101, ref: 10 },
    { userId: 102, ref: 10 },
    { userId: 103, ref: 11 },
    { userId: 101, ref: 12 },
    // The coordinator's answer is no participant's: not counted.
    { userId: 1, ref: 10 },
  ],
});

describe("checkOverlap", () => {
  it("counts instances at K and those whose places were all given and answered, with nothing wrong", () => {
    const c = checkOverlap(base());
    expect(c).toMatchObject({ instances: 3, reachedK: 1, placesAllGiven: 2, allAnswered: 1, exactlyK: 1, twice: 0, outsideBatch: 0, platformIdTwice: 0, itemTwice: 0 });
    expect(c.overK).toEqual([]);
    expect(c.notExactlyK).toEqual([]);
    expect(c.takenMismatch).toEqual([]);
  });

  it("reports an instance with more than K answers, and the answer outside the batch that made it", () => {
    const rows = base();
    rows.answers = [...rows.answers, { userId: 103, ref: 10 }];
    const c = checkOverlap(rows);
    expect(c.overK).toEqual([10]);
    expect(c.notExactlyK).toEqual([10]);
    expect(c.outsideBatch).toBe(1);
  });

  it("counts an answer to a released place as outside the batch", () => {
    const rows = base();
    rows.answers = [...rows.answers, { userId: 103, ref: 12 }];
    const c = checkOverlap(rows);
    expect(c.outsideBatch).toBe(1);
    expect(c.reachedK).toBe(2);
  });

  it("reports K answers that are not from K distinct participants", () => {
    const rows = base();
    rows.answers = [{ userId: 101, ref: 10 }, { userId: 101, ref: 10 }, ...rows.answers.slice(2)];
    const c = checkOverlap(rows);
    expect(c.twice).toBe(1);
    expect(c.notExactlyK).toEqual([10]);
    expect(c.exactlyK).toBe(0);
  });

  it("reports a slot whose count differs from the places held, an instance given twice and a platform id used twice", () => {
    const rows = base();
    rows.slots = [{ ref: 10, taken: 2 }, { ref: 11, taken: 1 }, { ref: 12, taken: 1 }];
    rows.items = [...rows.items, { participantId: 1, ref: 12, released: false }];
    rows.participants = [...participants, { id: 4, userId: 104, platformId: "a".repeat(24) }];
    const c = checkOverlap(rows);
    expect(c.takenMismatch).toEqual([11, 12]);
    expect(c.itemTwice).toBe(1);
    expect(c.platformIdTwice).toBe(1);
  });
});

describe("planParticipants", () => {
  const plans = planParticipants({ participants: 200, joinWithinSec: 60, batch: 10, abandon: 0.2, resume: 0.1, replaceAfterSec: 305, replaceWithinSec: 30, seed: 1 });
  const main = plans.filter((p) => p.role !== "replacement");
  const abandoners = plans.filter((p) => p.role === "abandoner");
  const replacements = plans.filter((p) => p.role === "replacement");

  it("spreads the joins over the window and brings one replacement per abandoner after the abandoned batches expired", () => {
    expect(main).toHaveLength(200);
    expect(abandoners.length).toBeGreaterThan(0);
    expect(replacements).toHaveLength(abandoners.length);
    for (const p of main) expect(p.joinAt).toBeGreaterThanOrEqual(0), expect(p.joinAt).toBeLessThanOrEqual(60_000);
    for (const p of replacements) expect(p.joinAt).toBeGreaterThanOrEqual(305_000), expect(p.joinAt).toBeLessThanOrEqual(335_000);
  });

  it("has abandoners leave with part of their batch unanswered, and only others arrive again", () => {
    for (const p of abandoners) {
      expect(p.stopAfter).toBeGreaterThanOrEqual(1);
      expect(p.stopAfter).toBeLessThanOrEqual(9);
      expect(p.resumeAfter).toBeNull();
    }
    expect(plans.filter((p) => p.resumeAfter !== null).every((p) => p.role === "finisher")).toBe(true);
  });

  it("gives everyone Prolific-shaped ids and an address of their own", () => {
    for (const p of plans) expect(p.prolificPid).toMatch(/^[0-9a-f]{24}$/), expect(p.sessionId).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(plans.map((p) => p.prolificPid)).size).toBe(plans.length);
    expect(new Set(plans.map((p) => p.address)).size).toBe(plans.length);
  });
});

describe("prolificId", () => {
  it("gives distinct ids of Prolific's shape", () => {
    const ids = [0, 14, 238, 0xeee, 1_000_000].map(prolificId);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
