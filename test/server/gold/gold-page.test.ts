/**
 * lib/server/gold/gold-review.ts: what the Gold page reads — the summary and a page of
 * the lemma review and of the gold items, from one load, filtered and paged; the
 * instance texts; the review log as CSV.
 */
import { describe, expect, it, vi } from "vitest";
import type { Db } from "../../../db/client";
import type { Actor } from "../../../lib/server/kernel/actor";
import { AuthError, NotFoundError } from "../../../lib/server/kernel/errors";
import { decideLemma, lemmaReview, projectGold, setCorrectedPos, setExclusion } from "../../../lib/server/gold/gold";
import {
  goldPageData,
  goldProblemsTsv,
  goldReviewCsv,
  type InstanceQuery,
  instanceTexts,
  LEXELT_CHOICES,
  LISTED_PROBLEMS,
  pageOf,
} from "../../../lib/server/gold/gold-review";
import { createProject } from "../../../lib/server/corpus/projects";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { actorFor, projectFixture } from "../../support/db";
import { goldFixture } from "../../support/gold-fixture";
import { importResponses } from "../../../lib/server/annotate/response-import";
import { filterLemmaReview, fullLemmaReview } from "../../support/full-derivation";

// The Gold page's server actions read the actor and db from the session: given here.
const session = vi.hoisted(() => ({ actor: null as unknown, db: null as unknown }));
vi.mock("@/lib/auth/session", () => ({ getActor: async () => session.actor }));
vi.mock("@/lib/db", () => ({ getDb: () => session.db }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
const actions = await import("../../../app/projects/[projectId]/gold/actions");

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}


// Worked by hand (forms after normalisation; hop.v forms lemmatised as verbs):
//   c1: still 2, peaceful 1, serene 1, tranquil 1 → in T, mode still
//   c2: pn 2 (NAME, NAME, NIL) → |H| = 0, not in T, no mode
//   h1: jump 2 (jumps → jump), skip 2 → in T, tie: no mode; mwgold hop about 2
//   h2: board 1 → not in T; nobody else answered

const setup = goldFixture;

describe("pageOf", () => {
  const xs = Array.from({ length: 23 }, (_, i) => i);
  it("cuts a list into pages and clamps the page asked for", () => {
    expect(pageOf(xs, 1, 10)).toEqual({ rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], total: 23, page: 1, pages: 3, pageSize: 10, start: 0 });
    expect(pageOf(xs, 3, 10).rows).toEqual([20, 21, 22]);
    expect(pageOf(xs, "2", 10).start).toBe(10);
    expect(pageOf(xs, 99, 10).page).toBe(3);
    for (const bad of [0, -4, "x", undefined, null, Number.NaN]) expect(pageOf(xs, bad, 10).page).toBe(1);
    expect(pageOf(xs, 2.7, 10).page).toBe(2);
  });
  it("has one empty page for an empty list, and bounds the page size", () => {
    expect(pageOf([], 5, 10)).toEqual({ rows: [], total: 0, page: 1, pages: 1, pageSize: 10, start: 0 });
    expect(pageOf(xs, 1, 0).pageSize).toBe(1);
    expect(pageOf(Array.from({ length: 2000 }, () => 0), 1, 10_000).rows.length).toBe(500);
  });
});

describe("filterLemmaReview (test/support: the whole review's filter, which the Gold page's SQL filter is compared with)", () => {
  const rows = [
    { form: "took place", decision: null, changed: true },
    { form: "jumps", decision: "accepted", changed: true },
    { form: "place", decision: null, changed: false },
    { form: "still", decision: "kept", changed: false },
  ];
  it("keeps the forms containing the text, normalised as forms are, in the given order", () => {
    expect(filterLemmaReview(rows, { contains: "  PLACE " }).map((r) => r.form)).toEqual(["took place", "place"]);
    expect(filterLemmaReview(rows, { contains: "took   pl" }).map((r) => r.form)).toEqual(["took place"]);
    expect(filterLemmaReview(rows, { contains: "" })).toHaveLength(4);
  });
  it("combines the open and changed toggles with the text", () => {
    expect(filterLemmaReview(rows, { open: true }).map((r) => r.form)).toEqual(["took place", "place"]);
    expect(filterLemmaReview(rows, { changed: true }).map((r) => r.form)).toEqual(["took place", "jumps"]);
    expect(filterLemmaReview(rows, { open: true, changed: true }).map((r) => r.form)).toEqual(["took place"]);
    expect(filterLemmaReview(rows, { open: true, contains: "still" })).toEqual([]);
  });
});

/** A project of `n` lexelts, one instance each. */
function projectFixtureWith(n: number) {
  const f = projectFixture();
  const xml = Array.from({ length: n }, (_, k) => `<lexelt item="w${k}.n"><instance id="i${k}"><context>a <head>w${k}</head> b</context></instance></lexelt>`);
  importLexeltXml(f.db, f.coord, f.project.id, { fileName: "n.xml", bytes: new TextEncoder().encode(`<?xml version="1.0"?>\n<corpus lang="english">\n${xml.join("\n")}\n</corpus>\n`) });
  return f;
}

describe("the open spellings with other spacing", () => {
  it("counts the spellings the gold with proposals applied writes tidied, of the forms nobody decided", () => {
    const f = goldFixture();
    // An answer imported as written: "still " (a trailing space), kept apart from "still" until a decision.
    importResponses(f.db, f.coord, f.project.id, { fileName: "s.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\ncat\tcalm.a\tc2\tstill \t\n" });
    const d = goldPageData(f.db, f.coord, f.project.id);
    expect(d.openProposals).toMatchObject({ count: 1, spacing: 1 });
    expect(projectGold(f.db, f.coord, f.project.id).gold).toContain("calm.a c2 :: pn 2;still  1;");
    // The download with the proposals applied writes it tidied, and says so in what it applied.
    const applied = projectGold(f.db, f.coord, f.project.id, { applyProposals: true });
    expect(applied.gold).toContain("calm.a c2 :: pn 2;still 1;");
    expect(applied.result.applied.filter((a) => a.form !== a.form.trim()).map((a) => `${a.form}|${a.lemma}`)).toEqual(["still |still"]);
    // Decided (kept as typed), it is no longer open.
    decideLemma(f.db, f.coord, f.project.id, { form: "still", decision: "kept" });
    expect(goldPageData(f.db, f.coord, f.project.id).openProposals.spacing).toBe(0);
  });
});

describe("goldPageData", () => {
  it("gives the summary, the lemma counts and pages the same as projectGold and lemmaReview", () => {
    const { db, coord, project } = setup();
    const d = goldPageData(db, coord, project.id);
    const g = projectGold(db, coord, project.id);
    expect(d.summary).toEqual(g.result.summary);
    // Nobody decided jumps: written as typed, h1 is skip 2, jump 1, jumps 1 (mode skip).
    expect(d.summary).toMatchObject({ instances: 4, excluded: 0, goldLines: 4, inT: 2, withMode: 2, mwLines: 1, mwItems: 1 });
    // The one open proposal, which only the "with proposals applied" download applies.
    expect(d.openProposals).toEqual({ count: 1, uses: 1, first: [{ form: "jumps", lemma: "jump", pos: "v", count: 1 }], spacing: 0 });
    expect(projectGold(db, coord, project.id, { applyProposals: true }).result.applied).toEqual(d.openProposals.first);
    expect(d.files).toEqual({ goldLines: 4, mwLines: 1 });
    expect(d.problems).toEqual(g.result.problems);
    expect(d.lexelts).toEqual(["calm.a", "hop.v"]);
    expect(d.lexeltCount).toBe(2);
    // Forms: still, peaceful, tranquil, serene, jumps, skip, jump, hop about, board; only jumps changes.
    expect(d.lemmas).toEqual({ forms: 9, changed: 1, open: 9, openChanged: 1 });
    expect(d.lemmaPage.rows.map((r) => r.form)).toEqual(fullLemmaReview(db, coord, project.id).map((r) => r.form));
    expect(lemmaReview(db, coord, project.id)).toEqual(fullLemmaReview(db, coord, project.id));
    expect(d.lemmaPage.rows[0]).toMatchObject({ form: "jumps", proposed: "jump", changed: true, decision: null, decidedBy: null });
    expect(d.instancePage.rows.map((r) => r.item.instanceId)).toEqual(["c1", "c2", "h1", "h2"]);
  });

  it("reads only the page of the view shown (`only`), the rest of the page as with both", () => {
    const { db, coord, project } = setup();
    const both = goldPageData(db, coord, project.id);
    const lemmas = goldPageData(db, coord, project.id, { only: "lemmas" });
    const instances = goldPageData(db, coord, project.id, { only: "instances" });
    const neither = goldPageData(db, coord, project.id, { only: "neither" });
    expect(lemmas.lemmaPage).toEqual(both.lemmaPage);
    expect(instances.instancePage).toEqual(both.instancePage);
    expect([lemmas.instancePage.rows, instances.lemmaPage.rows, neither.lemmaPage.rows, neither.instancePage.rows]).toEqual([[], [], [], []]);
    // What every view shows (the summary, the counts in the view tabs, the problems) is the same whichever is read.
    const { lemmaPage: _l, instancePage: _i, ...rest } = both;
    for (const d of [lemmas, instances, neither]) expect({ ...d, lemmaPage: undefined, instancePage: undefined }).toEqual({ ...rest, lemmaPage: undefined, instancePage: undefined });
    expect(both.instancePage.rows.length).toBe(4);
  });

  it("lists the lexelts for the filter only while there are few (the item is typed past LEXELT_CHOICES)", () => {
    const f = projectFixtureWith(LEXELT_CHOICES + 1);
    const d = goldPageData(f.db, f.coord, f.project.id);
    expect([d.lexelts, d.lexeltCount]).toEqual([[], LEXELT_CHOICES + 1]);
    const few = projectFixtureWith(LEXELT_CHOICES);
    expect(goldPageData(few.db, few.coord, few.project.id).lexelts).toHaveLength(LEXELT_CHOICES);
  });

  it("lists answers stored before the save rules with the rule each breaks, and keeps them in the gold", () => {
    const { db, coord, project } = setup();
    // Written straight to the table, as an older version stored them: the save and the import refuse them now.
    db.$client
      .prepare("update responses set substitutes = ?, multiword = ? where user_id = (select id from users where name = 'cat') and instance_ref = (select id from instances where instance_id = 'c1')")
      .run(JSON.stringify(["serene, placid", "<b>still</b>"]), "sea breeze");
    const d = goldPageData(db, coord, project.id);
    expect(d.problems.map((p) => [p.instanceId, p.annotator, /breaks the "(\w+)" rule/.exec(p.message)?.[1]])).toEqual([
      ["c1", "cat", "list"],
      ["c1", "cat", "markup"],
      ["c1", "cat", "target"],
    ]);
    expect(d.problems[2].message).toContain("the phrase must contain the target word: “calm”");
    expect(d.problems).toEqual(projectGold(db, coord, project.id).result.problems);
    expect(d.instancePage.rows[0].item.line).toContain("serene, placid 1");
  });

  it("lists the first LISTED_PROBLEMS problems and counts them all; the TSV has every one", () => {
    const { db, coord, project } = setup();
    const many = Array.from({ length: LISTED_PROBLEMS + 7 }, (_, k) => `word${k}, other${k}`);
    db.$client
      .prepare("update responses set substitutes = ? where user_id = (select id from users where name = 'cat') and instance_ref = (select id from instances where instance_id = 'c1')")
      .run(JSON.stringify(many));
    const all = projectGold(db, coord, project.id).result.problems;
    expect(all.length).toBeGreaterThan(LISTED_PROBLEMS);
    const d = goldPageData(db, coord, project.id);
    expect(d.problemCount).toBe(all.length);
    expect(d.problems).toEqual(all.slice(0, LISTED_PROBLEMS));
    const tsv = goldProblemsTsv(all).split("\n");
    expect(tsv[0]).toBe("lexelt\tinstance\tannotator\tproblem");
    expect(tsv).toHaveLength(all.length + 2);
    expect(tsv[1]).toBe(["calm.a", "c1", "cat", all[0].message].join("\t"));
    // A cell a spreadsheet would run as a formula is neutralised, as in the other TSV downloads.
    expect(goldProblemsTsv([{ lexelt: "x.n", instanceId: "1", annotator: null, message: "=cmd()\tmore" }])).toBe("lexelt\tinstance\tannotator\tproblem\nx.n\t1\t\t'=cmd() more\n");
  });

  it("pages the lemma review after filtering, and follows decisions", () => {
    const { db, coord, project } = setup();
    decideLemma(db, coord, project.id, { form: "jumps", decision: "kept" });
    let d = goldPageData(db, coord, project.id, { lemmas: { pageSize: 4, page: 2 } });
    expect(d.lemmaPage).toMatchObject({ total: 9, pages: 3, page: 2, start: 4 });
    expect(d.lemmaPage.rows).toHaveLength(4);
    expect(d.lemmas).toEqual({ forms: 9, changed: 1, open: 8, openChanged: 0 });
    d = goldPageData(db, coord, project.id, { lemmas: { open: true, changed: true } });
    expect(d.lemmaPage.total).toBe(0);
    d = goldPageData(db, coord, project.id, { lemmas: { contains: "JUMP" } });
    expect(d.lemmaPage.rows.map((r) => [r.form, r.decision, r.lemma, r.decidedBy])).toEqual([
      ["jumps", "kept", "jumps", "coord"],
      ["jump", null, "jump", null],
    ]);
    // The summary follows the table: jumps kept as typed splits h1's jump 2, so skip 2 is its mode now.
    expect(d.summary).toMatchObject({ inT: 2, withMode: 2 });
    const h1 = d.instancePage.rows.find((r) => r.item.instanceId === "h1")?.item;
    expect([h1?.line, h1?.mode]).toEqual(["hop.v h1 :: skip 2;jump 1;jumps 1;", "skip"]);
  });

  it("filters gold items by lexelt, mode, T, exclusion and multiword, every condition at once", () => {
    // jumps accepted as jump: h1 is jump 2, skip 2 (no mode).
    const { db, coord, project } = goldFixture(undefined, { acceptProposals: true });
    setExclusion(db, coord, project.id, "h2", "no context");
    const ids = (q: InstanceQuery) =>
      goldPageData(db, coord, project.id, { instances: q }).instancePage.rows.map((r) => r.item.instanceId);
    expect(ids({ lexelt: "hop.v" })).toEqual(["h1", "h2"]);
    expect(ids({ noMode: true })).toEqual(["c2", "h1", "h2"]);
    expect(ids({ notInT: true })).toEqual(["c2", "h2"]);
    expect(ids({ excluded: true })).toEqual(["h2"]);
    expect(ids({ multiword: true })).toEqual(["h1"]);
    expect(ids({ lexelt: "calm.a", noMode: true })).toEqual(["c2"]);
    expect(ids({ lexelt: "calm.a", multiword: true })).toEqual([]);
    expect(ids({ lexelt: "nothing.n" })).toEqual([]);
    // A corrected PoS is still found under the lexelt as loaded.
    setCorrectedPos(db, coord, project.id, "h1", "n");
    const h1 = goldPageData(db, coord, project.id, { instances: { lexelt: "hop.v", multiword: true } }).instancePage.rows;
    expect(h1.map((r) => [r.item.instanceId, r.item.lexelt])).toEqual([["h1", "hop.v.n"]]);
    const d = goldPageData(db, coord, project.id, { instances: { pageSize: 3, page: 2 } });
    expect(d.instancePage).toMatchObject({ total: 4, pages: 2, page: 2, start: 3 });
    expect(d.instancePage.rows.map((r) => [r.item.instanceId, r.item.excluded])).toEqual([["h2", "no context"]]);
    expect(d.summary).toMatchObject({ instances: 4, excluded: 1, goldLines: 3 });
    // A link to one instance opens the page that holds it; an explicit page wins; an unknown id gives page 1.
    const at = (q: InstanceQuery) => goldPageData(db, coord, project.id, { instances: q }).instancePage.page;
    expect(at({ pageSize: 3, instance: "h2" })).toBe(2);
    expect(at({ pageSize: 3, instance: "c1" })).toBe(1);
    expect(at({ pageSize: 3, instance: "h2", page: 1 })).toBe(1);
    expect(at({ pageSize: 3, instance: "zz" })).toBe(1);
    expect(d.files.goldLines).toBe(3);
  });

  it("loads the sentence and the typed answers for the page's instances only", () => {
    const { db, coord, project } = setup();
    const d = goldPageData(db, coord, project.id, { instances: { lexelt: "calm.a" } });
    const [c1, c2] = d.instancePage.rows;
    expect([c1.before, c1.head, c1.after]).toEqual(["a ", "calm", " sea at dawn"]);
    expect(c2.head).toBe("Calm");
    // As typed, by annotator name; the item holds the normalised answers.
    expect(c1.typed.map((t) => [t.annotator, t.kind, t.substitutes])).toEqual([
      ["ann", "substitutes", ["still", "peaceful"]],
      ["bea", "substitutes", ["still", "tranquil"]],
      ["cat", "substitutes", ["serene"]],
    ]);
    expect(c1.item.responses.find((r) => r.annotator === "bea")?.substitutes).toEqual(["still", "tranquil"]);
    expect(c2.typed.map((t) => t.kind)).toEqual(["NAME", "NAME", "NIL"]);
    const h1 = goldPageData(db, coord, project.id, { instances: { multiword: true } }).instancePage.rows[0];
    expect(h1.typed.map((t) => t.multiword)).toEqual(["hop about", "hop about", null]);
  });

  it("instanceTexts gives the texts of the ids asked for that the project holds", () => {
    const { db, coord, project } = setup();
    const t = instanceTexts(db, coord, project.id, ["h2", "zz", "c1"]);
    expect([...t.keys()].sort()).toEqual(["c1", "h2"]);
    expect(t.get("h2")).toEqual({ before: "they ", head: "hop", after: " on a bus" });
    expect(instanceTexts(db, coord, project.id, []).size).toBe(0);
  });

  it("is for the project's coordinators only", () => {
    const { db, ann, project } = setup();
    const other = actorFor(db, "other", "coordinator");
    createProject(db, other, { name: "elsewhere" });
    expect(() => goldPageData(db, ann, project.id)).toThrow(AuthError);
    expect(() => goldPageData(db, null, project.id)).toThrow(AuthError);
    expect(() => goldPageData(db, other, project.id)).toThrow(NotFoundError);
    expect(() => instanceTexts(db, ann, project.id, ["c1"])).toThrow(AuthError);
    expect(() => instanceTexts(db, other, project.id, ["c1"])).toThrow(NotFoundError);
    expect(() => goldReviewCsv(db, ann, project.id)).toThrow(AuthError);
    expect(() => goldReviewCsv(db, other, project.id)).toThrow(NotFoundError);
  });
});

describe("goldReviewCsv", () => {
  it("writes every decision oldest first, with who, the decision and the value, quoted where needed", () => {
    const { db, coord, project } = setup();
    expect(goldReviewCsv(db, coord, project.id)).toBe("at,by,kind,target,decision,value,annotator,substitute,reason\r\n");
    decideLemma(db, coord, project.id, { form: "jumps", decision: "overridden", lemma: "leap" });
    decideLemma(db, coord, project.id, { form: "jumps", decision: "reset" });
    setExclusion(db, coord, project.id, "c2", 'a hotel, "The Calm"');
    setExclusion(db, coord, project.id, "c2", null);
    setCorrectedPos(db, coord, project.id, "h1", "n");
    setCorrectedPos(db, coord, project.id, "h1", null);
    decideLemma(db, coord, project.id, { form: "still", decision: "overridden", lemma: "=1+1" });
    const lines = goldReviewCsv(db, coord, project.id).split("\r\n");
    expect(lines.pop()).toBe("");
    expect(lines[0]).toBe("at,by,kind,target,decision,value,annotator,substitute,reason");
    // The last three columns are the adjudications' (test/server/gold/adjudication.test.ts): empty here.
    const rows = lines.slice(1).map((l) => l.replace(/^[^,]+,/, ""));
    expect(rows).toEqual([
      "coord,lemma,jumps,overridden,leap,,,",
      "coord,lemma,jumps,reset,,,,",
      'coord,exclusion,c2,excluded,"a hotel, ""The Calm""",,,',
      "coord,exclusion,c2,put back,,,,",
      "coord,pos,h1,corrected,n,,,",
      "coord,pos,h1,undone,,,,",
      "coord,lemma,still,overridden,'=1+1,,,",
    ]);
    for (const l of lines.slice(1)) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,/);
  });
});

describe("the Gold page's server actions", () => {
  function signedIn(actor: "coord" | "ann" = "coord") {
    const f = setup();
    session.db = f.db as Db;
    session.actor = (actor === "coord" ? f.coord : f.ann) as Actor;
    return f;
  }

  it("decide a form from the button pressed, accepting the proposal for a PoS when the button names one", async () => {
    const { db, coord, project } = signedIn();
    expect(await actions.decideLemmaAction(project.id, null, form({ form: "jumps", decision: "overridden", lemma: "  Leap " }))).toEqual({
      ok: true,
      message: "Overridden: Leap",
    });
    expect(projectGold(db, coord, project.id).gold).toContain("hop.v h1 :: skip 2;Leap 1;jump 1;");
    // accepted:n asks for the proposal made for a noun ("jumps" was typed under a verb only; as a noun it is jump too).
    expect(await actions.decideLemmaAction(project.id, null, form({ form: "jumps", decision: "accepted:n", lemma: "ignored" }))).toEqual({ ok: true, message: "Accepted: jump" });
    expect(lemmaReview(db, coord, project.id).find((r) => r.form === "jumps")).toMatchObject({ decision: "accepted", lemma: "jump" });
    expect(await actions.decideLemmaAction(project.id, null, form({ form: "jumps", decision: "reset" }))).toEqual({ ok: true, message: "Reset: jump (unreviewed)" });
    expect(lemmaReview(db, coord, project.id).find((r) => r.form === "jumps")?.decision).toBeNull();
  });

  it("return the lemma's error keyed to the lemma field, and write nothing", async () => {
    const { db, coord, project } = signedIn();
    const r = await actions.decideLemmaAction(project.id, null, form({ form: "jumps", decision: "overridden", lemma: "a;b" }));
    expect(r).toMatchObject({ ok: false, errors: { lemma: expect.stringContaining("';'") } });
    expect(goldReviewCsv(db, coord, project.id).split("\r\n")).toHaveLength(2);
  });

  it("exclude with a reason (its error shown by the reason field) and put back", async () => {
    const { db, coord, project } = signedIn();
    const refused = await actions.exclusionAction(project.id, null, form({ instanceId: "c2", op: "exclude", reason: "   " }));
    expect(refused).toMatchObject({ ok: false, errors: { reason: "Say why the instance is excluded." } });
    expect(projectGold(db, coord, project.id).result.summary.excluded).toBe(0);
    expect(await actions.exclusionAction(project.id, null, form({ instanceId: "c2", op: "exclude", reason: "a hotel" }))).toEqual({ ok: true, message: "Excluded c2." });
    expect(projectGold(db, coord, project.id).gold).not.toContain(" c2 ");
    expect(await actions.exclusionAction(project.id, null, form({ instanceId: "c2", op: "restore", reason: "ignored" }))).toEqual({
      ok: true,
      message: "Put c2 back into the gold.",
    });
    expect(projectGold(db, coord, project.id).gold).toContain("calm.a c2 :: pn 2;");
  });

  it("correct the PoS and undo it; an empty choice is refused rather than read as undo", async () => {
    const { db, coord, project } = signedIn();
    expect(await actions.correctPosAction(project.id, null, form({ instanceId: "h1", op: "correct", pos: "" }))).toMatchObject({ ok: false, errors: { pos: "Choose the PoS." } });
    expect(await actions.correctPosAction(project.id, null, form({ instanceId: "h1", op: "correct", pos: "x" }))).toMatchObject({ ok: false, errors: { pos: expect.any(String) } });
    expect(goldReviewCsv(db, coord, project.id).split("\r\n")).toHaveLength(2);
    expect(await actions.correctPosAction(project.id, null, form({ instanceId: "h1", op: "correct", pos: "n" }))).toEqual({ ok: true, message: "h1: PoS corrected to n." });
    expect(projectGold(db, coord, project.id).gold).toContain("hop.v.n h1 ::");
    expect(await actions.correctPosAction(project.id, null, form({ instanceId: "h1", op: "undo" }))).toEqual({ ok: true, message: "h1: PoS as loaded." });
    expect(projectGold(db, coord, project.id).gold).toContain("hop.v h1 ::");
  });

  it("accept every open proposal, and refuse an annotator", async () => {
    const { db, coord, ann, project } = signedIn();
    expect(await actions.acceptAllAction(project.id, null, form({}))).toEqual({ ok: true, message: "Accepted the proposal for 9 forms." });
    expect(await actions.acceptAllAction(project.id, null, form({}))).toEqual({ ok: true, message: "Every form is reviewed already." });
    session.actor = ann as Actor;
    expect(await actions.exclusionAction(project.id, null, form({ instanceId: "c1", op: "exclude", reason: "x" }))).toEqual({ ok: false, message: "Only a coordinator can do that." });
    expect(projectGold(db, coord, project.id).result.summary.excluded).toBe(0);
  });
});
