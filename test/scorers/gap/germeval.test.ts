/**
 * GAP on a gold written the GermEval 2015 way (`; ` between entries, lexelts with
 * umlauts), with GermEval's own ranked run (`lexelt id :::: a;b;c`) and an oot run
 * (issue #40). Files written here; figures derived by hand beside them.
 */
import { describe, expect, it } from "vitest";
import { parseLstGapGold, parseRanked, rankRuns, type RankOptions } from "../../../lib/scorers/rank";

// Two items: weights Raub 3, Beutezug 2, Ausplünderung 1; Rückzug 2, Abmarsch 1.
const GOLD = "Plünderung.n 1 :: Raub 3; Beutezug 2; Ausplünderung 1;\nAbzug.n 2 :: Rückzug 2; Abmarsch 1;\n";
// The gold's own ranking, as GermEval's systems wrote their .rank files.
const OWN_RANKING = "Plünderung.n 1 :::: Raub;Beutezug;Ausplünderung\nAbzug.n 2 :::: Rückzug;Abmarsch\n";

const gap = (run: string, options: RankOptions = {}, runName = "own.rank") => rankRuns("gap", { name: "g.gold", text: GOLD }, [{ name: runName, text: run }], null, options);

describe("GAP on a gold with `; ` between entries (GermEval 2015's)", () => {
  it("keeps lst_gap.py's figure by default, and warns naming how many entries start with a space and the first line", () => {
    const t = gap(OWN_RANKING);
    // lst_gap.py keeps " Beutezug", " Ausplünderung", " Abmarsch": only the first entry of each item matches.
    // Item 1: numerator 3/1; denominator 3/1 + 5/2 + 6/3 = 7.5 → 0.4. Item 2: 2/1 ÷ (2/1 + 3/2) = 4/7. Mean (0.4 + 4/7) / 2.
    expect(t.rows[0].values[0]).toBeCloseTo((0.4 + 4 / 7) / 2, 12);
    const w = t.diagnostics.filter((d) => /start with a space/.test(d.message));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatchObject({ severity: "warning", file: "g.gold", line: 1 });
    expect(w[0].message).toMatch(/^3 entries start with a space \(the first on line 1: " Beutezug 2"; .*GermEval 2015's is\): lst_gap\.py keeps the space .*--repaired strips it$/);
  });

  it("--repaired strips the space: the gold's own ranking scores 1", () => {
    const t = gap(OWN_RANKING, { repaired: true });
    expect(t.rows[0].values[0]).toBe(1);
    expect(t.diagnostics.find((d) => /start with a space/.test(d.message))?.message).toMatch(/the space is stripped \(repaired\)$/);
  });

  it("says nothing of a gold written with `;` alone", () => {
    const g = parseLstGapGold("Abzug.n 2 :: Rückzug 2;Abmarsch 1;\n", "g.gold");
    expect(g.diagnostics).toEqual([]);
  });
});

describe("GermEval's ranked run (`lexelt id :::: a;b;c`)", () => {
  it("is recognised and read whole, lexelts with umlauts included, candidates best first", () => {
    const r = parseRanked(OWN_RANKING, "own.rank");
    expect(r.format).toBe("germeval");
    expect(r.items.map((i) => [i.key, i.candidates.map((c) => c.substitute)])).toEqual([
      ["Plünderung.n 1", ["Raub", "Beutezug", "Ausplünderung"]],
      ["Abzug.n 2", ["Rückzug", "Abmarsch"]],
    ]);
    expect(parseRanked("Plünderung.n 1 :: Raub\n", "x.rank", "germeval").diagnostics.map((d) => `${d.severity} ${d.line}`)).toEqual(["error 1"]);
  });
});

describe("an oot run's lexelts with non-ASCII letters", () => {
  const OOT = "Plünderung.n 1 ::: Raub;Beutezug;Ausplünderung\nAbzug.n 2 ::: Rückzug;Abmarsch\n";

  it("are read as score.pl reads bytes by default (`nderung.n`): the item is not matched, an error names both lines", () => {
    expect(parseRanked(OOT, "r.oot", "oot").items[0].key).toBe("nderung.n 1");
    const t = gap(OOT, { repaired: true }, "r.oot");
    expect(gap(OOT, {}, "r.oot").diagnostics.some((d) => d.severity === "error" && /"Plünderung\.n 1" is not in r\.oot/.test(d.message))).toBe(true);
    // Repaired, the item is matched by id instead.
    expect(t.rows[0].values[0]).toBe(1);
  });

  it("are read whole with utf8 (the CLI's --utf8; a project in another language than English)", () => {
    expect(parseRanked(OOT, "r.oot", "oot", { utf8: true }).items[0].key).toBe("Plünderung.n 1");
    const t = gap(OOT, { utf8: true, repaired: true }, "r.oot");
    expect(t.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(t.rows[0].values[0]).toBe(1);
  });
});
