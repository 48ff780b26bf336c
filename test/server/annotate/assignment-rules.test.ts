import { describe, expect, it } from "vitest";
import { splitEvenly } from "../../../lib/lexsub/split";
import { applySplit, assignedLexeltIds, changeAssignments, listAssignments, previewSplit, setAssignments } from "../../../lib/server/annotate/assignments";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { pageOf } from "../../../lib/server/annotate/progress";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture } from "../../support/db";

describe("splitEvenly", () => {
  it("deals the largest lexelts first to the least loaded annotators, k each", () => {
    // Sizes 5, 3, 3, 2, 1 over annotators 10, 20, 30 with k = 2.
    //   a(5) → 10, 20 (loads 5 5 0); b(3) → 30, 10 (8 5 3); c(3) → 30, 20 (8 8 6);
    //   d(2) → 30, 10 (10 8 8); e(1) → 20, 30 (10 9 9).
    const lexelts = [
      { id: 1, instances: 3 }, // b
      { id: 2, instances: 5 }, // a
      { id: 3, instances: 1 }, // e
      { id: 4, instances: 3 }, // c
      { id: 5, instances: 2 }, // d
    ];
    const shares = splitEvenly(lexelts, [10, 20, 30], 2);
    expect(Object.fromEntries(shares)).toEqual({ 10: [1, 2, 5], 20: [2, 3, 4], 30: [1, 3, 4, 5] });
    // Every lexelt has exactly k annotators.
    for (const l of lexelts) expect([...shares.values()].filter((ids) => ids.includes(l.id))).toHaveLength(2);
  });

  it("gives everything to everyone when k is at least the number of annotators", () => {
    const shares = splitEvenly([{ id: 1, instances: 2 }, { id: 2, instances: 1 }], [7, 8], 3);
    expect(Object.fromEntries(shares)).toEqual({ 7: [1, 2], 8: [1, 2] });
  });

  it.each([0, -1, 1.5])("refuses k = %j", (k) => {
    expect(() => splitEvenly([{ id: 1, instances: 1 }], [1], k)).toThrow(RangeError);
  });
});

describe("pageOf", () => {
  const items = Array.from({ length: 7 }, (_, i) => i);
  it.each<[number, number[], number]>([
    [1, [0, 1, 2], 1],
    [3, [6], 3],
    [9, [6], 3],
    [0, [0, 1, 2], 1],
    [Number.NaN, [0, 1, 2], 1],
  ])("page %j of 7 rows, 3 a page", (page, rows, at) => {
    expect(pageOf(items, page, 3)).toEqual({ rows, page: at, pages: 3, total: 7 });
  });
  it("has one empty page for no rows", () => {
    expect(pageOf([], 2, 3)).toEqual({ rows: [], page: 1, pages: 1, total: 0 });
  });
});

const xml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="calm.a"><instance id="c1"><context>a <head>calm</head> sea</context></instance><instance id="c2"><context><head>calm</head> down</context></instance><instance id="c3"><context>stay <head>calm</head></context></instance></lexelt>
<lexelt item="hop.v"><instance id="h1"><context>birds <head>hop</head></context></instance><instance id="h2"><context><head>hop</head> on</context></instance></lexelt>
<lexelt item="keen.a"><instance id="k1"><context>a <head>keen</head> eye</context></instance></lexelt>
</corpus>
`;

function setup() {
  const f = projectFixture();
  const { db, coord, project } = f;
  importLexeltXml(db, coord, project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
  const bea = actorFor(db, "bea", "annotator");
  addMember(db, coord, project.id, "bea");
  const lexelt = (item: string) => (db.$client.prepare("select id from lexelts where item = ?").get(item) as { id: number }).id;
  return { ...f, bea, calm: lexelt("calm.a"), hop: lexelt("hop.v"), keen: lexelt("keen.a") };
}

describe("changeAssignments", () => {
  it("changes only the lexelts shown, keeping the others", () => {
    const { db, coord, ann, project, calm, hop, keen } = setup();
    // From everything: the page shows calm.a and hop.v, only hop.v ticked → hop.v and keen.a.
    expect(changeAssignments(db, coord, project.id, ann.userId, [calm, hop], [hop])).toBe(2);
    expect(assignedLexeltIds(db, project.id, ann.userId)).toEqual([hop, keen]);
    // Another page shows keen.a unticked → hop.v only.
    expect(changeAssignments(db, coord, project.id, ann.userId, [keen], [])).toBe(1);
    expect(assignedLexeltIds(db, project.id, ann.userId)).toEqual([hop]);
    // Ticking the rest back gives everything again: no rows, the default.
    expect(changeAssignments(db, coord, project.id, ann.userId, [calm, keen], [calm, keen])).toBe(3);
    expect(listAssignments(db, coord, project.id).find((a) => a.userId === ann.userId)?.lexeltIds).toBeNull();
  });

  it("refuses to leave nothing, or a lexelt ticked but not shown, writing nothing", () => {
    const { db, coord, ann, project, calm, hop, keen } = setup();
    setAssignments(db, coord, project.id, ann.userId, [hop]);
    expect(() => changeAssignments(db, coord, project.id, ann.userId, [hop], [])).toThrow(InputError);
    expect(() => changeAssignments(db, coord, project.id, ann.userId, [calm], [keen])).toThrow(InputError);
    expect(assignedLexeltIds(db, project.id, ann.userId)).toEqual([hop]);
  });
});

describe("previewSplit and applySplit", () => {
  it("previews without writing, then applies the same plan in one go", () => {
    const { db, coord, ann, bea, project, calm, hop, keen } = setup();
    // Sizes calm.a 3, hop.v 2, keen.a 1 over ann, bea (k = 1):
    //   calm.a → ann (3 0); hop.v → bea (3 2); keen.a → bea (3 3).
    const plan = previewSplit(db, coord, project.id, [bea.userId, ann.userId], 1);
    expect(plan).toEqual({
      k: 1,
      lexelts: 3,
      instances: 6,
      annotators: [
        { userId: ann.userId, name: "ann", lexelts: 1, instances: 3 },
        { userId: bea.userId, name: "bea", lexelts: 2, instances: 3 },
      ],
    });
    expect(listAssignments(db, coord, project.id).every((a) => a.lexeltIds === null)).toBe(true);
    expect(applySplit(db, coord, project.id, [bea.userId, ann.userId], 1)).toEqual(plan);
    expect(assignedLexeltIds(db, project.id, ann.userId)).toEqual([calm]);
    expect(assignedLexeltIds(db, project.id, bea.userId)).toEqual([hop, keen]);
  });

  it("with k = 2 over two annotators gives both everything (the default, no rows)", () => {
    const { db, coord, ann, bea, project, hop } = setup();
    setAssignments(db, coord, project.id, ann.userId, [hop]);
    applySplit(db, coord, project.id, [ann.userId, bea.userId], 2);
    expect(listAssignments(db, coord, project.id).map((a) => a.lexeltIds)).toEqual([null, null]);
  });

  it("refuses a bad k, no annotators, more annotators than lexelts can feed, and non-members", () => {
    const { db, coord, ann, bea, project } = setup();
    expect(() => previewSplit(db, coord, project.id, [ann.userId, bea.userId], 3)).toThrow(InputError);
    expect(() => previewSplit(db, coord, project.id, [ann.userId], 0)).toThrow(InputError);
    expect(() => previewSplit(db, coord, project.id, [], 1)).toThrow(InputError);
    const more = ["cyd", "dia"].map((n) => {
      const a = actorFor(db, n, "annotator");
      addMember(db, coord, project.id, n);
      return a.userId;
    });
    // 3 lexelts, k = 1, 4 annotators: someone would get nothing (which would mean everything).
    expect(() => applySplit(db, coord, project.id, [ann.userId, bea.userId, ...more], 1)).toThrow(InputError);
    expect(listAssignments(db, coord, project.id).every((a) => a.lexeltIds === null)).toBe(true);
    const stranger = actorFor(db, "stranger", "annotator");
    expect(() => applySplit(db, coord, project.id, [stranger.userId], 1)).toThrow(NotFoundError);
    expect(() => applySplit(db, ann, project.id, [ann.userId], 1)).toThrow(AuthError);
  });
});
