/**
 * Per-response adjudication (issue #15): a strike or correction of one
 * substitute changes the derived gold line exactly as worked out by hand, undo
 * restores it, a correction goes through the lemma review like any answer, decisions are
 * attributed to the coordinator who made them, the review queue orders by
 * disagreement, and the exports carry the decisions.
 */
import { describe, expect, it } from "vitest";
import { computeAgreement, itemPairwise } from "../../../lib/lexsub/agreement";
import { parseResponsesTsv } from "../../../lib/lexsub/formats/responses";
import { adjudicate, adoptMultiword, instanceAdjudications, setReviewed, undoAdjudication } from "../../../lib/server/gold/adjudication";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import { decideLemma, projectGold } from "../../../lib/server/gold/gold";
import { exportAdjudicatedResponses, goldPageData, goldReviewCsv, goldReviewTsv, reviewLogPage } from "../../../lib/server/gold/gold-review";
import { importResponses, listProjectResponses } from "../../../lib/server/annotate/response-import";
import { addMember } from "../../../lib/server/people/users";
import { dataVersion } from "../../../lib/server/kernel/data-version";
import { actorFor, projectFixture } from "../../support/db";
import { calmProject, calmTsv, calmXml } from "../../support/calm-fixture";

const xml = calmXml;
const tsv = calmTsv;
const setup = calmProject;
/** The calm project with the coordinator's decision jumps → jump recorded: for the figures below worked out over lemmas. */
const decided = () => calmProject({ acceptProposals: true });

const ORIGINAL = {
  c1: "calm.a c1 :: still 2;peaceful 1;serene 1;tranquil 1;",
  c2: "calm.a c2 :: pn 2;",
  h1: "hop.v h1 :: jump 2;skip 2;",
};

function lines(db: ReturnType<typeof setup>["db"], coord: ReturnType<typeof setup>["coord"], projectId: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const l of projectGold(db, coord, projectId).gold.split("\n")) if (l) out[l.split(" ")[1]] = l;
  return out;
}

const count = (db: ReturnType<typeof setup>["db"], t: string) => (db.$client.prepare(`select count(*) as n from ${t}`).get() as { n: number }).n;

describe("adjudicate and undo", () => {
  it("striking one substitute changes exactly that item's gold line; undo restores it", () => {
    const { db, coord, project } = decided();
    expect(lines(db, coord, project.id)).toEqual(ORIGINAL);
    const d = adjudicate(db, coord, project.id, { action: "strike", instanceId: "c1", annotator: "bea", substitute: "still", reason: "not a synonym here" });
    expect(d).toMatchObject({ action: "strike", annotator: "bea", substitute: "still", value: null, decidedBy: "coord", undoneAt: null });
    // bea's still is gone: every entry once, ties in code-point order; the other lines unchanged.
    expect(lines(db, coord, project.id)).toEqual({ ...ORIGINAL, c1: "calm.a c1 :: peaceful 1;serene 1;still 1;tranquil 1;" });
    // The response itself is untouched.
    expect(listProjectResponses(db, coord, project.id).find((r) => r.annotator === "bea" && r.instanceId === "c1")?.substitutes).toEqual(["still", "tranquil"]);
    const undone = undoAdjudication(db, coord, project.id, d.id);
    expect(undone).toMatchObject({ id: d.id, undoneBy: "coord" });
    expect(lines(db, coord, project.id)).toEqual(ORIGINAL);
    // Undo keeps the decision, inactive.
    expect(instanceAdjudications(db, coord, project.id, "c1")).toEqual([expect.objectContaining({ id: d.id, undoneBy: "coord", undoneAt: expect.any(Date) })]);
    expect(() => undoAdjudication(db, coord, project.id, d.id)).toThrow(InputError);
  });

  it("a correction is counted as the corrected substitute, through the lemma review like any answer", () => {
    const { db, coord, project } = decided();
    adjudicate(db, coord, project.id, { action: "correct", instanceId: "c1", annotator: "cat", substitute: "serene", value: " peaceful " });
    expect(lines(db, coord, project.id).c1).toBe("calm.a c1 :: peaceful 2;still 2;tranquil 1;");
    // "leaps" is written as given until decided, as a typed "leaps" would be; accepting its proposal (leap, as a verb) writes the lemma.
    adjudicate(db, coord, project.id, { action: "correct", instanceId: "h1", annotator: "cat", substitute: "skip", value: "leaps" });
    expect(lines(db, coord, project.id).h1).toBe("hop.v h1 :: jump 2;leaps 1;skip 1;");
    decideLemma(db, coord, project.id, { form: "leaps", decision: "accepted" });
    expect(lines(db, coord, project.id).h1).toBe("hop.v h1 :: jump 2;leap 1;skip 1;");
  });

  it("striking a whole response leaves its NAME (or substitutes, or multiword) out", () => {
    const { db, coord, project } = decided();
    adjudicate(db, coord, project.id, { action: "strike-response", instanceId: "c2", annotator: "ann" });
    expect(lines(db, coord, project.id).c2).toBe("calm.a c2 :: pn 1;");
    adjudicate(db, coord, project.id, { action: "strike-response", instanceId: "h1", annotator: "bea" });
    const g = projectGold(db, coord, project.id);
    expect(g.gold).toContain("hop.v h1 :: skip 2;jump 1;\n");
    // One "hop about" left: listed in mwgold, no longer a multiword item.
    expect(g.mwgold).toBe("\nhop.v h1 :: hop about 1;\n");
    expect(g.result.summary.mwItems).toBe(0);
  });

  it("attributes each decision to the coordinator who made it, and the undo to whoever undid it", () => {
    const { db, coord, project } = setup();
    const cora = actorFor(db, "cora", "coordinator");
    addMember(db, coord, project.id, "cora");
    const d = adjudicate(db, cora, project.id, { action: "strike", instanceId: "h1", annotator: "ann", substitute: "jumps" });
    expect(d.decidedBy).toBe("cora");
    undoAdjudication(db, coord, project.id, d.id);
    adjudicate(db, cora, project.id, { action: "correct", instanceId: "h1", annotator: "ann", substitute: "jumps", value: "bounce" });
    const all = instanceAdjudications(db, coord, project.id, "h1");
    expect(all.map((a) => [a.action, a.decidedBy, a.undoneBy])).toEqual([
      ["strike", "cora", "coord"],
      ["correct", "cora", null],
    ]);
    const log = reviewLogPage(db, coord, project.id, 1).rows;
    expect(log.map((r) => [r.by, r.kind, r.decision, r.annotator, r.substitute, r.value])).toEqual([
      ["cora", "correct", "corrected", "ann", "jumps", "bounce"],
      ["coord", "undo", "undone (struck)", "ann", "jumps", ""],
      ["cora", "strike", "struck", "ann", "jumps", ""],
    ]);
  });

  it("refuses corrections that break the answer rules, unknown substitutes and second decisions, writing nothing", () => {
    const { db, coord, ann, project } = setup();
    const base = { instanceId: "c1", annotator: "bea", substitute: "still" };
    const refused: [unknown, new (...a: never[]) => Error][] = [
      [{ ...base, action: "correct", value: "calm" }, InputError], // the target word
      [{ ...base, action: "correct", value: "quiet;hushed" }, InputError], // a list
      [{ ...base, action: "correct", value: "tranquil" }, InputError], // another substitute of the response
      [{ ...base, action: "correct", value: "" }, InputError],
      [{ ...base, action: "correct", value: "still" }, InputError], // no change
      [{ ...base, action: "strike", substitute: "serene" }, InputError], // cat's, not bea's
      [{ ...base, action: "erase" }, InputError],
      [{ ...base, action: "strike", instanceId: "zz" }, NotFoundError],
      [{ ...base, action: "strike-response", annotator: "coord" }, NotFoundError], // no response
    ];
    const version = dataVersion(db, project.id);
    for (const [input, err] of refused) expect(() => adjudicate(db, coord, project.id, input), JSON.stringify(input)).toThrow(err);
    expect(() => adjudicate(db, ann, project.id, { ...base, action: "strike" })).toThrow(AuthError);
    expect(count(db, "adjudications")).toBe(0);
    expect(count(db, "gold_review_log")).toBe(0);
    expect(dataVersion(db, project.id)).toBe(version);
    // A substitute with an active decision: undo it first.
    adjudicate(db, coord, project.id, { ...base, action: "strike" });
    expect(() => adjudicate(db, coord, project.id, { ...base, action: "correct", value: "quiet" })).toThrow(/undo it first/);
    adjudicate(db, coord, project.id, { ...base, action: "strike-response" });
    expect(() => adjudicate(db, coord, project.id, { ...base, action: "strike-response" })).toThrow(InputError);
    expect(count(db, "adjudications")).toBe(2);
  });

  it("raises the project's data version with every decision and undo (the derived gold's cache key)", () => {
    const { db, coord, project } = setup();
    const v0 = dataVersion(db, project.id);
    const d = adjudicate(db, coord, project.id, { action: "strike", instanceId: "c1", annotator: "ann", substitute: "peaceful" });
    const v1 = dataVersion(db, project.id);
    expect(v1).toBeGreaterThan(v0);
    undoAdjudication(db, coord, project.id, d.id);
    expect(dataVersion(db, project.id)).toBeGreaterThan(v1);
  });

  it("a decision on a substitute the annotator has since changed is kept but not applied (shown as stale)", () => {
    const { db, coord, project } = setup();
    adjudicate(db, coord, project.id, { action: "strike", instanceId: "c1", annotator: "bea", substitute: "still" });
    importResponses(db, coord, project.id, { fileName: "fix.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nbea\tcalm.a\tc1\tquiet;tranquil\t\n" });
    expect(lines(db, coord, project.id).c1).toBe("calm.a c1 :: peaceful 1;quiet 1;serene 1;still 1;tranquil 1;");
    const card = goldPageData(db, coord, project.id, { instances: { instance: "c1", pageSize: 1 } }).instancePage.rows[0];
    expect(card.item.instanceId).toBe("c1");
    expect(card.adjudications).toEqual([expect.objectContaining({ substitute: "still", stale: true })]);
  });
});

describe("reviewed mark and review queue", () => {
  it("orders by per-item pairwise agreement, lowest first, and filters by reviewed and annotator", () => {
    const { db, coord, project } = decided();
    const page = (q: object) => goldPageData(db, coord, project.id, { instances: q }).instancePage.rows.map((r) => [r.item.instanceId, r.pairwise]);
    // c1: pairs ann–bea 1/3, ann–cat 0, bea–cat 0 → 1/9; h1 (jumps → jump): 1/2, 1/2, 0 → 1/3; c2 is not in T.
    expect(page({ order: "agreement" })).toEqual([
      ["c1", 1 / 9],
      ["h1", 1 / 3],
      ["c2", null],
    ]);
    expect(setReviewed(db, coord, project.id, "c1", true)).toEqual({ reviewed: true });
    expect(page({ order: "agreement", reviewed: "no" }).map((r) => r[0])).toEqual(["h1", "c2"]);
    expect(page({ reviewed: "yes" }).map((r) => r[0])).toEqual(["c1"]);
    const c1 = goldPageData(db, coord, project.id, { instances: { reviewed: "yes" } }).instancePage.rows[0];
    expect(c1.reviewed).toEqual({ by: "coord", at: expect.any(Date) });
    setReviewed(db, coord, project.id, "c1", false);
    expect(page({ reviewed: "yes" })).toEqual([]);
    // Adjudication changes the order: cat's serene corrected to still makes c1 agree more (ann–cat 1/2, bea–cat 1/2 → 4/9).
    adjudicate(db, coord, project.id, { action: "correct", instanceId: "c1", annotator: "cat", substitute: "serene", value: "still" });
    expect(page({ order: "agreement" })).toEqual([
      ["h1", 1 / 3],
      ["c1", (1 / 3 + 1 / 2 + 1 / 2) / 3],
      ["c2", null],
    ]);
    // Held at the agreement it was ranked by before the decision, c1 keeps its place (its badge says the agreement now).
    expect(page({ order: "agreement", hold: { c1: 1 / 9 } })).toEqual([
      ["c1", (1 / 3 + 1 / 2 + 1 / 2) / 3],
      ["h1", 1 / 3],
      ["c2", null],
    ]);
    // A hold ranks an instance without agreement too (null: last), and is ignored in corpus order.
    expect(page({ order: "agreement", hold: { h1: null } }).map((r) => r[0])).toEqual(["c1", "c2", "h1"]);
    expect(page({ hold: { c2: 0 } }).map((r) => r[0])).toEqual(["c1", "c2", "h1"]);
    // The annotator filter: instances the annotator answered (a struck response still counts).
    adjudicate(db, coord, project.id, { action: "strike-response", instanceId: "h1", annotator: "cat" });
    expect(page({ annotator: "cat" }).map((r) => r[0])).toEqual(["c1", "c2", "h1"]);
    expect(page({ annotator: "nobody" })).toEqual([]);
    expect(() => setReviewed(db, coord, project.id, "zz", true)).toThrow(NotFoundError);
  });

  it("itemPairwise is the per-item measure computeAgreement reports", () => {
    const { db, coord, project } = setup();
    adjudicate(db, coord, project.id, { action: "correct", instanceId: "h1", annotator: "bea", substitute: "jump", value: "bound" });
    const items = projectGold(db, coord, project.id).result.items;
    const report = computeAgreement(items, { bootstrapIterations: 0 });
    for (const it of report.perItem) expect(itemPairwise(items.find((i) => i.instanceId === it.instanceId)!)).toBeCloseTo(it.pairwise!, 12);
    expect(report.perItem.length).toBeGreaterThan(0);
  });
});

describe("exports", () => {
  it("the responses TSV gains the adjudication columns and still imports back as the annotators answered", () => {
    const { db, coord, project } = setup();
    const plain = exportAdjudicatedResponses(db, coord, project.id);
    expect(plain.split("\n")[0]).toBe("annotator\tlexelt\tinstance\tanswer\tmultiword");
    const d = adjudicate(db, coord, project.id, { action: "strike", instanceId: "c1", annotator: "bea", substitute: "still", reason: "off" });
    adjudicate(db, coord, project.id, { action: "strike-response", instanceId: "c2", annotator: "cat" });
    const out = exportAdjudicatedResponses(db, coord, project.id).split("\n");
    expect(out[0]).toBe("annotator\tlexelt\tinstance\tanswer\tmultiword\tadjudicated\tadjudication");
    expect(out).toContain(`bea\tcalm.a\tc1\tstill;tranquil\t\ttranquil\tstruck "still" by coord ${d.decidedAt.toISOString()} (off)`);
    expect(out.find((l) => l.startsWith("cat\tcalm.a\tc2\t"))).toMatch(/^cat\tcalm\.a\tc2\tNIL\t\tSTRUCK\tresponse struck by coord /);
    expect(out).toContain("ann\tcalm.a\tc1\tstill;peaceful\t\t\t");
    const text = out.join("\n");
    const parsed = parseResponsesTsv(text, "x.tsv");
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.responses.map(({ line: _line, ...r }) => r)).toEqual(listProjectResponses(db, coord, project.id));
    const again = importResponses(db, coord, project.id, { fileName: "x.tsv", text });
    expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 9 });
  });

  it("the review log (CSV and TSV) lists strikes, corrections, undos and review marks, oldest first", () => {
    const { db, coord, project } = setup();
    const d = adjudicate(db, coord, project.id, { action: "strike", instanceId: "c1", annotator: "bea", substitute: "still", reason: "off, here" });
    adjudicate(db, coord, project.id, { action: "correct", instanceId: "h1", annotator: "cat", substitute: "skip", value: "leap" });
    undoAdjudication(db, coord, project.id, d.id);
    setReviewed(db, coord, project.id, "c1", true);
    const csv = goldReviewCsv(db, coord, project.id).split("\r\n");
    expect(csv[0]).toBe("at,by,kind,target,decision,value,annotator,substitute,reason");
    expect(csv.slice(1, -1).map((l) => l.replace(/^[^,]+,/, ""))).toEqual([
      'coord,strike,c1,struck,,bea,still,"off, here"',
      "coord,correct,h1,corrected,leap,cat,skip,",
      "coord,undo,c1,undone (struck),,bea,still,",
      "coord,reviewed,c1,reviewed,,,,",
    ]);
    const tsvLines = goldReviewTsv(db, coord, project.id).split("\n");
    expect(tsvLines[0]).toBe("at\tby\tkind\ttarget\tdecision\tvalue\tannotator\tsubstitute\treason");
    expect(tsvLines[1].split("\t").slice(1)).toEqual(["coord", "strike", "c1", "struck", "", "bea", "still", "off, here"]);
    const page = reviewLogPage(db, coord, project.id, 2, 3);
    expect(page).toMatchObject({ total: 4, page: 2, pages: 2, start: 3 });
    expect(page.rows.map((r) => r.kind)).toEqual(["strike"]);
  });
});

describe("multiword decisions (the mwgold)", () => {
  // h1: ann and bea gave "hop about", cat gave no phrase: a multiword item, "hop about" by two.
  const MW = "\nhop.v h1 :: hop about 2;\n";
  const bea = { action: "multiword", instanceId: "h1", annotator: "bea", substitute: "hop about" } as const;

  it("a corrected phrase is counted as corrected; the answer is untouched; undo restores the mwgold", () => {
    const { db, coord, project } = decided();
    const before = projectGold(db, coord, project.id);
    expect(before.mwgold).toBe(MW);
    expect(before.result.summary.mwItems).toBe(1);
    const d = adjudicate(db, coord, project.id, { ...bea, value: " hop  around ", reason: "extent" });
    expect(d).toMatchObject({ action: "multiword", annotator: "bea", substitute: "hop about", value: "hop around", reason: "extent", decidedBy: "coord" });
    const g = projectGold(db, coord, project.id);
    // One each, ties in code-point order: no longer a multiword item; the gold line is unchanged.
    expect(g.mwgold).toBe("\nhop.v h1 :: hop about 1;hop around 1;\n");
    expect(g.result.summary.mwItems).toBe(0);
    expect(g.gold).toBe(before.gold);
    expect(listProjectResponses(db, coord, project.id).find((r) => r.annotator === "bea" && r.instanceId === "h1")?.multiword).toBe("hop about");
    undoAdjudication(db, coord, project.id, d.id);
    expect(projectGold(db, coord, project.id).mwgold).toBe(MW);
  });

  it('"not a multiword" leaves the phrase out and keeps the substitutes', () => {
    const { db, coord, project } = decided();
    const before = projectGold(db, coord, project.id).gold;
    adjudicate(db, coord, project.id, { ...bea, value: null });
    expect(projectGold(db, coord, project.id).mwgold).toBe("\nhop.v h1 :: hop about 1;\n");
    adjudicate(db, coord, project.id, { ...bea, annotator: "ann", value: null });
    const g = projectGold(db, coord, project.id);
    expect(g.mwgold).not.toContain("h1");
    expect(g.result.summary.mwItems).toBe(0);
    expect(g.gold).toBe(before);
  });

  it("one phrase adopted for all: a decision per response that gave another phrase, each undoable", () => {
    const { db, coord, project } = decided();
    const r = adoptMultiword(db, coord, project.id, { instanceId: "h1", phrase: "hop  around", reason: "the phrasal verb" });
    // cat gave no phrase and is left as they answered.
    expect(r.decided.map((d) => [d.annotator, d.substitute, d.value, d.reason])).toEqual([
      ["ann", "hop about", "hop around", "the phrasal verb"],
      ["bea", "hop about", "hop around", "the phrasal verb"],
    ]);
    expect(r.skipped).toEqual([]);
    const g = projectGold(db, coord, project.id);
    expect(g.mwgold).toBe("\nhop.v h1 :: hop around 2;\n");
    expect(g.result.items.find((i) => i.instanceId === "h1")?.multiword).toBe("hop around");
    // Nothing left to decide.
    expect(() => adoptMultiword(db, coord, project.id, { instanceId: "h1", phrase: "hop around" })).toThrow(/already/);
    undoAdjudication(db, coord, project.id, r.decided[0].id);
    expect(projectGold(db, coord, project.id).mwgold).toBe("\nhop.v h1 :: hop about 1;hop around 1;\n");
    // bea's phrase has a decision: left as decided, ann's adopted.
    const again = adoptMultiword(db, coord, project.id, { instanceId: "h1", phrase: "hop about the lawn" });
    expect(again.decided.map((d) => d.annotator)).toEqual(["ann"]);
    expect(again.skipped).toEqual(["bea"]);
  });

  it("refuses phrases that break the phrase rules, answers without that phrase and second decisions, writing nothing", () => {
    const { db, coord, ann, project } = setup();
    const refused: [unknown, new (...a: never[]) => Error][] = [
      [{ ...bea, value: "jump about" }, InputError], // without the target word
      [{ ...bea, value: "hopping" }, InputError], // one word
      [{ ...bea, value: "hop about; hop around" }, InputError], // a list
      [{ ...bea, value: "" }, InputError],
      [{ ...bea, value: "hop about" }, InputError], // no change
      [{ ...bea, substitute: "hop around", value: null }, InputError], // not bea's phrase
      [{ ...bea, annotator: "cat", value: null }, InputError], // cat gave no phrase
      [{ ...bea, instanceId: "c1", value: null }, InputError], // no phrase on c1
      [{ ...bea, instanceId: "zz", value: null }, NotFoundError],
    ];
    const version = dataVersion(db, project.id);
    for (const [input, err] of refused) expect(() => adjudicate(db, coord, project.id, input), JSON.stringify(input)).toThrow(err);
    expect(() => adoptMultiword(db, coord, project.id, { instanceId: "h1", phrase: "jump about" })).toThrow(InputError);
    expect(() => adoptMultiword(db, coord, project.id, { instanceId: "h1", phrase: "hop about" })).toThrow(/already/);
    expect(() => adoptMultiword(db, coord, project.id, { instanceId: "zz", phrase: "hop about" })).toThrow(NotFoundError);
    expect(() => adjudicate(db, ann, project.id, { ...bea, value: null })).toThrow(AuthError);
    expect(() => adoptMultiword(db, ann, project.id, { instanceId: "h1", phrase: "hop around" })).toThrow(AuthError);
    expect(count(db, "adjudications")).toBe(0);
    expect(count(db, "gold_review_log")).toBe(0);
    expect(dataVersion(db, project.id)).toBe(version);
    adjudicate(db, coord, project.id, { ...bea, value: null });
    expect(dataVersion(db, project.id)).toBeGreaterThan(version);
    expect(() => adjudicate(db, coord, project.id, { ...bea, value: "hop around" })).toThrow(/undo it first/);
    // A multiword decision leaves the substitutes open to their own decisions.
    adjudicate(db, coord, project.id, { action: "strike", instanceId: "h1", annotator: "bea", substitute: "jump" });
    expect(count(db, "adjudications")).toBe(2);
  });

  it("a decision on a phrase the annotator has since changed is kept but not applied (stale)", () => {
    const { db, coord, project } = decided();
    adjudicate(db, coord, project.id, { ...bea, value: null });
    importResponses(db, coord, project.id, { fileName: "fix.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nbea\thop.v\th1\tjump\thop around\n" });
    expect(projectGold(db, coord, project.id).mwgold).toBe("\nhop.v h1 :: hop about 1;hop around 1;\n");
    const card = goldPageData(db, coord, project.id, { instances: { instance: "h1", pageSize: 1 } }).instancePage.rows[0];
    expect(card.adjudications).toEqual([expect.objectContaining({ action: "multiword", substitute: "hop about", stale: true })]);
  });

  it("the exports and the review log say what was decided on the phrase", () => {
    const { db, coord, project } = setup();
    const d = adjudicate(db, coord, project.id, { ...bea, value: "hop around", reason: "extent" });
    const n = adjudicate(db, coord, project.id, { ...bea, annotator: "ann", value: null });
    undoAdjudication(db, coord, project.id, n.id);
    const out = exportAdjudicatedResponses(db, coord, project.id).split("\n");
    // The answer as given, the substitutes the gold counts, and the decision in words.
    expect(out).toContain(`bea\thop.v\th1\tjump\thop about\tjump\tmultiword "hop about" corrected to "hop around" by coord ${d.decidedAt.toISOString()} (extent)`);
    expect(out.find((l) => l.startsWith("ann\thop.v\th1\t"))).toBe("ann\thop.v\th1\tjumps;skip\thop about\t\t");
    const csv = goldReviewCsv(db, coord, project.id).split("\r\n");
    expect(csv.slice(1, -1).map((l) => l.replace(/^[^,]+,/, ""))).toEqual([
      "coord,multiword,h1,multiword corrected,hop around,bea,hop about,extent",
      "coord,multiword,h1,not a multiword,,ann,hop about,",
      "coord,undo,h1,undone (not a multiword),,ann,hop about,",
    ]);
    // An undone "not a multiword" decision leaves the export as the annotators answered: it imports back unchanged.
    expect(importResponses(db, coord, project.id, { fileName: "x.tsv", text: out.join("\n") })).toMatchObject({ added: 0, updated: 0, unchanged: 9 });
  });
});
