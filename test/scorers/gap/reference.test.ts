/**
 * GAP as the reference scripts compute it, on small files written here. Each
 * expected figure is derived from what the script does with the file (stated
 * beside it): orenmel/lexsub lst_gap.py (Python 2: gold entries split at the
 * last space, the MEAN_GAP printed by str(), 12 significant digits) and
 * Samsung/LexSubGen (its gold reader and gap_score, the mean in metrics.json as
 * round(mean × 100, 2)).
 */
import { describe, expect, it } from "vitest";
import { parseLexsubgenGold, parseLstGapGold, parseRanked, rankRuns, type RankOptions } from "../../../lib/scorers/ranking";

const gap = (gold: string, run: string, options: RankOptions = {}, runName = "r.lst") =>
  rankRuns("gap", { name: "g.gold", text: gold }, [{ name: runName, text: run }], null, options);
const summary = (n: number, used: number, ignored: number, mean: string, runKeys = n) =>
  `gold_data ${n} eval_data ${runKeys}\n\nRead ${used} test instances\n\nIgnored ${ignored} test instances (couldn't compute gap)\n\nMEAN_GAP\t${mean}\n`;

describe("lst_gap.py's gold: split on ';', the weight after the last space", () => {
  it("reads `x 1`, `11.27 kilograms 1` and `quux7` as the script does", () => {
    const g = parseLstGapGold("t.n 1 :: x 1;11.27 kilograms 2;quux7;\n", "g.gold");
    expect(g.diagnostics).toEqual([]);
    // `quux7` has no space: rfind gives -1, so the candidate is all but the last character and the count that character.
    expect(g.items[0].weights).toEqual([
      { substitute: "x", weight: 1 },
      { substitute: "11.27 kilograms", weight: 2 },
      { substitute: "quux", weight: 7 },
    ]);
    expect(g.items[0].key).toBe("t.n 1");
  });

  it("keeps the space after a `; ` in the candidate (entries are not stripped) and refuses a count int() cannot read", () => {
    expect(parseLstGapGold("t.n 1 :: a 1; b 2\n", "g").items[0].weights.map((w) => w.substitute)).toEqual(["a", " b"]);
    // `a 1.5`: int(" 1.5") raises ValueError; the script prints the line and exits 1.
    const bad = parseLstGapGold("t.n 1 :: a 1;\nt.n 2 :: a 1.5;\n", "g.gold");
    expect(bad.diagnostics.map((d) => `${d.severity} ${d.file}:${d.line}`)).toEqual(["error g.gold:2"]);
  });

  it("scores those entries: a perfect ranking prints MEAN_GAP 1.0, as Python's str(1.0)", () => {
    // gold sorted: quux 7, 11.27 kilograms 2, x 1; the run ranks quux (7) > 11.27 kilograms (0.5) > x (0.25): GAP 1.
    const t = gap("t.n 1 :: x 1;11.27 kilograms 2;quux7;\n", "RESULT\tt.n 1\tquux7\t11.27 kilograms 0.5\tx 0.25\n");
    expect(t.rows[0].report).toBe(summary(1, 1, 0, "1.0"));
    expect(t.rows[0].values[0]).toBe(1);
  });

  it("a `quux7` closing a run line keeps the line's newline as its score and is skipped", () => {
    // Only x is ranked: numerator 1/1; denominator 7/1 + 9/2 + 10/3 = 89/6; GAP 6/89, str() 0.0674157303371.
    const t = gap("t.n 1 :: x 1;11.27 kilograms 2;quux7;\n", "RESULT\tt.n 1\tx 0.25\tquux7\n");
    expect(t.rows[0].report).toBe(summary(1, 1, 0, "0.0674157303371"));
    expect(t.diagnostics.some((d) => d.severity === "warning" && d.line === 1 && /quux7/.test(d.message))).toBe(true);
  });

  it("items without a positive weight are ignored and the mean prints with 12 significant digits", () => {
    // t.n 1: 1.0; t.n 2: c@1 1/1 + b@2 4/2 = 3 over 3/1 + 4/2 = 5 → 0.6; t.n 3: only weight 0 → −1, ignored. Mean 0.8.
    const t = gap("t.n 1 :: a 1;\nt.n 2 :: b 3;c 1\nt.n 3 :: z 0;\n", "RESULT\tt.n 1\ta 1\nRESULT\tt.n 2\tc 2\tb 1\nRESULT\tt.n 3\tz 1\n");
    expect(t.rows[0].report).toBe(summary(3, 2, 1, "0.8"));
  });
});

describe("inf, -Infinity and nan scores", () => {
  it("lst: read with Python's float() and ranked as sorted(reverse=True) ranks them", () => {
    // Keys reversed first: [1, nan, inf, -inf]; the first run [1, nan, inf] (nothing < its left
    // neighbour), -inf inserted before inf; reversed back: a (inf), b (-inf), c (nan), d (1).
    const run = parseRanked("RESULT\tt.n 1\tb -Infinity\ta inf\tc nan\td 1\n", "r.lst", "lst");
    expect(run.items[0].candidates.map((c) => c.substitute)).toEqual(["a", "b", "c", "d"]);
    // gold a 2, b 1, d 1: numerator 2/1 + 3/2 + 4/4 = 4.5, denominator 2 + 3/2 + 4/3 = 29/6; GAP 27/29.
    const t = gap("t.n 1 :: a 2;b 1;d 1;\n", "RESULT\tt.n 1\tb -Infinity\ta inf\tc nan\td 1\n");
    expect(t.rows[0].report).toBe(summary(1, 1, 0, "0.931034482759"));
  });

  it("swords-json: NaN, Infinity and -Infinity read as json.loads reads them, sorted by −score as swords sorts", () => {
    // sorted([("a", -inf), ("b", 0.5), ("c", nan)], key=lambda x: -x[1]) == [b, a, c]
    const run = parseRanked('{"substitutes": {"t:1": [["a", -Infinity], ["b", 0.5], ["c", NaN]], "t:2": [["x", "-inf"], ["y", Infinity]]}}', "r.json", "swords-json");
    expect(run.diagnostics).toEqual([]);
    expect(run.items.map((i) => i.candidates.map((c) => c.substitute))).toEqual([["b", "a", "c"], ["y", "x"]]);
    expect(run.items[1].candidates.map((c) => c.score)).toEqual([Infinity, -Infinity]);
  });
});

describe("an item under another lexelt (lst_gap.py: KeyError)", () => {
  const gold = "t.n 1 :: a 1;\n";
  const run = "RESULT\tu.n 1\ta 1\n";
  it("is refused by default, naming the gold line and the run line", () => {
    const t = gap(gold, run);
    const err = t.diagnostics.find((d) => d.severity === "error");
    expect(err).toMatchObject({ file: "g.gold", line: 1 });
    expect(err!.message).toMatch(/"u\.n 1" \(line 1\).*--repaired/);
    expect(t.rows[0].values[0]).toBeNull();
  });
  it("is matched by id with --repaired, with a warning", () => {
    const t = gap(gold, run, { repaired: true });
    expect(t.rows[0].report).toBe(summary(1, 1, 0, "1.0"));
    expect(t.diagnostics.some((d) => d.severity === "warning" && /matched by id/.test(d.message))).toBe(true);
  });
});

describe("LexSubGen (--variant lexsubgen)", () => {
  it("strips each entry, keeps the last weight of a repeated entry at its first place, keys by id", () => {
    const g = parseLexsubgenGold("t.n 1 ::  a 1 ; b 2;a 3;c\t1\n\nt.n 2 :: d 1.5;\n", "g.gold");
    expect(g.diagnostics).toEqual([]);
    expect(g.items.map((i) => i.key)).toEqual(["1", "2"]);
    expect(g.items[0].weights.map((w) => [w.substitute, w.weight])).toEqual([["a", 1], ["b", 2], ["a", 3], ["c", 1]]);
  });

  it("counts a repeated candidate at each place; metrics.json's round(mean × 100, 2)", () => {
    // gold map {a: 3, b: 2, c: 1}: denominator 3/1 + 5/2 + 6/3 = 7.5; run a, a, c: 3/1 + 6/2 + 7/3 = 25/3;
    // GAP 10/9 = 1.111…; round(111.11…, 2) = 111.11.
    const t = gap("t.n 1 :: a 1;b 2;a 3;c 1;\n", "RESULT\tt.n 1\ta 3\ta 2\tc 1\n", { variant: "lexsubgen" });
    expect(t.rows[0].values[0]).toBeCloseTo(10 / 9, 12);
    expect(t.rows[0].report).toBe('{\n    "gap": 111.11\n}\n');
  });

  it("an empty gold item is left out (None); a weight of nan makes the item nan, left out by pandas' mean", () => {
    // item 1: a@1 → 2/1 over 2/1 → 1.0; item 2: no entry → None; item 3: weight nan → nan/nan. Mean 1.0 → 100.0.
    const t = gap("t.n 1 :: a 2;\nt.n 2 :: ;\nt.n 3 :: b nan;\n", "RESULT\tt.n 1\ta 1\nRESULT\tt.n 2\tq 1\nRESULT\tt.n 3\tb 1\n", { variant: "lexsubgen" });
    expect(t.rows[0].report).toBe('{\n    "gap": 100.0\n}\n');
  });

  it("stops where its reader stops: an entry of one word, an id given twice", () => {
    expect(parseLexsubgenGold("t.n 1 :: a;\n", "g").diagnostics[0]).toMatchObject({ severity: "error", line: 1 });
    expect(parseLexsubgenGold("t.n 1 :: a 1;\nu.n 1 :: b 1;\n", "g").diagnostics[0]).toMatchObject({ severity: "error", line: 2 });
  });
});
