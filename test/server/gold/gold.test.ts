/**
 * lib/server/gold/gold.ts: responses in the db → lemma review → gold, mwgold and
 * agreement, and the files scored by the built-in scorer, with figures worked
 * out by hand below.
 */
import { describe, expect, it } from "vitest";
import { importLexeltXml } from "../../../lib/server/corpus/corpus";
import { AuthError, InputError, NotFoundError } from "../../../lib/server/kernel/errors";
import {
  acceptAllProposals,
  decideLemma,
  decideLemmasWhere,
  goldReviewHistory,
  importLemmaDecisions,
  lemmaReview,
  projectAgreement,
  projectGold,
  setCorrectedPos,
  setExclusion,
} from "../../../lib/server/gold/gold";
import { createProject } from "../../../lib/server/corpus/projects";
import { importResponses } from "../../../lib/server/annotate/response-import";
import { addMember } from "../../../lib/server/people/users";
import { scoreTexts } from "../../../lib/scorers/semeval2007";
import type { MwResult, SubstitutionResult } from "../../../lib/scorers/semeval2007";
import { actorFor, projectFixture } from "../../support/db";
import { calmProject, calmTsv, calmXml } from "../../support/calm-fixture";

const xml = calmXml;
const tsv = calmTsv;
const setup = calmProject;
/** The project after the coordinator accepted the one proposal that changes a form (jumps → jump). */
const decided = () => calmProject({ acceptProposals: true });

describe("projectGold", () => {
  it("derives the gold and mwgold files from the stored responses, writing unreviewed forms as typed until a decision or the option lemmatises them", () => {
    const { db, coord, project } = setup();
    const g = projectGold(db, coord, project.id);
    // Nobody decided jumps: it is written as typed. NAME is written as pn; NIL is not written; ties alphabetical.
    expect(g.gold).toBe("\ncalm.a c1 :: still 2;peaceful 1;serene 1;tranquil 1;\ncalm.a c2 :: pn 2;\nhop.v h1 :: skip 2;jump 1;jumps 1;\n");
    expect(g.mwgold).toBe("\nhop.v h1 :: hop about 2;\n");
    // h1's mode is skip (2 of 4), so two items have a mode.
    expect(g.result.summary).toMatchObject({ instances: 3, goldLines: 3, inT: 2, withMode: 2, mwLines: 1, mwItems: 1 });
    expect(g.result.applied).toEqual([]);
    // Asked for, the proposal is applied and named: jumps (v) → jump.
    const proposed = projectGold(db, coord, project.id, { applyProposals: true });
    expect(proposed.gold).toBe("\ncalm.a c1 :: still 2;peaceful 1;serene 1;tranquil 1;\ncalm.a c2 :: pn 2;\nhop.v h1 :: jump 2;skip 2;\n");
    expect(proposed.result.applied).toEqual([{ form: "jumps", lemma: "jump", pos: "v", count: 1 }]);
    // Accepted (a recorded decision), the default download writes the lemma too.
    const d = decided();
    const accepted = projectGold(d.db, d.coord, d.project.id);
    expect(accepted.gold).toBe(proposed.gold);
    expect(accepted.result.summary).toMatchObject({ instances: 3, goldLines: 3, inT: 2, withMode: 1, mwLines: 1, mwItems: 1 });
    expect(accepted.result.applied).toEqual([]);
  });

  it("scores with the built-in scorer exactly as worked out by hand", () => {
    const { db, coord, project } = decided();
    const g = projectGold(db, coord, project.id);
    const system = "calm.a c1 :: still\nhop.v h1 :: jump;skip\n";
    const best = scoreTexts({ type: "best", system, gold: g.gold }).result as SubstitutionResult;
    // c1: 2 / (1·5) = 0.4; h1: (2 + 2) / (2·4) = 0.5; T = {c1, h1}; c2 (|H| = 0) is not in T.
    expect(best.stats.total).toBe(2);
    expect(best.stats.attempted).toBe(2);
    expect(best.stats.credit).toBeCloseTo(0.9, 12);
    expect(best.scores.precision).toBeCloseTo(0.45, 12);
    expect(best.scores.recall).toBeCloseTo(0.45, 12);
    // Only c1 has a mode (still); h1's jump and skip tie.
    expect(best.stats.totalWithMode).toBe(1);
    expect(best.scores.modePrecision).toBe(1);
    const mw = scoreTexts({ type: "mw", system: "hop.v h1 :: hop about\ncalm.a c1 :: calm sea\n", gold: g.mwgold }).result as MwResult;
    expect(mw.stats).toMatchObject({ totalMultiwords: 1, systemFound: 2, genuine: 1, matched: 1 });
  });

  it("follows the coordinator's lemma decisions, exclusions and PoS corrections, and reverts them", () => {
    const { db, coord, project } = setup();
    const review = lemmaReview(db, coord, project.id);
    expect(review[0]).toMatchObject({ form: "jumps", proposed: "jump", changed: true, decision: null, count: 1 });
    expect(review.map((r) => r.form)).toContain("hop about");

    expect(decideLemma(db, coord, project.id, { form: " Jumps ", decision: "kept" })).toEqual({ form: "jumps", lemma: "jumps", decision: "kept" });
    expect(projectGold(db, coord, project.id).gold).toContain("hop.v h1 :: skip 2;jump 1;jumps 1;");
    const after = lemmaReview(db, coord, project.id).find((r) => r.form === "jumps")!;
    expect(after).toMatchObject({ decision: "kept", lemma: "jumps", decidedBy: "coord" });
    expect(after.decidedAt).toBeInstanceOf(Date);

    decideLemma(db, coord, project.id, { form: "serene", decision: "overridden", lemma: "still" });
    expect(projectGold(db, coord, project.id).gold).toContain("calm.a c1 :: still 3;peaceful 1;tranquil 1;");
    decideLemma(db, coord, project.id, { form: "serene", decision: "reset" });
    decideLemma(db, coord, project.id, { form: "jumps", decision: "reset" });
    // Undecided again: written as typed.
    expect(projectGold(db, coord, project.id).gold).toContain("hop.v h1 :: skip 2;jump 1;jumps 1;");
    expect(decideLemma(db, coord, project.id, { form: "jumps", decision: "accepted" })).toEqual({ form: "jumps", lemma: "jump", decision: "accepted" });
    expect(projectGold(db, coord, project.id).gold).toContain("hop.v h1 :: jump 2;skip 2;");

    setExclusion(db, coord, project.id, "c2", "  part of a hotel's   name ");
    let g = projectGold(db, coord, project.id);
    expect(g.gold).not.toContain("c2");
    expect(g.result.items.find((i) => i.instanceId === "c2")?.excluded).toBe("part of a hotel's name");
    setExclusion(db, coord, project.id, "c2", null);
    expect(projectGold(db, coord, project.id).gold).toContain("calm.a c2 :: pn 2;");

    setCorrectedPos(db, coord, project.id, "h1", "n");
    g = projectGold(db, coord, project.id);
    // Lemmatised as a noun now: the accepted proposal for jumps is jump as a noun too, written under hop.v.n.
    expect(g.gold).toContain("hop.v.n h1 :: jump 2;skip 2;");
    expect(setCorrectedPos(db, coord, project.id, "h1", "v")).toBeNull();
    expect(projectGold(db, coord, project.id).gold).toContain("hop.v h1 ::");

    const log = goldReviewHistory(db, coord, project.id);
    expect(log.map((e) => e.kind)).toEqual(["pos", "pos", "exclusion", "exclusion", "lemma", "lemma", "lemma", "lemma", "lemma"]);
    expect(log.every((e) => e.by === "coord")).toBe(true);
  });

  it("accepts every open proposal in one go", () => {
    const { db, coord, project } = setup();
    const n = acceptAllProposals(db, coord, project.id);
    const review = lemmaReview(db, coord, project.id);
    expect(n).toBe(review.length);
    expect(review.every((r) => r.decision !== null)).toBe(true);
    expect(review.find((r) => r.form === "jumps")?.decision).toBe("accepted");
    expect(review.find((r) => r.form === "still")?.decision).toBe("kept");
    expect(acceptAllProposals(db, coord, project.id)).toBe(0);
  });

  it("refuses bad decisions with a message naming the field, and writes nothing", () => {
    const { db, coord, project } = setup();
    expect(() => decideLemma(db, coord, project.id, { form: "still", decision: "overridden", lemma: "a;b" })).toThrow(InputError);
    expect(() => decideLemma(db, coord, project.id, { form: "still", decision: "overridden", lemma: "  " })).toThrow(/lemma/);
    expect(() => decideLemma(db, coord, project.id, { form: "nobody typed this", decision: "kept" })).toThrow(NotFoundError);
    expect(() => decideLemma(db, coord, project.id, { form: "still", decision: "maybe" })).toThrow(InputError);
    expect(() => setExclusion(db, coord, project.id, "c1", "   ")).toThrow(/Say why/);
    expect(() => setExclusion(db, coord, project.id, "zz", "x")).toThrow(NotFoundError);
    expect(() => setCorrectedPos(db, coord, project.id, "h1", "x")).toThrow(/n, v, a, r/);
    expect(goldReviewHistory(db, coord, project.id)).toEqual([]);
    expect(lemmaReview(db, coord, project.id).every((r) => r.decision === null)).toBe(true);
  });

  it("is for the project's coordinators only", () => {
    const { db, coord, ann, project } = setup();
    const other = actorFor(db, "other", "coordinator");
    createProject(db, other, { name: "elsewhere" });
    expect(() => projectGold(db, ann, project.id)).toThrow(AuthError);
    expect(() => projectGold(db, null, project.id)).toThrow(AuthError);
    expect(() => projectGold(db, other, project.id)).toThrow(NotFoundError);
    expect(() => decideLemma(db, ann, project.id, { form: "still", decision: "kept" })).toThrow(AuthError);
    expect(() => setExclusion(db, other, project.id, "c1", "x")).toThrow(NotFoundError);
    expect(() => projectAgreement(db, ann, project.id)).toThrow(AuthError);
    expect(projectGold(db, coord, project.id).gold.length).toBeGreaterThan(0);
  });
});

describe("projectAgreement", () => {
  it("gives the figures worked out by hand (jumps accepted as jump)", () => {
    const { db, coord, project } = decided();
    const { agreement: a } = projectAgreement(db, coord, project.id, { bootstrapIterations: 0 });
    // T = {c1, h1}. c1: ann–bea 1/3, ann–cat 0, bea–cat 0; h1: ann–bea 1/2, ann–cat 1/2, bea–cat 0.
    expect(a.items).toBe(2);
    expect(a.pairs).toBe(6);
    expect(a.pairwise).toBeCloseTo((1 / 3 + 1 / 2 + 1 / 2) / 6, 12);
    // c1's mode is still: ann and bea gave it, cat did not.
    expect(a.itemsWithMode).toBe(1);
    expect(a.modeAgreement).toBeCloseTo(2 / 3, 12);
    // Detection over every instance and pair who both answered: 3 + 3 + 1 agree of 9.
    expect(a.mwDetectionPairs).toBe(9);
    expect(a.mwDetection).toBeCloseTo(7 / 9, 12);
    expect(a.mwIdentificationPairs).toBe(1);
    expect(a.mwIdentification).toBe(1);
    expect(a.perAnnotator.map((p) => p.annotator)).toEqual(["ann", "bea", "cat"]);
  });
});

describe("decisions in bulk, case and the proposals an export applies", () => {
  const bulkTsv = [
    "annotator\tlexelt\tinstance\tanswer\tmultiword",
    "ann\tcalm.a\tc1\tstill;TV\t",
    "bea\tcalm.a\tc1\tstill;tv\t",
    "cat\tcalm.a\tc1\tquieter\t",
    "ann\thop.v\th1\tjumps;skipped\t",
    "bea\thop.v\th1\tjump\t",
  ].join("\n");
  function bulk() {
    const f = projectFixture();
    importLexeltXml(f.db, f.coord, f.project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
    for (const n of ["bea", "cat"]) {
      actorFor(f.db, n, "annotator");
      addMember(f.db, f.coord, f.project.id, n);
    }
    importResponses(f.db, f.coord, f.project.id, { fileName: "r.tsv", text: bulkTsv });
    return f;
  }
  const decided = (f: ReturnType<typeof bulk>) =>
    Object.fromEntries(lemmaReview(f.db, f.coord, f.project.id).filter((r) => r.decision).map((r) => [r.form, `${r.decision} ${r.lemma}`]));

  it("leaves a verb target's participle WordNet also has as an adjective open on accept all: a choice decided one by one (#40)", () => {
    const f = projectFixture();
    importLexeltXml(f.db, f.coord, f.project.id, { fileName: "c.xml", bytes: new TextEncoder().encode(xml) });
    importResponses(f.db, f.coord, f.project.id, { fileName: "r.tsv", text: "annotator\tlexelt\tinstance\tanswer\tmultiword\nann\thop.v\th1\texcited;jumps\t\n" });
    const row = () => lemmaReview(f.db, f.coord, f.project.id).find((r) => r.form === "excited")!;
    expect(row()).toMatchObject({ proposed: "excite", changed: true, decision: null, choice: { asTyped: "excited", proposed: "excite", pos: "v" } });
    // Not applied by itself: the gold, with the proposals applied or not, writes it as typed.
    expect(projectGold(f.db, f.coord, f.project.id, { applyProposals: true }).gold).toContain("hop.v h1 :: excited 1;jump 1;");
    expect(acceptAllProposals(f.db, f.coord, f.project.id)).toBe(1);
    expect(row().decision).toBeNull();
    decideLemma(f.db, f.coord, f.project.id, { form: "excited", decision: "accepted", pos: "v" });
    expect(row()).toMatchObject({ decision: "accepted", lemma: "excite" });
    expect(projectGold(f.db, f.coord, f.project.id).gold).toContain("hop.v h1 :: excite 1;jump 1;");
  });

  it("keeps case and forms as typed by default, folds case when asked, and applies and lists the proposals when asked", () => {
    const f = bulk();
    const g = projectGold(f.db, f.coord, f.project.id);
    expect(g.gold).toBe("\ncalm.a c1 :: still 2;TV 1;quieter 1;tv 1;\nhop.v h1 :: jump 1;jumps 1;skipped 1;\n");
    expect(g.result.applied).toEqual([]);
    expect(projectGold(f.db, f.coord, f.project.id, { foldCase: true }).gold).toBe("\ncalm.a c1 :: still 2;tv 2;quieter 1;\nhop.v h1 :: jump 1;jumps 1;skipped 1;\n");
    const p = projectGold(f.db, f.coord, f.project.id, { applyProposals: true });
    expect(p.gold).toBe("\ncalm.a c1 :: still 2;TV 1;quiet 1;tv 1;\nhop.v h1 :: jump 2;skip 1;\n");
    expect(p.result.applied.map((a) => `${a.form}→${a.lemma} ${a.pos} ${a.count}`)).toEqual(["jumps→jump v 1", "quieter→quiet a 1", "skipped→skip v 1"]);
    expect(projectGold(f.db, f.coord, f.project.id, { foldCase: true, applyProposals: true }).gold).toBe("\ncalm.a c1 :: still 2;tv 2;quiet 1;\nhop.v h1 :: jump 2;skip 1;\n");
  });

  it("imports a TSV of decisions in one transaction, and the export follows", () => {
    const f = bulk();
    const r = importLemmaDecisions(f.db, f.coord, f.project.id, { fileName: "d.tsv", text: "form\tdecision\r\nJumps\tkeep\nquieter\taccept\n# a comment\n\nskipped\tleapt\ntv\treset\n" });
    expect(r).toMatchObject({ kept: 1, accepted: 1, overridden: 1, reset: 1 });
    expect(r.message).toBe("d.tsv: recorded 4 decisions (1 accepted, 1 kept, 1 overridden, 1 reset).");
    expect(decided(f)).toEqual({ jumps: "kept jumps", quieter: "accepted quiet", skipped: "overridden leapt" });
    const g = projectGold(f.db, f.coord, f.project.id);
    expect(g.gold).toContain("hop.v h1 :: jump 1;jumps 1;leapt 1;");
    expect(g.result.applied).toEqual([]);
    expect(goldReviewHistory(f.db, f.coord, f.project.id).filter((e) => e.kind === "lemma")).toHaveLength(4);
  });

  it("refuses a file with bad lines, naming each, and records nothing", () => {
    const f = bulk();
    const text = "jumps\tkeep\nnobody typed this\tkeep\nstill\n\tkeep\nquieter\ta;b\njumps\taccept\nskipped\t \n";
    let err: InputError | undefined;
    try {
      importLemmaDecisions(f.db, f.coord, f.project.id, { fileName: "bad.tsv", text });
    } catch (e) {
      err = e as InputError;
    }
    expect(err).toBeInstanceOf(InputError);
    expect(err!.details).toEqual([
      'bad.tsv:2: error: no annotator typed "nobody typed this" in this project',
      "bad.tsv:3: error: expected 2 tab-separated cells (form, decision), found 1",
      "bad.tsv:4: error: the form is empty",
      'bad.tsv:5: error: the lemma "a;b" holds \';\', the gold file\'s separator',
      'bad.tsv:6: error: "jumps" is decided twice (first on line 1)',
      'bad.tsv:7: error: no decision for "skipped" (accept, keep, reset or the lemma)',
    ]);
    expect(err!.message).toMatch(/^bad\.tsv:2: error: .*\(and 5 more problems\); nothing was recorded\.$/);
    expect(decided(f)).toEqual({});
    expect(goldReviewHistory(f.db, f.coord, f.project.id)).toEqual([]);
  });

  it("keeps or accepts a whole filter in one transaction: by PoS, open forms only", () => {
    const f = bulk();
    decideLemma(f.db, f.coord, f.project.id, { form: "skipped", decision: "overridden", lemma: "leap" });
    // Open verb forms: jumps, jump (skipped is decided).
    expect(decideLemmasWhere(f.db, f.coord, f.project.id, { decision: "kept", pos: "v", open: true })).toBe(2);
    expect(decided(f)).toEqual({ jump: "kept jump", jumps: "kept jumps", skipped: "overridden leap" });
    // Every adjective form, accepted: quieter → quiet, forms proposing themselves are kept.
    expect(decideLemmasWhere(f.db, f.coord, f.project.id, { decision: "accepted", pos: "a" })).toBe(3);
    expect(decided(f)).toMatchObject({ quieter: "accepted quiet", still: "kept still", tv: "kept tv" });
    // Kept forms are written as typed: TV and tv stay apart.
    expect(projectGold(f.db, f.coord, f.project.id).gold).toContain("calm.a c1 :: still 2;TV 1;quiet 1;tv 1;");
    expect(() => decideLemmasWhere(f.db, f.coord, f.project.id, { decision: "kept", pos: "x" })).toThrow(InputError);
  });
});
