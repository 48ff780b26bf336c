import { describe, expect, it } from "vitest";
import { responses } from "../../../db/schema";
import { setAssignments } from "../../../lib/server/annotate/assignments";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, NotFoundError } from "../../../lib/server/kernel/errors";
import { median, progressPageView, projectProgress, timedMedian } from "../../../lib/server/annotate/progress";
import { setRequiredAnnotators } from "../../../lib/server/people/team";
import { addMember } from "../../../lib/server/people/users";
import { actorFor, projectFixture } from "../../support/db";
import { seedParticipant, seedStudy } from "../../support/crowd";
import { createProject } from "../../../lib/server/corpus/projects";
import { recordStatements } from "../../support/statements";

const xml = `<?xml version="1.0"?>
<corpus lang="english">
<lexelt item="calm.a"><instance id="c1"><context>a <head>calm</head> sea</context></instance><instance id="c2"><context><head>calm</head> down</context></instance></lexelt>
<lexelt item="hop.v"><instance id="h1"><context>birds <head>hop</head></context></instance></lexelt>
</corpus>
`;

describe("median", () => {
  it.each<[number[], number | null]>([
    [[], null],
    [[5], 5],
    [[4000, 10000, 7000], 7000],
    [[2000, 5000], 3500],
    [[9, 1, 5, 3], 4],
  ])("of %j is %j", (values, expected) => {
    expect(median(values)).toBe(expected);
  });
});

/**
 * calm.a (c1, c2) and hop.v (h1). ann is restricted to calm.a; bea and cleo annotate
 * everything; the coordinator also answered c2 (untimed).
 *   ann:   c1 4 s @1000, c2 10 s @3000, h1 7 s @2000 (outside her assignment)
 *   bea:   c1 2 s @500,  h1 5 s @600
 *   coord: c2 (no time) @100
 */
function setup() {
  const f = projectFixture();
  const { db, coord, ann, project } = f;
  importLexeltXml(db, coord, project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
  const bea = actorFor(db, "bea", "annotator");
  const cleo = actorFor(db, "cleo", "annotator");
  addMember(db, coord, project.id, "bea");
  addMember(db, coord, project.id, "cleo");
  const ref = (id: string) => (db.$client.prepare("select id from instances where instance_id = ?").get(id) as { id: number }).id;
  const lexelt = (item: string) => (db.$client.prepare("select id from lexelts where item = ?").get(item) as { id: number }).id;
  setAssignments(db, coord, project.id, ann.userId, [lexelt("calm.a")]);
  const answer = (userId: number, instance: string, activeMs: number | null, at: number) =>
    db.insert(responses).values({ projectId: project.id, instanceRef: ref(instance), userId, kind: "NIL", activeMs, updatedAt: new Date(at) }).run();
  answer(ann.userId, "c1", 4000, 1000);
  answer(ann.userId, "c2", 10000, 3000);
  answer(ann.userId, "h1", 7000, 2000);
  answer(bea.userId, "c1", 2000, 500);
  answer(bea.userId, "h1", 5000, 600);
  answer(coord.userId, "c2", null, 100);
  return { ...f, bea, cleo };
}

describe("projectProgress", () => {
  it("gives each annotator done / assigned, the last activity and the median seconds per item", () => {
    const { db, coord, ann, bea, cleo, project } = setup();
    const p = projectProgress(db, coord, project.id);
    expect(p.instances).toBe(3);
    expect(p.responses).toBe(6);
    expect(p.annotators).toEqual([
      { userId: ann.userId, name: "ann", member: true, assigned: 2, done: 2, outside: 1, restricted: true, lastActivity: new Date(3000), medianSeconds: 7, timed: 3, tooFast: false },
      { userId: bea.userId, name: "bea", member: true, assigned: 3, done: 2, outside: 0, restricted: false, lastActivity: new Date(600), medianSeconds: 3.5, timed: 2, tooFast: true },
      { userId: cleo.userId, name: "cleo", member: true, assigned: 3, done: 0, outside: 0, restricted: false, lastActivity: null, medianSeconds: null, timed: 0, tooFast: false },
      // The coordinator is listed only because they answered; nothing is assigned to them.
      { userId: coord.userId, name: "coord", member: false, assigned: 0, done: 0, outside: 1, restricted: false, lastActivity: new Date(100), medianSeconds: null, timed: 0, tooFast: false },
    ]);
  });

  it("gives a lexelt × annotator grid of done counts, marking what is assigned", () => {
    const { db, coord, project } = setup();
    const p = projectProgress(db, coord, project.id);
    const grid = p.lexelts.map((l) => [l.item, l.instances, l.cells.map((c) => `${c.done}${c.assigned ? "" : "*"}`)]);
    // Columns: ann, bea, cleo, coord; * = not assigned.
    expect(grid).toEqual([
      ["calm.a", 2, ["2", "1", "0", "1*"]],
      ["hop.v", 1, ["1*", "1", "0", "0*"]],
    ]);
    // calm.a: ann, bea, cleo; hop.v: bea, cleo (ann is restricted, the coordinator is no annotator).
    expect(p.lexelts.map((l) => l.assignedAnnotators)).toEqual([3, 2]);
  });

  it.each<[number | null, number, number[]]>([
    // Blank: each instance needs everyone assigned to its lexelt: calm.a 3 (ann, bea, cleo), hop.v 2 (bea, cleo).
    // c1 and c2 have 2 responses each (< 3), h1 has 2 (≥ 2).
    [null, 1, [0, 1]],
    [1, 3, [2, 1]],
    [2, 3, [2, 1]],
    [3, 0, [0, 0]],
  ])("counts the instances with enough responses when %j are required", (required, complete, perLexelt) => {
    const { db, coord, project } = setup();
    setRequiredAnnotators(db, coord, project.id, required);
    const p = projectProgress(db, coord, project.id);
    expect(p.project.requiredAnnotators).toBe(required);
    expect(p.complete).toBe(complete);
    expect(p.lexelts.map((l) => l.complete)).toEqual(perLexelt);
  });

  it("is refused to annotators, to the signed-out and to coordinators of other projects", () => {
    const { db, ann, project } = setup();
    expect(() => projectProgress(db, ann, project.id)).toThrow(AuthError);
    expect(() => projectProgress(db, null, project.id)).toThrow(AuthError);
    expect(() => projectProgress(db, actorFor(db, "other", "coordinator"), project.id)).toThrow(NotFoundError);
  });

  it("reports an empty project as nothing done", () => {
    const { db, coord, project } = projectFixture();
    const p = projectProgress(db, coord, project.id);
    expect(p).toMatchObject({ instances: 0, responses: 0, complete: 0, lexelts: [] });
    expect(p.annotators).toEqual([
      expect.objectContaining({ name: "ann", assigned: 0, done: 0, lastActivity: null, medianSeconds: null }),
    ]);
  });
});

describe("progressPageView (what the Progress page gets from the derivation process)", () => {
  it("pages and searches the lexelts and annotators, lists those short of annotators, and opens the drill-downs asked for", () => {
    const { db, coord, ann, bea, project } = setup();
    setRequiredAnnotators(db, coord, project.id, 3);
    const full = projectProgress(db, coord, project.id);
    const v = progressPageView(db, coord, project.id, {});
    expect([v.instances, v.responses, v.complete, v.lexeltCount]).toEqual([full.instances, full.responses, full.complete, 2]);
    expect(v.annotators).toEqual(full.annotators);
    // Rows carry their responses instead of the per-annotator cells.
    expect(v.lexeltPage).toEqual({ rows: [
      { id: full.lexelts[0].id, item: "calm.a", instances: 2, complete: full.lexelts[0].complete, assignedAnnotators: 3, responses: 4 },
      { id: full.lexelts[1].id, item: "hop.v", instances: 1, complete: full.lexelts[1].complete, assignedAnnotators: 2, responses: 2 },
    ], page: 1, pages: 1, total: 2 });
    // hop.v has 2 annotators assigned of the 3 required.
    expect(v.short).toEqual({ rows: [v.lexeltPage.rows[1]], total: 1 });
    expect([v.focusLexelt, v.focusAnnotator]).toEqual([null, null]);

    const searched = progressPageView(db, coord, project.id, { q: "HOP", who: "be", lexelt: full.lexelts[0].id, annotator: ann.userId });
    expect(searched.lexeltPage.rows.map((l) => l.item)).toEqual(["hop.v"]);
    expect(searched.annotatorPage.rows.map((a) => a.userId)).toEqual([bea.userId]);
    expect(searched.focusLexelt!.lexelt.item).toBe("calm.a");
    expect(searched.focusLexelt!.cells.rows).toEqual(full.lexelts[0].cells);
    // ann's lexelts: calm.a assigned with 2 done, hop.v not assigned with 1 given before.
    expect(searched.focusAnnotator!.lexelts.rows.map((r) => [r.lexelt.item, r.cell.assigned, r.cell.done])).toEqual([
      ["calm.a", true, 2],
      ["hop.v", false, 1],
    ]);
    // A page past the end gives the last one; the checks are projectProgress's.
    expect(progressPageView(db, coord, project.id, { page: 9 }).lexeltPage.page).toBe(1);
    expect(() => progressPageView(db, ann, project.id, {})).toThrow(AuthError);
  });
});

describe("crowd participants on the Progress page (issue #32)", () => {
  /** Every statement a call runs, in order (test/support/statements.ts). */
  const statements = (db: ReturnType<typeof setup>["db"], fn: () => void): string[] => recordStatements(db, fn).sql;

  /**
   * setup()'s team and answers, plus study "pilot" with `n` participants: the first finished
   * and answered c1 and h1 (at 5000, 6000), the others joined and answered nothing; and a
   * participant of another project's study whose answer to c2 was imported here (at 7000).
   */
  function withCrowd(n: number) {
    const f = setup();
    const { db, project } = f;
    const ref = (id: string) => (db.$client.prepare("select id from instances where instance_id = ?").get(id) as { id: number }).id;
    const put = (userId: number, instance: string, at: number) =>
      db.insert(responses).values({ projectId: project.id, instanceRef: ref(instance), userId, kind: "NIL", activeMs: 1000, updatedAt: new Date(at) }).run();
    const pilot = seedStudy(db, project.id, { name: "pilot" });
    const first = seedParticipant(db, pilot, "P0", { state: "finished" });
    put(first.actor.userId, "c1", 5000);
    put(first.actor.userId, "h1", 6000);
    for (let k = 1; k < n; k++) seedParticipant(db, pilot, `P${k}`);
    const elsewhere = createProject(db, f.coord, { name: "elsewhere" });
    const stranger = seedParticipant(db, seedStudy(db, elsewhere.id, { name: "other" }), "X1");
    put(stranger.actor.userId, "c2", 7000);
    return { ...f, pilot };
  }

  it("lists the team as before and sums the crowd per study, their answers counted in the totals", () => {
    const { db, coord, project, pilot } = withCrowd(3);
    const p = projectProgress(db, coord, project.id);
    expect(p.annotators.map((a) => a.name)).toEqual(["ann", "bea", "cleo", "coord"]);
    expect(p.crowd).toEqual({
      studies: [{ id: pilot, name: "pilot", platform: "prolific", state: "open", joined: 3, finished: 1, answers: 2, lastActivity: new Date(6000) }],
      imported: { participants: 1, answers: 1, lastActivity: new Date(7000) },
    });
    // setup()'s 6 responses and the crowd's 3.
    expect(p.responses).toBe(9);
    // calm.a: 4 + P0's c1 + X1's c2; hop.v: 2 + P0's h1.
    expect(p.lexelts.map((l) => [l.item, l.responses, l.cells.length])).toEqual([
      ["calm.a", 6, 4],
      ["hop.v", 3, 4],
    ]);
    // The pilot's 3 participants are annotator members assigned everything, as before: calm.a 3 + 3, hop.v 2 + 3.
    expect(p.lexelts.map((l) => l.assignedAnnotators)).toEqual([6, 5]);
    const v = progressPageView(db, coord, project.id, { who: "P0" });
    expect([v.annotatorPage.total, v.crowd]).toEqual([0, p.crowd]);
    expect(v.lexeltPage.rows.map((l) => l.responses)).toEqual([6, 3]);
  });

  it("runs the same statements with 3 participants or 40", () => {
    const run = (n: number) => {
      const { db, coord, project } = withCrowd(n);
      return statements(db, () => progressPageView(db, coord, project.id, {}));
    };
    expect(run(40)).toEqual(run(3));
  });
});

describe("timedMedian (the index read at its middle)", () => {
  it("gives the hand-computed medians and counts, untimed responses and other annotators left out", () => {
    const { db, project, ann, bea, cleo, coord } = setup();
    // ann: 4, 7, 10 s → 7 s; bea: 2, 5 s → 3.5 s; cleo: none; coord: one untimed.
    expect(timedMedian(db, project.id, ann.userId)).toEqual({ timed: 3, medianMs: 7000 });
    expect(timedMedian(db, project.id, bea.userId)).toEqual({ timed: 2, medianMs: 3500 });
    expect(timedMedian(db, project.id, cleo.userId)).toEqual({ timed: 0, medianMs: null });
    expect(timedMedian(db, project.id, coord.userId)).toEqual({ timed: 0, medianMs: null });
  });

  it("equals the median of every time, for odd and even counts with ties", () => {
    const f = projectFixture();
    const items = Array.from({ length: 41 }, (_, i) => `<instance id="i${i}"><context>a <head>calm</head> sea</context></instance>`).join("");
    importLexeltXml(f.db, f.coord, f.project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(`<corpus lang="english"><lexelt item="calm.a">${items}</lexelt></corpus>`) });
    const refs = (f.db.$client.prepare("select id from instances order by id").all() as { id: number }[]).map((r) => r.id);
    const times: number[] = [];
    for (let i = 0; i < 41; i++) {
      const ms = i % 5 === 0 ? null : ((i * 7919) % 13) * 1000 + (i % 3);
      f.db.insert(responses).values({ projectId: f.project.id, instanceRef: refs[i], userId: f.ann.userId, kind: "NIL", activeMs: ms, updatedAt: new Date(i) }).run();
      if (ms !== null) times.push(ms);
      if (i === 31 || i === 40) expect(timedMedian(f.db, f.project.id, f.ann.userId)).toEqual({ timed: times.length, medianMs: median(times) });
    }
    expect(times.length % 2).toBe(0);
  });
});

describe("progressPageView a page at a time (#39: nobody restricted to some lexelts, no lexelt searched for)", () => {
  /**
   * `n` lexelts (word0.n …) of two instances each and no assignment rows: ann, bea and cleo annotate everything.
   * ann and bea answered every instance, cleo one of word0.n, the coordinator (not an annotator member) one of
   * word1.n, and P0 of study "pilot" one of word2.n.
   */
  function unassigned(n: number) {
    const f = projectFixture();
    const { db, coord, ann, project } = f;
    const parts = ['<?xml version="1.0"?>', '<corpus lang="english">'];
    for (let k = 0; k < n; k++) {
      parts.push(`<lexelt item="word${k}.n">`);
      for (const i of ["a", "b"]) parts.push(`<instance id="w${k}${i}"><context>a <head>word${k}</head> here</context></instance>`);
      parts.push("</lexelt>");
    }
    parts.push("</corpus>");
    importLexeltXml(db, coord, project.id, { fileName: "w.xml", bytes: new TextEncoder().encode(parts.join("\n")) });
    const bea = actorFor(db, "bea", "annotator");
    const cleo = actorFor(db, "cleo", "annotator");
    addMember(db, coord, project.id, "bea");
    addMember(db, coord, project.id, "cleo");
    const ref = (id: string) => (db.$client.prepare("select id from instances where instance_id = ?").get(id) as { id: number }).id;
    let at = 1000;
    const answer = (userId: number, instance: string) =>
      db.insert(responses).values({ projectId: project.id, instanceRef: ref(instance), userId, kind: "NIL", activeMs: 3000 + (at % 7) * 1000, updatedAt: new Date(at++) }).run();
    for (let k = 0; k < n; k++) {
      for (const i of ["a", "b"]) {
        answer(ann.userId, `w${k}${i}`);
        answer(bea.userId, `w${k}${i}`);
      }
    }
    answer(cleo.userId, "w0a");
    answer(coord.userId, "w1a");
    answer(seedParticipant(db, seedStudy(db, project.id, { name: "pilot" }), "P0", { state: "finished" }).actor.userId, "w2a");
    const lexelt = (item: string) => (db.$client.prepare("select id from lexelts where item = ?").get(item) as { id: number }).id;
    return { ...f, bea, cleo, lexelt };
  }

  it("gives the view the whole reading gives, with or without a required number of annotators", () => {
    const { db, coord, ann, bea, project, lexelt } = unassigned(60);
    const seen = { complete: 0, short: 0 };
    for (const required of [null, 2, 9]) {
      if (required !== null) setRequiredAnnotators(db, coord, project.id, required);
      for (const query of [{}, { page: 2 }, { page: 7 }, { lexelt: lexelt("word2.n") }, { lexelt: lexelt("word0.n"), dpage: 2 }, { annotator: ann.userId, lpage: 2 }, { annotator: bea.userId, who: "b" }, { lexelt: -1, annotator: -1 }]) {
        const view = progressPageView(db, coord, project.id, query);
        // A search every lexelt matches ("." is in every item) is read whole: the same view.
        expect(view).toEqual(progressPageView(db, coord, project.id, { ...query, q: "." }));
        seen.complete = Math.max(seen.complete, view.complete);
        seen.short = Math.max(seen.short, view.short.total);
      }
    }
    // Not vacuous: with 2 required every instance is complete; with 9, every lexelt is short of annotators.
    expect(seen).toEqual({ complete: 120, short: 60 });
  });

  it("reads as many rows with 60 lexelts as with 120", () => {
    const rows = (n: number) => {
      const { db, coord, project } = unassigned(n);
      setRequiredAnnotators(db, coord, project.id, 9);
      // The answers written above are brought into the kept figures first (the queue), then a load is counted.
      progressPageView(db, coord, project.id, {});
      return recordStatements(db, () => progressPageView(db, coord, project.id, {})).rows;
    };
    expect(rows(120)).toBe(rows(60));
  });
});
