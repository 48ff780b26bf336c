/**
 * Issue #27, finding 12 (the small items that leak or trust too much):
 * - the responses-import preview told a coordinator whether any name is an
 *   account on the server, and its role;
 * - time on task (`activeMs`) came from the browser;
 * - the TSAR import accepted NUL and other control characters in sentences.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { SYSTEM } from "../../lib/server/kernel/actor";
import { importDataset } from "../../lib/server/datasets/datasets";
import { InputError } from "../../lib/server/kernel/errors";
import { projectProgress } from "../../lib/server/annotate/progress";
import { previewResponses } from "../../lib/server/annotate/response-import";
import { MAX_TIMED_GAP_MS, saveResponse } from "../../lib/server/annotate/responses";
import { setQualitySettings } from "../../lib/server/quality/training";
import { createUser } from "../../lib/server/people/users";
import { NIL, world } from "./world";

const HEADER = "annotator\tlexelt\tinstance\tanswer\tmultiword\n";

function refusal(f: () => unknown): string[] {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e.details;
    throw e;
  }
  throw new Error("not refused");
}

describe("finding 12: the responses-import preview says nothing about accounts outside the project", () => {
  it("no account, another project's annotator, another project's coordinator, an admin and this project's coordinator all read the same", () => {
    const w = world();
    createUser(w.db, SYSTEM, { name: "root", role: "admin", password: "admin-river-lamp" });
    const names = ["nobody", "annq", "coordq", "root", "coord"];
    const text = HEADER + names.map((n) => `${n}\tbright.a\tp2\tclever\t`).join("\n") + "\n";
    const details = refusal(() => previewResponses(w.db, w.coord, w.p.id, { fileName: "r.tsv", text }));
    expect(details).toEqual(names.map((n, i) => `r.tsv:${i + 2}: error: "${n}" is not an annotator of this project (add them on the Team page)`));
    expect(details.join("\n")).not.toMatch(/no user|coordinator|admin|account|member/);
  });
});

describe("finding 12: the TSAR import refuses control characters, naming file and line", () => {
  it.each([
    ["NUL", "\u0000"],
    ["a bell", "\u0007"],
    ["an escape", "\u001b"],
    ["DEL", "\u007f"],
    ["a C1 control Windows-1252 leaves unassigned", "\u0081"],
  ])("%s in a sentence is refused and nothing is written", (_what, c) => {
    const w = world();
    const count = () => (w.db.$client.prepare("select count(*) as n from instances").get() as { n: number }).n;
    const before = count();
    const text = `a swift reply\tswift\tquick\nthe plant${c} grew\tplant\ttree\n`;
    let message = "";
    try {
      importDataset(w.db, w.coord, w.p.id, { format: "tsar", fileName: "t.tsv", bytes: new TextEncoder().encode(text) });
    } catch (e) {
      message = [(e as Error).message, ...((e as InputError).details ?? [])].join("\n");
    }
    expect(message).toMatch(/t\.tsv:2\b.*control character/);
    expect(count()).toBe(before);
  });

  it("a C1 control Windows-1252 prints (a Windows-1252 file read as Latin-1) is read as its letter and reported; no control is stored", () => {
    const w = world();
    const r = importDataset(w.db, w.coord, w.p.id, { format: "tsar", fileName: "t.tsv", bytes: new TextEncoder().encode("a swift reply\tswift\tquick\nthe plant\u0085 grew\tplant\ttree\n") });
    expect(r.instancesAdded).toBe(2);
    expect(JSON.stringify(r)).toMatch(/U\+0085 as \\"…\\"/);
    const stored = w.db.$client.prepare(`select "before" || head || "after" as t from instances where head = 'plant'`).get() as { t: string } | undefined;
    expect(stored?.t ?? "").not.toMatch(/[\u0080-\u009f]/);
    expect(stored?.t).toContain("plant… grew");
  });

  it("control characters in the complex word or an annotation are refused too; tabs separate cells as before", () => {
    const w = world();
    for (const text of ["a swift reply\tswi\u0000ft\tquick\n", "a swift reply\tswift\tqu\u0001ick\n"]) {
      expect(() => importDataset(w.db, w.coord, w.p.id, { format: "tsar", fileName: "t.tsv", bytes: new TextEncoder().encode(text) })).toThrow(/t\.tsv:1\b.*control character/);
    }
    expect(importDataset(w.db, w.coord, w.p.id, { format: "tsar", fileName: "t.tsv", bytes: new TextEncoder().encode("a swift reply\tswift\tquick\r\n") }).instancesAdded).toBe(1);
  });
});

describe("finding 12: time on task is the server's, not the browser's", () => {
  afterEach(() => vi.useRealTimers());

  /** A world whose clock the test moves: ann's seeded save at T0. */
  function timed() {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-01-05T09:00:00Z"));
    const w = world();
    setQualitySettings(w.db, SYSTEM, w.p.id, { trainingRequired: false, trainingThreshold: 60, speedThresholdSeconds: 4 });
    return w;
  }
  const activeOf = (w: ReturnType<typeof world>, ref: number) =>
    (w.db.$client.prepare("select active_ms as ms from responses where instance_ref = ? and user_id = ?").get(ref, w.ann.userId) as { ms: number | null }).ms;

  it("a browser that claims a minute per item while answering every second is recorded at a second, and flagged too fast", () => {
    const w = timed();
    vi.advanceTimersByTime(1000);
    saveResponse(w.db, w.ann, w.p.id, w.ref.p2, NIL, { expectedRevision: 0, activeMs: 60_000 });
    expect(activeOf(w, w.ref.p2)).toBe(1000);
    const me = projectProgress(w.db, SYSTEM, w.p.id).annotators.find((a) => a.name === "ann")!;
    expect(me).toMatchObject({ timed: 1, medianSeconds: 1, tooFast: true });
  });

  it("a browser's small or junk activeMs changes nothing either; a break is not time on task", () => {
    const w = timed();
    vi.advanceTimersByTime(7000);
    saveResponse(w.db, w.ann, w.p.id, w.ref.p2, NIL, { expectedRevision: 0, activeMs: -5 });
    expect(activeOf(w, w.ref.p2)).toBe(7000);
    // p1's second revision: an update does not change the time of the first answer.
    vi.advanceTimersByTime(3000);
    saveResponse(w.db, w.ann, w.p.id, w.ref.p1, NIL, { expectedRevision: 1, activeMs: "lots" });
    expect(activeOf(w, w.ref.p1)).toBe(null);
    // After a break longer than MAX_TIMED_GAP_MS the next answer carries no time.
    const lexelt = w.db.$client.prepare("select id from lexelts where project_id = ? and item = 'keen.a'").get(w.p.id) as { id: number };
    const p3 = (w.db.$client.prepare("select id from instances where lexelt_id = ?").get(lexelt.id) as { id: number }).id;
    vi.advanceTimersByTime(MAX_TIMED_GAP_MS + 1);
    saveResponse(w.db, w.ann, w.p.id, p3, NIL, { expectedRevision: 0, activeMs: 5000 });
    expect(activeOf(w, p3)).toBe(null);
  });
});
