import { describe, expect, it } from "vitest";
import { type AckedSave, type StoredRow, checkAcknowledged, lostAndDoubled } from "../../bench/lib/acks";

const ack = (userId: number, instanceRef: number, revision: number, subs: string[], multiword: string | null = null): AckedSave => ({
  userId,
  instanceRef,
  revision,
  kind: subs.length ? "substitutes" : "NIL",
  substitutes: subs,
  multiword,
});
const row = (a: AckedSave, over: Partial<StoredRow> = {}): StoredRow => ({
  userId: a.userId,
  instanceRef: a.instanceRef,
  revision: a.revision,
  kind: a.kind,
  substitutes: JSON.stringify(a.substitutes),
  multiword: a.multiword,
  ...over,
});

describe("checkAcknowledged", () => {
  const a1 = ack(1, 10, 1, ["t1x", "t1y"]);
  const a2 = ack(1, 10, 2, ["t2x"], "t2 over");
  const a3 = ack(2, 11, 1, []);

  it("passes when every acknowledged save is stored once and the current response is the latest", () => {
    const r = checkAcknowledged([a1, a2, a3], [row(a1), row(a2), row(a3)], [row(a2), row(a3)]);
    expect(r.present).toBe(3);
    expect(lostAndDoubled(r)).toEqual({ lost: 0, doubled: 0 });
  });

  it("finds a save missing from the history and a current response left behind", () => {
    const r = checkAcknowledged([a1, a2], [row(a1)], [row(a1)]);
    expect(r.missing).toEqual([a2]);
    expect(r.currentBehind).toEqual([a2]);
    expect(lostAndDoubled(r).lost).toBe(1); // one save, counted once
  });

  it("finds a save stored twice, by its unique substitute and by its revision", () => {
    const again = row(a1, { revision: 3 }); // the same substitutes written a second time
    const r = checkAcknowledged([a1], [row(a1), again], [row(a1, { revision: 3 })]);
    expect(r.doubled).toEqual([a1]);
    const twiceAtOneRevision = checkAcknowledged([a3], [row(a3), row(a3)], [row(a3)]);
    expect(twiceAtOneRevision.doubled).toEqual([a3]);
    expect(twiceAtOneRevision.duplicateRevisions).toBe(1);
    expect(lostAndDoubled(twiceAtOneRevision).doubled).toBe(1);
  });

  it("finds other content at the acknowledged revision, in the history or the current response", () => {
    const r = checkAcknowledged([a2], [row(a2, { substitutes: '["other"]' })], [row(a2, { multiword: null })]);
    expect(r.mismatched).toEqual([a2]);
    expect(r.currentMismatched).toEqual([a2]);
    expect(lostAndDoubled(r).lost).toBe(1);
  });

  it("accepts a current response newer than the last acknowledged save (an unanswered save that landed)", () => {
    const r = checkAcknowledged([a1], [row(a1), row(ack(1, 10, 2, ["late"]))], [row(ack(1, 10, 2, ["late"]))]);
    expect(lostAndDoubled(r)).toEqual({ lost: 0, doubled: 0 });
  });
});
