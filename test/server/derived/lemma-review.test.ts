/**
 * The lemma review read a page at a time from the kept forms (lib/server/derived/lemma-review.ts):
 * every page, under every filter, and the counts equal the whole review cut as the Gold page cut
 * it before (lemmaReviewOf, filterLemmaReview, pageOf) — with many forms sharing a count, so that
 * the language's collation orders the ties, and decisions on some of them.
 */
import { describe, expect, it } from "vitest";
import { lemmaReviewCounts, lemmaReviewEntry, lemmaReviewOf, lemmaReviewSlice, openProposalsOf } from "../../../lib/server/derived/lemma-review";
import { proposalOrder, proposalsOfRow } from "../../../lib/lexsub/gold";
import { filterLemmaReview } from "../../support/full-derivation";
import { lemmaReviewOrder } from "../../../lib/lexsub/normalize";
import { projectFixture } from "../../support/db";

/** Forms whose collation differs from their code points: accents, spaces, hyphens, apostrophes, digits, ä/å/ö. */
const FORMS = [
  "ete", "été", "etz", "éta", "a b", "a-b", "ab", "a'b", "a1", "a2", "b", "ä", "å", "ö", "o", "z", "zz", "æble", "aeble", "ß", "ss",
  "ı", "i", "run", "ran", "running", "runs", "took place", "take place", "taken", "went", "go", "goes", "ø", "y", "ü", "u",
];

function seeded() {
  const f = projectFixture();
  const db = f.db;
  const userId = (db.$client.prepare("select id from users where name = 'coord'").get() as { id: number }).id;
  const insert = db.$client.prepare(
    "insert into lemma_forms (project_id, form, count, by_pos, proposals, choices, spacing, changed, spacing_count) values (?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  // Spellings with other spacing: of forms left open ("a'b", "zz") and of one decided ("a b").
  const SPACED: Record<number, Record<string, number>> = { 7: { "a  'b": 1 }, 4: { "a  b": 2, " a b": 1 }, 16: { "zz ": 3, " zz": 1 } };
  FORMS.forEach((form, k) => {
    // Three counts only, so that most forms tie with others; every third form changed by its proposal.
    const count = 1 + (k % 3);
    const changed = k % 4 === 0;
    const byPos = k % 5 === 0 ? { v: count - 1 || 1, n: 1 } : { n: count };
    const proposals = Object.fromEntries(Object.keys(byPos).map((pos) => [pos, changed ? `${form}x` : form]));
    const spacing = SPACED[k] ?? {};
    const total = Object.values(byPos).reduce((a, b) => a + b, 0);
    const spaced = Object.keys(spacing).length;
    insert.run(f.project.id, form, total, JSON.stringify(byPos), JSON.stringify(proposals), "{}", JSON.stringify(spacing), changed || spaced > 0 ? 1 : 0, spaced);
  });
  // Each form's proposal figures as the maintenance keeps them (lib/server/derived/maintain.ts): from its row undecided.
  const figures = db.$client.prepare("update lemma_forms set proposal_count = ?, proposal_uses = ?, proposal_top = ? where project_id = ? and form = ?");
  for (const form of FORMS) {
    const applies = proposalsOfRow(lemmaReviewEntry(db, f.project.id, "en", form)!);
    figures.run(applies.length, applies.reduce((n, p) => n + p.count, 0), Math.max(0, ...applies.map((p) => p.count)), f.project.id, form);
  }
  const decide = db.$client.prepare("insert into lemma_overrides (project_id, form, lemma, decision, decided_by, decided_at) values (?, ?, ?, ?, ?, ?)");
  // Decisions on some forms, and one on a form nobody typed (it counts nowhere).
  for (const [form, lemma, decision] of [["ete", "ete", "kept"], ["a b", "ab", "overridden"], ["run", "runx", "accepted"], ["ä", "a", "overridden"], ["never typed", "x", "kept"]] as const) {
    decide.run(f.project.id, form, lemma, decision, userId, 1_700_000_000_000);
  }
  return { ...f, projectId: f.project.id };
}

describe("the lemma review a page at a time", () => {
  for (const language of ["en", "sv", "de", "tr"]) {
    it(`gives every page under every filter as the whole review does (${language})`, () => {
      const { db, projectId } = seeded();
      const whole = lemmaReviewOf(db, projectId, language);
      expect(whole).toHaveLength(FORMS.length);
      for (const contains of ["", "a", " B ", "é", "nothing"]) {
        for (const open of [false, true]) {
          for (const changed of [false, true]) {
            const filter = { contains, open, changed };
            const want = filterLemmaReview(whole, filter);
            for (const size of [1, 4, 7, 50]) {
              for (let start = 0; start <= want.length; start += size) {
                const got = lemmaReviewSlice(db, projectId, language, filter, () => ({ start, size }));
                expect(got.total).toBe(want.length);
                expect(got.rows).toEqual(want.slice(start, start + size));
              }
            }
          }
        }
      }
    });
  }

  it("counts the forms, the changed, the open and the open changed as the whole review does", () => {
    const { db, projectId } = seeded();
    const whole = lemmaReviewOf(db, projectId, "en");
    expect(lemmaReviewCounts(db, projectId)).toEqual({
      forms: whole.length,
      changed: whole.filter((r) => r.changed).length,
      open: whole.filter((r) => r.decision === null).length,
      openChanged: whole.filter((r) => r.changed && r.decision === null).length,
    });
    // Four of the five decisions are on typed forms.
    expect(lemmaReviewCounts(db, projectId).open).toBe(FORMS.length - 4);
  });

  it("reads one form's row, with who decided it, and none for a form nobody typed", () => {
    const { db, projectId } = seeded();
    const whole = lemmaReviewOf(db, projectId, "en");
    for (const r of whole) expect(lemmaReviewEntry(db, projectId, "en", r.form)).toEqual(r);
    expect(lemmaReviewEntry(db, projectId, "en", "a b")).toMatchObject({ decision: "overridden", lemma: "ab", decidedBy: "coord" });
    expect(lemmaReviewEntry(db, projectId, "en", "a b")?.decidedAt?.getTime()).toBe(1_700_000_000_000);
    expect(lemmaReviewEntry(db, projectId, "en", "never typed")).toBeNull();
  });

  it("sums the open proposals and lists the first ones as the whole review has them, whatever the number asked", () => {
    const { db, projectId } = seeded();
    const whole = lemmaReviewOf(db, projectId, "sv");
    const want = whole.filter((r) => r.decision === null).flatMap(proposalsOfRow).sort(proposalOrder);
    // Several forms, counts that tie across forms, and two PoS in some: the early stop has ties to get right.
    expect(want.length).toBeGreaterThan(6);
    expect(new Set(want.map((p) => p.count)).size).toBeGreaterThan(1);
    // The open forms' spellings with other spacing (the decided "a b" has two more, left out).
    const spacing = (rows: typeof whole) => rows.filter((r) => r.decision === null).reduce((n, r) => n + (r.spacing?.length ?? 0), 0);
    expect(spacing(whole)).toBe(3);
    for (const first of [0, 1, 2, 3, 5, want.length - 1, want.length, 50]) {
      expect(openProposalsOf(db, projectId, "sv", first)).toEqual({ count: want.length, uses: want.reduce((n, p) => n + p.count, 0), first: want.slice(0, first), spacing: 3 });
    }
    // A decision takes a form's proposals out of the sums and the list, and its spellings out of the count.
    const decided = want[0].form;
    db.$client.prepare("insert into lemma_overrides (project_id, form, lemma, decision, decided_at) values (?, ?, ?, 'kept', 1)").run(projectId, decided, decided);
    const left = want.filter((p) => p.form !== decided);
    expect(openProposalsOf(db, projectId, "sv", 3)).toEqual({ count: left.length, uses: left.reduce((n, p) => n + p.count, 0), first: left.slice(0, 3), spacing: 3 });
    db.$client.prepare("insert into lemma_overrides (project_id, form, lemma, decision, decided_at) values (?, 'zz', 'zz', 'kept', 1)").run(projectId);
    expect(openProposalsOf(db, projectId, "sv", 3).spacing).toBe(spacing(lemmaReviewOf(db, projectId, "sv")));
    expect(openProposalsOf(db, projectId, "sv", 3).spacing).toBe(1);
  });

  it("reads on through forms whose largest proposal ties with the last one kept, in form order", () => {
    const f = projectFixture();
    const db = f.db;
    const insert = db.$client.prepare(
      "insert into lemma_forms (project_id, form, count, by_pos, proposals, choices, spacing, changed) values (?, ?, ?, ?, ?, '{}', '{}', 1)",
    );
    // zz: 3 answers as a noun, 1 as a verb; aa: 1 as a noun. In their order: zz (n) ×3, aa ×1, zz (v) ×1 — aa is
    // read after zz (its largest proposal is smaller) but its one proposal comes before zz's second.
    insert.run(f.project.id, "zz", 4, JSON.stringify({ n: 3, v: 1 }), JSON.stringify({ n: "zzn", v: "zzv" }));
    insert.run(f.project.id, "aa", 1, JSON.stringify({ n: 1 }), JSON.stringify({ n: "aan" }));
    const figures = db.$client.prepare("update lemma_forms set proposal_count = ?, proposal_uses = ?, proposal_top = ? where project_id = ? and form = ?");
    for (const form of ["zz", "aa"]) {
      const applies = proposalsOfRow(lemmaReviewEntry(db, f.project.id, "en", form)!);
      figures.run(applies.length, applies.reduce((n, p) => n + p.count, 0), Math.max(0, ...applies.map((p) => p.count)), f.project.id, form);
    }
    expect(openProposalsOf(db, f.project.id, "en", 2).first.map((p) => `${p.form} ${p.pos} ${p.count}`)).toEqual(["zz n 3", "aa n 1"]);
    expect(openProposalsOf(db, f.project.id, "en", 3)).toMatchObject({ count: 3, uses: 5 });
  });
});
