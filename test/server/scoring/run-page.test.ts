/**
 * A run's figures page from its kept items (#39): its totals, report, breakdown per PoS, ignored
 * lines and items equal the run scored whole (scores.ts runDetail), to the last digit, for best,
 * oot and mw runs, after the gold changes too; the items come a page at a time, filtered by a text
 * of their line, by id or to those without credit; the repaired mode and a run not kept item by
 * item are left to the whole scoring.
 */
import { describe, expect, it } from "vitest";
import { saveResponse } from "../../../lib/server/annotate/responses";
import { setExclusion } from "../../../lib/server/gold/gold";
import { storeGold } from "../../../lib/server/scoring/golds";
import { uploadRun } from "../../../lib/server/scoring/runs";
import { ITEMS_PAGE, keptRunDetail } from "../../../lib/server/scoring/run-page";
import { runDetail } from "../../../lib/server/scoring/scores";
import { goldFixture } from "../../support/gold-fixture";

/** A run answering the fixture's instances, with `extra` lines for ids the project does not hold (some repeated) and a CRLF line. */
function run(kind: "best" | "oot", extra: number): string {
  const sep = kind === "best" ? "::" : ":::";
  const lines = [`calm.a c1 ${sep} still;quiet`, `calm.a c2 ${sep} serene`, `hop.v h1 ${sep} jump;skip\r`, `hop.v h2 ${sep} board`, `calm.a c1 ${sep} again`];
  for (let k = 0; k < extra; k++) lines.push(`x.n z${k % Math.floor(extra * 0.9)} ${sep} word${k % 7}`);
  return lines.join("\n") + "\n";
}

type Detail = ReturnType<typeof runDetail>;
const figuresOf = (d: Detail) => ({ figures: d.figures, report: d.report, byPos: d.byPos, ignored: d.ignored, lines: d.lines, problem: d.problem, goldName: d.goldName });

describe("a run's figures page from its kept items", () => {
  for (const kind of ["best", "oot"] as const) {
    it(`${kind}: the totals, report and breakdowns of a whole scoring, and its items a page at a time`, () => {
      const f = goldFixture(undefined, { acceptProposals: true });
      const { run: r } = uploadRun(f.db, f.coord, f.project.id, { fileName: `sys.${kind}`, text: run(kind, 300) });
      const check = () => {
        const kept = keptRunDetail(f.db, f.coord, f.project.id, r.id)!;
        const whole = runDetail(f.db, f.coord, f.project.id, r.id);
        expect(kept).not.toBeNull();
        expect(figuresOf(kept)).toEqual(figuresOf(whole));
        expect(kept.paged.attempted).toBe(whole.items.length);
        expect(kept.items).toEqual(whole.items.slice(0, ITEMS_PAGE));
        return { kept, whole };
      };
      const { whole } = check();
      expect(whole.items.length).toBeGreaterThan(0);
      // The gold changes: an instance excluded, an answer saved; the page follows, equal to a whole scoring again.
      setExclusion(f.db, f.coord, f.project.id, "c1", "test");
      const instance = f.db.$client.prepare("select id from instances where instance_id = 'h2'").pluck().get() as number;
      saveResponse(f.db, f.ann, f.project.id, instance, { kind: "substitutes", substitutes: ["board"], multiword: false }, { expectedRevision: 1 });
      const after = check();
      expect(after.kept.figures).not.toEqual(figuresOf(whole).figures);
      // Filtered: by a text of the line, by id, to those without credit.
      const byText = keptRunDetail(f.db, f.coord, f.project.id, r.id, {}, { q: "JUMP" })!;
      expect(byText.items.map((i) => i.id)).toEqual(after.whole.items.filter((i) => i.kind === "substitution" && i.guesses.includes("jump")).map((i) => i.id));
      const one = keptRunDetail(f.db, f.coord, f.project.id, r.id, {}, { item: "h1" })!;
      expect(one.items.map((i) => i.id)).toEqual(["h1"]);
      expect(one.paged.found).toBe(1);
      const missed = keptRunDetail(f.db, f.coord, f.project.id, r.id, {}, { missed: true })!;
      expect(missed.items).toEqual(after.whole.items.filter((i) => i.kind === "substitution" && i.credit === 0));
    });
  }

  it("pages through many attempted items in the whole scoring's order", () => {
    const f = goldFixture(undefined, { acceptProposals: true });
    // The fixture's ids, answered many times over under other lexelts are outside T; the ids of T are few, so page a small gold's items by asking past the end too.
    const { run: r } = uploadRun(f.db, f.coord, f.project.id, { fileName: "sys.best", text: run("best", 10) });
    const whole = runDetail(f.db, f.coord, f.project.id, r.id);
    const last = keptRunDetail(f.db, f.coord, f.project.id, r.id, {}, { page: 99 })!;
    expect(last.paged.page).toBe(Math.max(1, Math.ceil(whole.items.length / ITEMS_PAGE)));
    expect(last.items).toEqual(whole.items.slice((last.paged.page - 1) * ITEMS_PAGE));
  });

  it("mw: the totals of a whole scoring", () => {
    const f = goldFixture(undefined, { acceptProposals: true });
    const { run: r } = uploadRun(f.db, f.coord, f.project.id, { fileName: "sys.mw", text: "calm.a c1 :: keep still\ncalm.a c2 :: calm down\ncalm.a c1 :: again\nx.n z1 :: other\n" });
    const kept = keptRunDetail(f.db, f.coord, f.project.id, r.id)!;
    const whole = runDetail(f.db, f.coord, f.project.id, r.id);
    expect(figuresOf(kept)).toEqual(figuresOf(whole));
    expect(kept.items).toEqual(whole.items.slice(0, ITEMS_PAGE));
  });

  it("a run scored with a stored gold: the totals and items of a whole scoring", () => {
    const f = goldFixture(undefined, { acceptProposals: true });
    const gold = "calm.a c1 :: still 2;quiet 1;\ncalm.a c2 :: serene 1;peaceful 1;\nhop.v h1 :: jump 3;\nhop.v h9 :: leap 1;\n";
    const goldId = storeGold(f.db, f.coord, f.project.id, { name: "hand", gold: { name: "hand.gold", text: gold }, mwgold: null }).id!;
    const { run: r } = uploadRun(f.db, f.coord, f.project.id, { fileName: "sys.best", text: run("best", 20), gold: goldId });
    const kept = keptRunDetail(f.db, f.coord, f.project.id, r.id)!;
    const whole = runDetail(f.db, f.coord, f.project.id, r.id);
    expect(whole.items.length).toBeGreaterThan(0);
    expect(figuresOf(kept)).toEqual(figuresOf(whole));
    expect(kept.items).toEqual(whole.items.slice(0, ITEMS_PAGE));
  });

  it("leaves the repaired figures and the other reading to a whole scoring", () => {
    const f = goldFixture(undefined, { acceptProposals: true });
    const { run: r } = uploadRun(f.db, f.coord, f.project.id, { fileName: "sys.best", text: run("best", 5) });
    expect(keptRunDetail(f.db, f.coord, f.project.id, r.id, { repaired: true })).toBeNull();
    expect(keptRunDetail(f.db, f.coord, f.project.id, r.id, { reading: "utf8" })).toBeNull();
  });
});
